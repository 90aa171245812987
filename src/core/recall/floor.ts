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
 * The query's cosine bar knows how much it has seen (issue 26): judged against n cosines, it is
 * where the best of n unrelated ones lands on average, the expected maximum of n standard normals
 * in spreads (Blom's Φ⁻¹((n − 0.375) / (n + 0.25)): 1.18 for 5 memories, 1.95 for 24, 2.5 from
 * about 100), capped at `queryLift`. Below it the best hit cannot be told from the store's noise;
 * above it a small store keeps it, having no distribution to say more. The engine passes n only
 * for a store smaller than one list's read (`listDepth`); larger ones are held to `queryLift`.
 * (The asymptotic √(2 ln n) overstates that maximum at small n: 1.79 for 5.)
 *
 * That bar alone could not tell a paraphrase from an off-topic question in a small store (USE-lite
 * scores correct paraphrases as low as 1.56 spreads, trivia about the store's topics as high as
 * 2.88). When the engine also reads the query's best cosine to the open world
 * (`src/core/recall/open-world.ts`, encyclopedic text about no one), a small store judges by it
 * instead: its best hit must clear an absolute bar and stand no further below the world's best
 * than {@link SMALL_STORE_FLOOR} allows. A question about the user's facts lands nearer the store;
 * one about the world, nearer the world.
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

/**
 * The small-store bars, in calibration spreads, used when the open world's cosine is known (set on
 * the tuning half of the small-store set, USE-lite, `npx tsx scripts/eval/small-store-eval.ts
 * --role tune`): the best hit needs a lift of `lift` (the lowest correct paraphrase stood at 1.56)
 * and may stand at most `openWorldMargin` below the query's best open-world cosine (correct
 * paraphrases stood at −0.42 or above, off-topic questions at −1.38 or below; the midpoint).
 * Both are read at the default `queryLift` and scale with the policy's: the lift bar in proportion,
 * the margin inversely (a `queryLift` of 0 keeps every small-store query, 5 halves the margin).
 * A store counts as small below `memories` vectors: the best of n store cosines is held against
 * the best of the world's 83, a fair match while n is of that order (the expected maxima of 100
 * and 83 unrelated cosines differ by 0.08 spreads; of 1,000 and 83, by 0.8).
 */
export const SMALL_STORE_FLOOR: Readonly<{
  lift: number
  openWorldMargin: number
  memories: number
}> = Object.freeze({ lift: 1, openWorldMargin: 0.5, memories: 100 })

/** How many cosines a query's standing rests on, and what it is held against. */
export interface FloorRead {
  /**
   * How many cosines the vector list read: the whole scope when it is small; unknown means many
   * ({@link queryLiftBar}). @default Infinity
   */
  memories?: number
  /**
   * The query's best cosine to the open world, which the engine reads for a small store
   * ({@link SMALL_STORE_FLOOR}); when given, the query is judged against it, not by `memories`.
   */
  openWorld?: number
}

/** How far `cosine` stands above the model's unrelated level, in spreads; 0 below it. */
export function liftOf(cosine: number, calibration: ModelCalibration): number {
  return Math.max(0, (cosine - calibration.unrelated) / calibration.spread)
}

/**
 * The best-cosine bar for a query judged against `memories` cosines: `queryLift`, or below it
 * the lift the best of that many unrelated cosines reaches on average ({@link expectedMaximum}).
 *
 * @example
 * queryLiftBar(2.5, 5) // => 1.18
 * queryLiftBar(2.5, 24) // => 1.95
 * queryLiftBar(2.5, 150) // => 2.5
 */
export function queryLiftBar(queryLift: number, memories: number): number {
  if (!Number.isFinite(memories)) return queryLift
  return Math.min(queryLift, expectedMaximum(memories))
}

/**
 * The expected largest of `n` independent standard normal draws, by Blom's plotting position
 * (within 0.02 of the exact value for n ≥ 5, 0.03 below); 0 for one draw or none.
 *
 * @example
 * expectedMaximum(5) // => 1.18 (exact 1.163)
 */
export function expectedMaximum(n: number): number {
  if (n <= 1) return 0
  return normalQuantile((n - 0.375) / (n + 0.25))
}

// Acklam's rational approximation of the standard normal quantile (relative error < 1.2e-9).
const A = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
  2.506628277459239,
]
const B = [
  -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
]
const C = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
  4.374664141464968, 2.938163982698783,
]
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]

/** Φ⁻¹(p) for p in (0, 1). */
export function normalQuantile(p: number): number {
  const low = 0.02425
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p))
    return tail(q)
  }
  if (p > 1 - low) return -tail(Math.sqrt(-2 * Math.log(1 - p)))
  const q = p - 0.5
  const r = q * q
  const num = ((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!
  const den = ((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1
  return (num * q) / den
}

function tail(q: number): number {
  const num = ((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!
  return num / ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1)
}

/**
 * Whether the query, judged by its hits together, is about anything the store holds. `read`
 * says how many cosines the judgement rests on and, for a small store, the open world's best
 * ({@link FloorRead}).
 *
 * @example
 * const use = { unrelated: 0.14, spread: 0.1, nearDuplicate: 0.95, vectorShare: 3 }
 * // "which city do we live in?" in an 8-fact store: best 0.31, the world's best 0.35
 * queryOnTopic([{ coverage: 0, cosine: 0.31 }], use, undefined, { memories: 8, openWorld: 0.35 })
 * // => true
 * // "recite the periodic table backwards": best 0.31, the world's best 0.44
 * queryOnTopic([{ coverage: 0, cosine: 0.31 }], use, undefined, { memories: 8, openWorld: 0.44 })
 * // => false
 */
export function queryOnTopic(
  hits: readonly HitEvidence[],
  calibration: ModelCalibration,
  policy: FloorPolicy = DEFAULT_FLOOR_POLICY,
  read: FloorRead = {},
): boolean {
  let best = Number.NEGATIVE_INFINITY
  for (const hit of hits) {
    if (hit.exact || hit.coverage >= policy.queryCoverage) return true
    // Keyword-only recall has no second opinion: any BM25 match counts.
    if (hit.cosine === undefined) {
      if (hit.coverage > 0) return true
    } else best = Math.max(best, hit.cosine)
  }
  const memories = read.memories ?? Number.POSITIVE_INFINITY
  const lift = best === Number.NEGATIVE_INFINITY ? 0 : liftOf(best, calibration)
  if (read.openWorld !== undefined) {
    // `queryLift` stays the one strictness knob: both small-store bars scale with it.
    const strictness = policy.queryLift / DEFAULT_FLOOR_POLICY.queryLift
    // 0 keeps every query, also one whose hits carry no cosine (−∞ × 0 is NaN).
    if (strictness === 0) return true
    const margin = (best - read.openWorld) / calibration.spread
    return (
      lift >= SMALL_STORE_FLOOR.lift * strictness &&
      margin * strictness >= -SMALL_STORE_FLOOR.openWorldMargin
    )
  }
  return lift >= queryLiftBar(policy.queryLift, memories)
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
 * all of them. `read`: how many cosines the vector list read, and for a small store the open
 * world's best cosine ({@link FloorRead}).
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
  read: FloorRead = {},
): { kept: T[]; dropped: number } {
  const all = hits.map(evidence)
  if (!queryOnTopic(all, calibration, policy, read)) return { kept: [], dropped: hits.length }
  const kept = hits.filter((_, i) => hitHasEvidence(all[i]!, calibration, policy))
  return { kept, dropped: hits.length - kept.length }
}
