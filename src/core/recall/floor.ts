/**
 * The relevance floor (issue 13 §4): after fusion, drop what has no real evidence, so
 * "banana spaceship" returns nothing rather than the least-bad memories, and a memory that
 * matched no query term at a cosine the model gives unrelated text (`semantic 0.00 (#2)`) does
 * not fill the top k. Two tests, both on the model's calibrated scale:
 *
 * - the query: is anything in the store about it? Some hit must match a good part of the
 *   query's terms, or the best cosine must stand well above the unrelated level. If neither,
 *   every hit goes.
 * - each hit: one that matched no query term stays only if its own cosine stands above the
 *   unrelated level.
 *
 * The query's cosine bar knows how much it has seen (issue 26): the best of n unrelated cosines
 * stands about √(2 ln n) spreads above the unrelated level (the Gaussian maximum), so a store of
 * 5 memories cannot be asked for the 2.5 spreads that separate noise from signal among 45. The
 * bar is the lower of `queryLift` and that expected maximum; from about 23 memories on it is
 * `queryLift` alone.
 *
 * Pure: recall's floor stage (`src/engine/recall/floor.ts`) supplies each hit's evidence and the
 * model's calibration (from the model table).
 */

import type { ModelCalibration } from '../adaptive-fusion.ts'

/** What one fused hit has going for it. */
export interface HitEvidence {
  /** Share of the query's unique index terms the hit matched, in [0, 1]; 0 if BM25 missed it. */
  coverage: number
  /** The hit's cosine to the query; absent when no vector list ran (keyword-only recall). */
  cosine?: number
  /** Found by an exact list (an alias the query names): kept whatever else it shows. */
  exact?: boolean
}

/** The floor's bars; see {@link DEFAULT_FLOOR_POLICY}. Lifts are in calibration spreads. */
export interface FloorPolicy {
  /**
   * The query is about something in the store when some hit matched at least this share of
   * its terms… Range (0, 1].
   */
  queryCoverage: number
  /** …or the best cosine stands this far above the unrelated level. >= 0. */
  queryLift: number
  /** A hit that matched no query term needs its cosine this far above the unrelated level. */
  hitLift: number
  /**
   * …and, whatever the model's calibration, a raw cosine of at least this; -1 is no bar. The
   * one rule behind the agent's `minCosine` (`memory_search` and `contextFor` alike). -1..1.
   */
  minCosine: number
}

/**
 * Set on the tuning sets (`npx tsx scripts/eval/floor-lab.ts`, docs/quality.md): with USE-lite
 * it empties 94 % of off-topic queries against dev-agent and 81 % against personal-tune and
 * costs one real question (a nephew whose fact the model scores at the unrelated level); the
 * n-gram embedder, which knows no synonyms, loses six paraphrase questions whose answers had
 * neither a matched term nor a cosine above noise.
 */
export const DEFAULT_FLOOR_POLICY: Readonly<FloorPolicy> = Object.freeze({
  queryCoverage: 0.25,
  queryLift: 2.5,
  hitLift: 0.5,
  minCosine: -1,
})

/** How far `cosine` stands above the model's unrelated level, in spreads; 0 below it. */
export function liftOf(cosine: number, calibration: ModelCalibration): number {
  return Math.max(0, (cosine - calibration.unrelated) / calibration.spread)
}

/**
 * The best-cosine bar for a query judged against `memories` cosines: `queryLift`, or below it
 * the lift the best of that many unrelated cosines is expected to reach, √(2 ln n).
 *
 * @example
 * queryLiftBar(2.5, 5) // => 1.79
 * queryLiftBar(2.5, 45) // => 2.5
 */
export function queryLiftBar(queryLift: number, memories: number): number {
  if (!Number.isFinite(memories)) return queryLift
  return Math.min(queryLift, Math.sqrt(2 * Math.log(Math.max(1, memories))))
}

