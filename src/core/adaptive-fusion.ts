/**
 * Query-adaptive fusion (issue 13 §3): how far to trust each list for this one query, from the
 * evidence the lists themselves give, on the scale of the model that produced the cosines.
 * Pure: recall measures the evidence ({@link QueryEvidence}), this module turns it into the
 * shares and floors {@link combine} takes.
 */

import type { CombineOptions } from './fusion.ts'

/**
 * What one embedding model's cosines mean, measured once per model (scripts/eval/calibrate.ts)
 * and kept with the model (`calibration` in the model table, `src/embedder/model-table.ts`):
 * fusion, the relevance floor and near dedup read cosines against it rather than against
 * absolute numbers that differ from model to model. This module holds only the maths.
 */
export interface ModelCalibration {
  /**
   * Mean cosine between a query and a memory about something else: the level a vector list
   * reaches with nothing relevant in the store. Range (-1, 1).
   */
  unrelated: number
  /** Standard deviation of those cosines: the unit in which gaps between cosines are read. > 0. */
  spread: number
  /**
   * Cosine at or above which a new memory is a near duplicate of an existing one (with the
   * text guard of `near-duplicate.ts`). Range (0, 1]; above 1 switches near dedup off.
   */
  nearDuplicate: number
  /**
   * The vector list's share against the keyword list's 1 when both are fully trusted: how much
   * this model's cosines know that BM25 does not. Set on the tuning sets (docs/quality.md). >= 0.
   */
  vectorShare: number
}

/** What the lists say about one query, measured by recall before fusing. */
export interface QueryEvidence {
  /** Unique index terms of the query (after stop words and stemming). */
  queryTerms: number
  /** Query terms the keyword list's top hit matched; 0 when the list is empty. */
  topMatched: number
  /** The vector list's cosines, best first; the top two matter. Empty without a vector list. */
  cosines: readonly number[]
  /** The keyword list's BM25 scores, best first; the top two matter. @default none */
  keywordScores?: readonly number[]
}

/** The knobs of {@link adaptiveShares}, shared by every model; see {@link DEFAULT_ADAPTIVE_POLICY}. */
export interface AdaptivePolicy {
  /**
   * Keyword trust for a top hit that matched none of the query's terms, as a fraction of full
   * trust; coverage c (matched / query terms) gives floor + (1 - floor) × c. Range [0, 1].
   */
  coverageFloor: number
  /**
   * The gap between the top two cosines, in calibration spreads, at which the vector list's
   * top is fully trusted; smaller gaps scale trust down linearly to `peakFloor` at 0. > 0.
   */
  peakGap: number
  /** Vector trust, as a fraction of full trust, for a list whose top two cosines tie. [0, 1]. */
  peakFloor: number
  /**
   * How far the top cosine must stand above the model's unrelated level, in spreads, for full
   * vector trust; trust scales down linearly to 0 at the unrelated level. >= 0; 0 ignores it.
   */
  liftSpreads: number
  /**
   * Cosines are normalised over `[unrelated + floorSpreads × spread, top]` (the vector floor of
   * {@link combine}) instead of `[-1, top]`, so the list's say spreads over cosines that can
   * mean something. Range [-10, 10].
   */
  floorSpreads: number
  /**
   * A BM25 winner standing clear: when the keyword list's top score is at least `leadRatio`
   * times its runner-up's (or has none), the vector list's trust is multiplied by `leadTrust`.
   * 0 switches it off; otherwise > 1. @default 0
   */
  leadRatio?: number
  /** The vector trust kept under a clear BM25 lead ({@link leadRatio}). Range [0, 1]. @default 1 */
  leadTrust?: number
}

/**
 * Tuned by grid search on the tuning sets only (LoCoMo conversations 1–3, turns and
 * observations; dev-agent; personal-tune), with the n-gram and USE-lite embedders at once, for
 * the best worst-case margin of hybrid over max(keyword, semantic) on hit@1, hit@5 and MRR
 * (`npx tsx scripts/eval/tune-fusion.ts`; docs/quality.md). Identifier and quoted-phrase
 * boosts, a BM25-lead boost, deeper peak gaps and trust-gated near-tie smoothing were tried and
 * gained nothing.
 */
export const DEFAULT_ADAPTIVE_POLICY: Readonly<AdaptivePolicy> = Object.freeze({
  coverageFloor: 0,
  peakGap: 0.5,
  peakFloor: 0,
  liftSpreads: 8,
  floorSpreads: -1,
})

/** What {@link adaptiveShares} decided, ready to spread into {@link combine}'s options. */
export interface AdaptiveDecision extends Required<Pick<CombineOptions, 'shares' | 'floors'>> {
  /** Each list's trust in [0, 1] before the model's share, for explanations. */
  trust: { keyword: number; vector: number }
}

/** Whether the top BM25 score is at least `ratio` times the runner-up's (or stands alone). */
function leads(scores: readonly number[] | undefined, ratio: number): boolean {
  const [top, second] = scores ?? []
  if (top === undefined || top <= 0) return false
  return second === undefined || top >= ratio * second
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x))
}

/**
 * Per-query shares of the keyword and vector lists, and the cosine floor, for {@link combine}.
 * The keyword list is trusted by how much of the query its top hit covers (a BM25 winner that
 * matched one word of five is a guess). The vector list is trusted by how far its top cosine
 * stands above the runner-up, in the model's spread (a flat top means the model cannot tell
 * its best candidates apart), times how far the top stands above the model's unrelated level
 * (a best match that looks like noise is noise); its full share is the model's
 * {@link ModelCalibration.vectorShare}. Alias and tag shares stay {@link combine}'s defaults.
 * Use it when the vector list ran; without one, recall's keyword-only fusion stands.
 *
 * @example
 * adaptiveShares(
 *   { queryTerms: 2, topMatched: 1, cosines: [0.62, 0.41] },
 *   { unrelated: 0.14, spread: 0.1, nearDuplicate: 0.95, vectorShare: 3 }, // USE-lite's
 * )
 * // => { shares: { keyword: 0.5, vector: 1.8 }, floors: { vector: 0.04 },
 * //      trust: { keyword: 0.5, vector: 0.6 } }
 */
export function adaptiveShares(
  evidence: QueryEvidence,
  calibration: ModelCalibration,
  policy: AdaptivePolicy = DEFAULT_ADAPTIVE_POLICY,
): AdaptiveDecision {
  const coverage = evidence.queryTerms > 0 ? clamp01(evidence.topMatched / evidence.queryTerms) : 0
  const keyword = policy.coverageFloor + (1 - policy.coverageFloor) * coverage
  const [top, second] = evidence.cosines
  let vector = 0
  if (top !== undefined) {
    const gap = second === undefined ? policy.peakGap : (top - second) / calibration.spread
    vector = policy.peakFloor + (1 - policy.peakFloor) * clamp01(gap / policy.peakGap)
    if (policy.liftSpreads > 0) {
      vector *= clamp01((top - calibration.unrelated) / calibration.spread / policy.liftSpreads)
    }
  }
  if (policy.leadRatio && policy.leadRatio > 0 && leads(evidence.keywordScores, policy.leadRatio)) {
    vector *= policy.leadTrust ?? 1
  }
  return {
    shares: { keyword, vector: calibration.vectorShare * vector },
    floors: { vector: calibration.unrelated + policy.floorSpreads * calibration.spread },
    trust: { keyword, vector },
  }
}
