/**
 * Defaults of recall: fusion, boosts, the select hook, the recall queue and the recall log.
 * Gathered by `core/options.ts`.
 */

import type { BoostOptions, ListName, RecallOptions } from '../contract/recall.ts'

export type { BoostOptions } from '../contract/recall.ts'

/**
 * The engine-only tuning of retrieval and dedup (`EngineOptions.retrieval`): what no single
 * recall may change. What a recall may change has its engine-wide default in
 * `EngineOptions.recallDefaults`, of the recall options' own type. Range notes are what makes
 * sense, not hard limits.
 */
export interface RetrievalOptions {
  /** RRF constant: score = Σ weight / (rrfK + rank). @default 60 */
  rrfK: number
  /** Candidates taken from each list before fusion, 1..100000. @default 30 */
  listDepth: number
  /** Cosine at or above which a write is a near duplicate of an existing memory. @default 0.97 */
  nearDuplicate: number
  /**
   * Cosine from which a stored memory of the same namespace and type is reported in a write's
   * `related` (up to `nearDuplicate`). It belongs to the embedding model, whose cosines run on
   * their own scale: set it with the model. 0..1. @default 0.8
   */
  relatedFloor: number
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
  listDepth: 30,
  nearDuplicate: 0.97,
  relatedFloor: 0.8,
})

/**
 * Engine-wide defaults of the per-call recall options (`EngineOptions.recallDefaults`): the same
 * type as a recall's options, less the `select` hook (a function, which cannot cross to a
 * worker), merged under each call's options field by field (MiniSearch's `searchOptions`): a
 * call's value wins; `weights`, `selectOptions` and the objects of `floor` and `boosts` merge
 * by field; `floor: true` or `boosts: true` on a call keeps the engine's bars.
 *
 * @example
 * await MemoryEngine.open({ name: 'm', recallDefaults: { k: 8, boosts: { recency: 1.5 } } })
 * await memory.recall('units') // => up to 8 hits, confirmed ones boosted ×1.5
 */
export type RecallDefaults = Omit<RecallOptions, 'select'>

/**
 * What a recall option is when neither the call nor `recallDefaults` gives it (`floor` and
 * `selectOptions` have their own tables: `DEFAULT_FLOOR_POLICY`, {@link DEFAULT_SELECT}).
 * `k` with a `tokenBudget` and no `k` anywhere is `limits.maxK`: the budget decides.
 */
export const DEFAULT_RECALL = Object.freeze({
  k: 5,
  mode: 'hybrid',
  explain: true,
  includeFlagged: true,
  includeExpired: false,
  includeSuperseded: false,
  expand: 0,
  log: true,
  collapsePages: true,
} as const satisfies RecallDefaults)

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
 * Hybrid recall reads this many times `listDepth` from the vector index: the list it fuses is the
 * top `listDepth`, the rest only supply cosines of keyword candidates the list left out. An
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
