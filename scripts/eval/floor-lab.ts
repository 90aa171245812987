/**
 * Relevance-floor lab: for each pair of floor bars (src/core/recall/floor.ts), how many of
 * the top 5 hits of off-topic queries survive (dev-agent and the personal sets asked
 * `data/nonsense-queries.json`), and what the floor costs real questions (hit@1, hit@5, MRR
 * after the floor, and relevant hits dropped from the top 10), on hits ranked by adaptive
 * fusion with the n-gram and USE-lite embedders.
 *
 *   npx tsx scripts/eval/floor-lab.ts [--holdout] [--query-coverage C --query-lift Z --hit-lift H]
 */
import { parseArgs } from 'node:util'
import {
  applyFloor,
  DEFAULT_FLOOR_POLICY,
  type FloorPolicy,
  type HitEvidence,
} from '../../src/core/recall/floor.ts'
import { adaptiveFusion, labCalibration, MODEL_OF } from './fusions.ts'
import { LAB_SETS, labSet, nonsenseSet } from './lab-data.ts'
import type { CollectedSet, QueryLists } from './lists.ts'
import { type Metrics, mean, scoreQuestion } from './metrics.ts'

/** Each of a question's fused hits, best first, with its floor evidence. */
export function rankedWithEvidence(
  q: QueryLists,
  embedder: string,
): { id: string; evidence: HitEvidence }[] {
  const terms = new Set(q.queryTerms)
  const matched = new Map(q.keyword.map((h) => [h.id, h.terms.filter((t) => terms.has(t)).length]))
  const cosine = new Map(q.cosines.map((c) => [c.id, c.score]))
  const ids = adaptiveFusion()(q, { name: '', keys: {}, texts: {}, questions: [] }, embedder)
  return ids.map((id) => ({
    id,
    evidence: {
      coverage: terms.size > 0 ? (matched.get(id) ?? 0) / terms.size : 0,
      ...(cosine.has(id) ? { cosine: cosine.get(id)! } : {}),
    },
  }))
}

export interface FloorOutcome {
  metrics: Metrics
  /** Relevant hits in a top 10 that the floor removed. */
  droppedRelevant: number
  /** Questions whose answer in the top 10 the floor removed entirely. */
  lostQuestions: number
  /** Mean hits removed from a top 10. */
  droppedPerQuery: number
}

export function realOutcome(
  collected: CollectedSet,
  embedder: string,
  policy: FloorPolicy | null,
): FloorOutcome {
  const calibration = labCalibration(MODEL_OF[embedder]!)
  const scores: Metrics[] = []
  let droppedRelevant = 0
  let lostQuestions = 0
  let dropped = 0
  for (const store of collected.stores) {
    for (const q of store.questions) {
      if (collected.apart.includes(q.kind)) continue
      const relevant = new Set(q.relevant)
      const isRelevant = (id: string) => (store.keys[id] ?? []).some((k) => relevant.has(k))
      const all = rankedWithEvidence(q, embedder)
      const ranked = all.slice(0, 10)
      const kept = (
        policy ? applyFloor(all, (h) => h.evidence, calibration, policy).kept : all
      ).slice(0, 10)
      const lostHere = ranked.filter((h) => isRelevant(h.id) && !kept.includes(h)).length
      if (process.env.FLOOR_TRACE && lostHere > 0) {
        process.stderr.write(
          `lost: ${q.query} ${JSON.stringify(ranked.filter((h) => isRelevant(h.id)).map((h) => h.evidence))}\n`,
        )
      }
      droppedRelevant += lostHere
      if (ranked.some((h) => isRelevant(h.id)) && !kept.some((h) => isRelevant(h.id))) {
        lostQuestions++
      }
      dropped += ranked.length - kept.length
      scores.push(
        scoreQuestion(
          kept.map((h) => store.keys[h.id] ?? []),
          relevant,
        ),
      )
    }
  }
  return {
    metrics: mean(scores),
    droppedRelevant,
    lostQuestions,
    droppedPerQuery: dropped / scores.length,
  }
}

