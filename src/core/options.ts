/**
 * Every default in one place. Options types document meaning and range; the constants here are
 * what applies when a field is left out.
 */

/** Multiplicative boosts applied after fusion. */
export interface BoostOptions {
  /** Window in days within which a confirmation counts as recent. @default 30 */
  recencyDays: number
  /** Factor for memories confirmed within the window. @default 1.2 */
  recency: number
  /** Factor for `confidence: 'high'`. @default 1.2 */
  highConfidence: number
  /** Factor for `confidence: 'low'`. @default 0.8 */
  lowConfidence: number
  /** Added per past recall: factor = min(cap, 1 + step * recallCount). @default 0.01 */
  frequencyStep: number
  /** Ceiling of the frequency factor. @default 1.1 */
  frequencyCap: number
}

/** Limits that input validation enforces. */
export interface LimitOptions {
  /** Largest fact, in UTF-8 bytes. @default 8192 */
  maxTextBytes: number
  /** @default 32 */
  maxTags: number
  /** @default 64 */
  maxTagLength: number
  /** @default 32 */
  maxAliases: number
  /** @default 256 */
  maxAliasLength: number
  /** Longest query, in characters. @default 2000 */
  maxQueryLength: number
  /** Largest `k`. @default 100 */
  maxK: number
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

export const DEFAULT_LIMITS: Readonly<LimitOptions> = Object.freeze({
  maxTextBytes: 8192,
  maxTags: 32,
  maxTagLength: 64,
  maxAliases: 32,
  maxAliasLength: 256,
  maxQueryLength: 2000,
  maxK: 100,
})

export const DEFAULT_RETRIEVAL: Readonly<RetrievalOptions> = Object.freeze({
  rrfK: 60,
  candidates: 30,
  k: 5,
  nearDuplicate: 0.97,
  boosts: DEFAULT_BOOSTS,
})

export const DEFAULT_NAMESPACE = 'default'
export const DEFAULT_TYPE = 'fact'
export const DEFAULT_SOURCE = 'agent'

/** Recall-log entries kept; the oldest are dropped. */
export const DEFAULT_RECALL_LOG_SIZE = 200

/** Writes coalesced into one transaction at most. */
export const DEFAULT_WRITE_BATCH = 500

/** Changes after the last snapshot that trigger a new one. */
export const DEFAULT_SNAPSHOT_EVERY = 1000

export const DAY_MS = 86_400_000

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
