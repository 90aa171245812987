/**
 * Ranking metrics of the evaluation: hit@1/3/5/10, MRR@10 and precision@3, per question, then
 * averaged overall and per kind.
 */

/** The metric names, in report order. Rates in 0..1. */
export const METRICS = ['hit@1', 'hit@3', 'hit@5', 'hit@10', 'mrr', 'p@3'] as const
export type MetricName = (typeof METRICS)[number]
export type Metrics = Record<MetricName, number>

/** Ranks past this one count as a miss everywhere (MRR@10). */
export const DEPTH = 10

/**
 * One question's scores. `ranked` holds, best first, the relevance keys each retrieved memory
 * is credited with (usually one; a memory that absorbed exact duplicates, or an observation
 * citing several turns, has more). A memory is relevant when any of its keys is; precision@3
 * counts relevant memories, not keys, so one memory never counts twice.
 *
 * @example
 * scoreQuestion([['a'], ['b'], ['c', 'x']], new Set(['x']))
 * // => { 'hit@1': 0, 'hit@3': 1, 'hit@5': 1, 'hit@10': 1, mrr: 0.333…, 'p@3': 0.333… }
 */
export function scoreQuestion(
  ranked: readonly (readonly string[])[],
  relevant: ReadonlySet<string>,
): Metrics {
  let first = 0
  let inTop3 = 0
  const depth = Math.min(DEPTH, ranked.length)
  for (let i = 0; i < depth; i++) {
    if (!ranked[i]!.some((key) => relevant.has(key))) continue
    if (first === 0) first = i + 1
    if (i < 3) inTop3++
  }
  const hit = (k: number) => (first > 0 && first <= k ? 1 : 0)
  return {
    'hit@1': hit(1),
    'hit@3': hit(3),
    'hit@5': hit(5),
    'hit@10': hit(10),
    mrr: first > 0 ? 1 / first : 0,
    'p@3': inTop3 / 3,
  }
}

/** The mean of each metric; all zeros for no questions. */
export function mean(scores: readonly Metrics[]): Metrics {
  const total = Object.fromEntries(METRICS.map((m) => [m, 0])) as Metrics
  for (const s of scores) for (const m of METRICS) total[m] += s[m]
  if (scores.length > 0) for (const m of METRICS) total[m] /= scores.length
  return total
}

/** A mode's report: `overall` leaves out the kinds reported apart; `byKind` has every kind. */
export interface ModeReport {
  overall: Metrics
  byKind: Record<string, Metrics>
}

/**
 * Averages scored questions overall and per kind. Kinds listed in `apart` (LoCoMo's
 * adversarial category 5) get their own `byKind` entry but stay out of `overall`.
 *
 * @example
 * summarize([{ kind: '1', scores: s1 }, { kind: '5', scores: s5 }], ['5']).overall
 * // => mean([s1])
 */
export function summarize(
  rows: readonly { kind: string; scores: Metrics }[],
  apart: readonly string[] = [],
): ModeReport {
  const byKindRows = new Map<string, Metrics[]>()
  for (const row of rows) {
    const list = byKindRows.get(row.kind) ?? []
    list.push(row.scores)
    byKindRows.set(row.kind, list)
  }
  const kinds = [...byKindRows.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  return {
    overall: mean(rows.filter((r) => !apart.includes(r.kind)).map((r) => r.scores)),
    byKind: Object.fromEntries(kinds.map((kind) => [kind, mean(byKindRows.get(kind)!)])),
  }
}