/** Mean top-5 hits an off-topic query keeps, and the share of such queries left with none. */
export function nonsenseOutcome(
  collected: CollectedSet,
  embedder: string,
  policy: FloorPolicy | null,
): { keptPerQuery: number; empty: number; queries: number } {
  const calibration = labCalibration(MODEL_OF[embedder]!)
  let kept = 0
  let empty = 0
  let n = 0
  for (const store of collected.stores) {
    for (const q of store.questions) {
      const all = rankedWithEvidence(q, embedder)
      const survivors = (
        policy ? applyFloor(all, (h) => h.evidence, calibration, policy).kept : all
      ).slice(0, 5)
      kept += survivors.length
      if (survivors.length === 0) empty++
      n++
    }
  }
  return { keptPerQuery: kept / n, empty: empty / n, queries: n }
}

const GENERIC = ['dev-agent', 'personal-tune', 'personal-holdout']

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      holdout: { type: 'boolean', default: false },
      'query-coverage': { type: 'string' },
      'query-lift': { type: 'string' },
      'hit-lift': { type: 'string' },
    },
  })
  const role = values.holdout ? 'holdout' : 'tune'
  const real = LAB_SETS.filter((s) => s.role === role)
  // Nonsense: the tuning half against the tuning stores; the held-out half against all three.
  const bases = LAB_SETS.filter(
    (s) => GENERIC.includes(s.id) && (values.holdout || s.role === 'tune'),
  )
  const policies: (FloorPolicy | null)[] =
    values['query-coverage'] !== undefined ||
    values['query-lift'] !== undefined ||
    values['hit-lift'] !== undefined
      ? [
          null,
          {
            queryCoverage: Number(values['query-coverage'] ?? DEFAULT_FLOOR_POLICY.queryCoverage),
            queryLift: Number(values['query-lift'] ?? DEFAULT_FLOOR_POLICY.queryLift),
            hitLift: Number(values['hit-lift'] ?? DEFAULT_FLOOR_POLICY.hitLift),
            minCosine: DEFAULT_FLOOR_POLICY.minCosine,
          },
        ]
      : [
          null,
          ...[0.25, 0.34, 0.5].flatMap((queryCoverage) =>
            [2, 2.5, 3, 4, 99].flatMap((queryLift) =>
              [0, 0.5, 1, 1.5].map((hitLift) => ({
                queryCoverage,
                queryLift,
                hitLift,
                minCosine: DEFAULT_FLOOR_POLICY.minCosine,
              })),
            ),
          ),
        ]
  for (const embedder of ['ngram', 'use']) {
    const realSets = await Promise.all(real.map((s) => labSet(s, embedder)))
    const nonsense = await Promise.all(bases.map((b) => nonsenseSet(b, role, embedder)))
    const out = [
      `\n## ${embedder} (${role}): nonsense top-5 kept / share empty per store; real hit@1/hit@5/MRR, relevant dropped (questions lost)`,
      [
        'floor'.padEnd(16),
        ...bases.map((b) => `nonsense ${b.id}`.padEnd(28)),
        ...real.map((s) => s.id.padEnd(32)),
      ].join(''),
    ]
    for (const policy of policies) {
      const cells = [
        (policy
          ? `${policy.queryCoverage}/${policy.queryLift}/${policy.hitLift}`
          : 'no floor'
        ).padEnd(16),
        ...nonsense.map((c) => {
          const r = nonsenseOutcome(c, embedder, policy)
          return `${r.keptPerQuery.toFixed(2)} / ${(100 * r.empty).toFixed(0)}% (${r.queries})`.padEnd(
            28,
          )
        }),
        ...realSets.map((c) => {
          const r = realOutcome(c, embedder, policy)
          const m = r.metrics
          return `${m['hit@1'].toFixed(3)}/${m['hit@5'].toFixed(3)}/${m.mrr.toFixed(3)} -${r.droppedRelevant}(${r.lostQuestions})`.padEnd(
            32,
          )
        }),
      ]
      out.push(cells.join(''))
    }
    process.stdout.write(`${out.join('\n')}\n`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exit(1)
  })
}
