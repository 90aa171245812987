/**
 * Defaults of recall: fusion, boosts, the select hook, the recall queue and the recall log.
 * Gathered by `core/options.ts`.
 */

import type { ListName } from '../contract/recall.ts'

/** Multiplicative boosts applied after fusion. */
export interface BoostOptions {
  /** Window in days within which a confirmation counts as recent. @default 30 */
  recencyDays: number
  /** Factor for memories confirmed within the window. @default 1.2 */
  recency: number
  /**
   * Factor at confidence 0.9 (`'high'`); the factor runs linearly from `lowConfidence` at 0.3
   * through 1 at 0.6 to this at 0.9 (and on to 1..0 beyond). @default 1.2
   */
  highConfidence: number
  /** Factor at confidence 0.3 (`'low'`). @default 0.8 */
  lowConfidence: number
  /** Added per past recall: factor = min(cap, 1 + step * recallCount). @default 0.01 */
  frequencyStep: number
  /** Ceiling of the frequency factor. @default 1.1 */
  frequencyCap: number
}

/** Tuning of retrieval and dedup. Range notes are what makes sense, not hard limits. */
export interface RetrievalOptions {
  /** RRF constant: score = Σ weight / (rrfK + rank). @default 60 */
  rrfK: number
  /** Candidates taken from each list before fusion. @default 30 */
  candidates: number
  /** Hits returned when `k` is not given. @default 5 */
  k: number
  /** Cosine at or above which a write is a near duplicate of an existing memory. @default 0.97 */
  nearDuplicate: number
  /**
   * Cosine from which a stored memory of the same namespace and type is reported in a write's
   * `related` (up to `nearDuplicate`). It belongs to the embedding model, whose cosines run on
   * their own scale: set it with the model. 0..1. @default 0.8
   */
  relatedFloor: number
  boosts: BoostOptions
  /**
   * How the lists are merged. `'score'`: a weighted convex combination of each list's
   * normalised scores, which listens to how sure each list is (near-tied BM25 scores leave the
   * call to the vector list); `'rrf'`: weighted reciprocal rank fusion, Σ weight / (rrfK + rank),
   * with near-tied ranks shared. See docs/quality.md for the measurements behind the default.
   * @default 'score'
   */
  fusion?: 'score' | 'rrf'
  /** Relative gap under which two scores of one list count as tied. @default per list (keyword 0.1) */
  tieEpsilon?: number
}

export const DEFAULT_BOOSTS: Readonly<BoostOptions> = Object.freeze({
  recencyDays: 30,
  recency: 1.2,
  highConfidence: 1.2,
  lowConfidence: 0.8,
  frequencyStep: 0.01,
  frequencyCap: 1.1,
})

export const DEFAULT_RETRIEVAL: Readonly<RetrievalOptions> = Object.freeze({
  rrfK: 60,
  candidates: 30,
  k: 5,
  nearDuplicate: 0.97,
  relatedFloor: 0.8,
  boosts: DEFAULT_BOOSTS,
})

/** Recall-log entries kept; the oldest are dropped. */
export const DEFAULT_RECALL_LOG_SIZE = 200

/** Limits of the optional `select` hook of recall (`RecallOptions.selectOptions`). */
export interface SelectOptions {
  /** Fused hits shown to the hook, best first; 1..100. @default 12 */
  candidates: number
  /** Most ids the hook's answer may keep; 1..100. Recall returns at most `min(k, keep)`. @default 3 */
  keep: number
  /** Milliseconds to wait for the hook before the fused ranking stands; 1..600000. @default 5000 */
  timeoutMs: number
}

export const DEFAULT_SELECT: Readonly<SelectOptions> = Object.freeze({
  candidates: 12,
  keep: 3,
  timeoutMs: 5000,
})

/** How recall fuses its lists; read from `RetrievalOptions` when the engine passes them. */
export interface FusionSettings {
  /**
   * `score`: convex combination of normalised scores (`combine` in core/fusion.ts); `rrf`:
   * tie-aware weighted reciprocal rank fusion (`fuse`). @default 'score'
   */
  fusion: 'score' | 'rrf'
  /**
   * The tie epsilon of every list: shared ranks for `rrf` (`FuseOptions.tieEpsilon`), smoothed
   * near-ties for `score` (`CombineOptions.tieEpsilon`). Range `[0, 0.5)`.
   * @default per list, {@link DEFAULT_TIE_EPSILON}
   */
  tieEpsilon?: number
}