/**
 * Whether the query, judged by its hits together, is about anything the store holds.
 * `memories` is how many cosines the judgement rests on (the vector list's read: the whole
 * scope when it is small); unknown means many.
 */
export function queryOnTopic(
  hits: readonly HitEvidence[],
  calibration: ModelCalibration,
  policy: FloorPolicy = DEFAULT_FLOOR_POLICY,
  memories = Number.POSITIVE_INFINITY,
): boolean {
  let best = 0
  for (const hit of hits) {
    if (hit.exact || hit.coverage >= policy.queryCoverage) return true
    // Keyword-only recall has no second opinion: any BM25 match counts.
    if (hit.cosine === undefined) {
      if (hit.coverage > 0) return true
    } else best = Math.max(best, liftOf(hit.cosine, calibration))
  }
  return best >= queryLiftBar(policy.queryLift, memories)
}

/**
 * Whether one hit of an on-topic query has evidence of its own. Without a calibration (a model
 * nobody measured) only the raw `minCosine` bar can be read.
 */
export function hitHasEvidence(
  hit: HitEvidence,
  calibration: ModelCalibration | undefined,
  policy: FloorPolicy = DEFAULT_FLOOR_POLICY,
): boolean {
  if (hit.exact || hit.coverage > 0) return true
  if (hit.cosine === undefined) return false
  if (hit.cosine < policy.minCosine) return false
  return calibration === undefined || liftOf(hit.cosine, calibration) >= policy.hitLift
}

/**
 * The hits that clear the one bar an uncalibrated model allows, the raw `minCosine`: a hit that
 * matched no query term needs at least that cosine; the query as a whole is not judged.
 *
 * @example
 * applyCosineBar([{ coverage: 0, cosine: 0.2 }, { coverage: 0.5, cosine: 0.1 }], (h) => h, 0.5)
 * // => { kept: [the second], dropped: 1 }
 */
export function applyCosineBar<T>(
  hits: readonly T[],
  evidence: (hit: T) => HitEvidence,
  minCosine: number,
): { kept: T[]; dropped: number } {
  const policy = { ...DEFAULT_FLOOR_POLICY, minCosine }
  const kept = hits.filter((hit) => {
    const e = evidence(hit)
    return e.cosine === undefined ? true : hitHasEvidence(e, undefined, policy)
  })
  return { kept, dropped: hits.length - kept.length }
}

/**
 * The hits that clear the floor, in their order, and how many did not (recall reports it).
 * Pass every fused candidate, not just the top k: whether the query is on topic is judged on
 * all of them. `memories`: how many cosines the vector list read ({@link queryLiftBar}).
 *
 * @example
 * const use = { unrelated: 0.14, spread: 0.1, nearDuplicate: 0.95, vectorShare: 3 } // USE-lite
 * applyFloor([{ coverage: 0, cosine: 0.31 }, { coverage: 0, cosine: 0.2 }], (h) => h, use)
 * // => { kept: [], dropped: 2 } ('banana spaceship': best lift 1.7 < 2.5, nothing matched)
 * applyFloor(
 *   [{ coverage: 0, cosine: 0.52 }, { coverage: 0.5, cosine: 0.1 }, { coverage: 0, cosine: 0.16 }],
 *   (h) => h,
 *   use,
 * ) // => { kept: [the first two], dropped: 1 } (the last matched nothing, at lift 0.2)
 */
export function applyFloor<T>(
  hits: readonly T[],
  evidence: (hit: T) => HitEvidence,
  calibration: ModelCalibration,
  policy: FloorPolicy = DEFAULT_FLOOR_POLICY,
  memories = Number.POSITIVE_INFINITY,
): { kept: T[]; dropped: number } {
  const all = hits.map(evidence)
  if (!queryOnTopic(all, calibration, policy, memories)) return { kept: [], dropped: hits.length }
  const kept = hits.filter((_, i) => hitHasEvidence(all[i]!, calibration, policy))
  return { kept, dropped: hits.length - kept.length }
}