export const DEFAULT_FUSION: Readonly<FusionSettings> = Object.freeze({ fusion: 'score' })

/**
 * Default tie epsilons. BM25 scores of templated facts ("X's brother is Y", "X's sister is Z")
 * differ only through length normalisation, about 6 % per token of length on short facts, while a
 * real keyword preference moves the score by 25 % (a repeated term) to 100 % or more (an extra
 * matched term, which MiniSearch also multiplies in): keyword gaps up to 10 % are ties, 20 % and
 * beyond are clear. Cosines sit on a fine absolute scale where 0.83 against 0.81 is a real
 * preference, so the vector list keeps its ranks; alias and tag hits all score 1 and tie anyway.
 * Range `[0, 0.5)` each.
 */
export const DEFAULT_TIE_EPSILON: Readonly<Record<ListName, number>> = Object.freeze({
  keyword: 0.1,
  vector: 0,
  alias: 0,
  tag: 0,
})

/**
 * Each list's share of the score fusion (`CombineOptions.shares`), ≥ 0. The vector list's 0.4 (a
 * semantic share of 0.4 / 1.4 ≈ 0.29 against BM25) was set on the dev sets of `npm run eval`
 * (docs/quality.md): with the n-gram test embedder, whose cosines add little to BM25's evidence,
 * hybrid then matches or beats keyword-only on hit@5 and MRR on every set, and equal shares do
 * not. A stronger model earns more: `weights.vector` multiplies it per recall (2.5 for equal
 * shares).
 */
export const DEFAULT_SCORE_SHARES: Readonly<Record<ListName, number>> = Object.freeze({
  keyword: 1,
  vector: 0.4,
  alias: 1,
  tag: 1,
})

/**
 * The least score each list can give (`CombineOptions.floors`): BM25 is never below 0; a cosine of
 * unit vectors never below -1; alias and tag scores are on [0, 1] already.
 */
export const DEFAULT_SCORE_FLOORS: Readonly<Record<ListName, number>> = Object.freeze({
  keyword: 0,
  vector: -1,
  alias: 0,
  tag: 0,
})

/**
 * Hybrid recall reads this many times `candidates` from the vector index: the list it fuses is the
 * top `candidates`, the rest only supply cosines of keyword candidates the list left out. An
 * integer ≥ 1; more costs scan time for rarer cosines. @default 4
 */
export const COSINE_DEPTH = 4

/** Milliseconds recall counters gather before one write stores them. @default 50 */
export const COUNTER_FLUSH_MS = 50

/**
 * How many recalls one engine works on at once, and how many may wait for a turn
 * (`EngineOptions.recallQueue`). A recall holds its lists, candidates and explanations while it
 * runs, so a burst of them at once grows the heap with the burst; beyond `concurrency` they wait
 * in arrival order, and beyond `maxQueued` waiting they are refused (`RecallBusyError`).
 *
 * @example
 * await MemoryEngine.open({ name: 'm', recallQueue: { concurrency: 1, maxQueued: 0 } })
 * // a second recall while one runs => rejects with RecallBusyError { code: 'RECALL_BUSY' }
 */
export interface RecallQueueOptions {
  /**
   * Recalls running at once; 1..64. More than a few gains nothing: recall is JavaScript on one
   * thread, and a handful in flight already overlaps query embedding with ranking. @default 4
   */
  concurrency: number
  /** Recalls waiting for a turn before more are refused; 0..100000. @default 256 */
  maxQueued: number
}

export const DEFAULT_RECALL_QUEUE: Readonly<RecallQueueOptions> = Object.freeze({
  concurrency: 4,
  maxQueued: 256,
})

/** Recall-log entries `inspect.recallLog()` returns when no `limit` is given; 1..1000000. @default 50 */
export const DEFAULT_RECALL_LOG_READ = 50
