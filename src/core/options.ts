/**
 * Every default in one place. Options types document meaning and range; the constants here are
 * what applies when a field is left out, and the fixed tunings the engine runs with.
 */

import type { ListName, Tier, TrustLevel } from './types'

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

/**
 * How memories age (DESIGN §6a). Confidence is computed at read time from stored timestamps:
 * `start × decay + reinforcement`, where decay halves the confidence over one TTL of disuse and
 * each use (a recall into a result, a confirming duplicate) closes `reinforcement` of the gap to 1.
 *
 * @example
 * // An episodic memory written at 0.90, unused for 15 of its 30 days, never recalled:
 * confidenceAt(memory, now, DEFAULT_LIFECYCLE).value
 * // => 0.64
 */
export interface LifecycleOptions {
  /**
   * Time to live of each tier, in days, counted from the memory's last use (its write, a
   * confirming duplicate, a recall into a result). Past it the memory is expired: left out of
   * recall unless `includeExpired`, removed by `review()` after `graceDays`. Each > 0.
   * @default { working: 1, episodic: 30, semantic: 90, procedural: 365 }
   */
  ttlDays: Record<Tier, number>
  /**
   * The tier a memory of a type gets when the write names none; other types get `defaultTier`.
   * @default { log: 'episodic', fact: 'semantic', page: 'semantic', skill: 'procedural' }
   */
  tierByType: Record<string, Tier>
  /** @default 'semantic' */
  defaultTier: Tier
  /**
   * Confidence at write for a source, when the write gives none: the user's own word counts
   * more than an agent's inference, an import or anything else less. 0..1.
   * @default { user: 0.8, agent: 0.6, import: 0.5 }
   */
  sourceConfidence: Record<string, number>
  /** Confidence at write for a source not in `sourceConfidence`. 0..1. @default 0.5 */
  otherSourceConfidence: number
  /** Confidence a memory stored `untrusted` starts from at most. 0..1. @default 0.4 */
  untrustedCeiling: number
  /** Share of the gap to 1 each use closes. 0..1. @default 0.05 */
  reinforcement: number
  /** Days an expired memory is kept (listed, exportable) before review removes it. @default 7 */
  graceDays: number
  /** Current confidence under which review flags a memory `needsReview`. 0..1. @default 0.3 */
  reviewBelow: number
  /**
   * Recalls after which review moves a memory of a tier up one (working → episodic →
   * semantic); tiers left out are never promoted. @default { working: 3, episodic: 10 }
   */
  promoteAfter: Partial<Record<Tier, number>>
}

/** What the `'low'` / `'medium'` / `'high'` inputs of a write mean as numbers. */
export const CONFIDENCE_VALUES: Readonly<Record<'low' | 'medium' | 'high', number>> = Object.freeze(
  { low: 0.3, medium: 0.6, high: 0.9 },
)

/**
 * The confidence at which the boost is neutral (x1): `medium`. The factor runs linearly through
 * it, reaching `BoostOptions.highConfidence` at `CONFIDENCE_VALUES.high` and `lowConfidence` at
 * `CONFIDENCE_VALUES.low`, so the level inputs boost exactly as they did.
 */
export const NEUTRAL_CONFIDENCE = CONFIDENCE_VALUES.medium

export const DEFAULT_LIFECYCLE: Readonly<LifecycleOptions> = Object.freeze({
  ttlDays: Object.freeze({ working: 1, episodic: 30, semantic: 90, procedural: 365 }),
  tierByType: Object.freeze({
    log: 'episodic',
    fact: 'semantic',
    page: 'semantic',
    skill: 'procedural',
  }) as Record<string, Tier>,
  defaultTier: 'semantic',
  sourceConfidence: Object.freeze({ user: 0.8, agent: 0.6, import: 0.5 }) as Record<string, number>,
  otherSourceConfidence: 0.5,
  untrustedCeiling: 0.4,
  reinforcement: 0.05,
  graceDays: 7,
  reviewBelow: 0.3,
  promoteAfter: Object.freeze({ working: 3, episodic: 10 }),
})

/** Memories one review step looks at, in one transaction under the write lock. */
export const REVIEW_CHUNK = 500

/** How long the judge may take per call when `judgeTimeoutMs` is not given. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 10_000

/** The automatic review runs at most this often per database. */
export const AUTO_REVIEW_EVERY_MS = 86_400_000

/** After a failed index restore, the rebuild is tried again at most this often (`IndexFailure`). */
export const INDEX_RETRY_MS = 60_000

/** Trust levels whose confidence at write is capped (see `LifecycleOptions.untrustedCeiling`). */
export const CAPPED_TRUST: readonly TrustLevel[] = Object.freeze(['untrusted'])

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
  relatedFloor: 0.8,
  boosts: DEFAULT_BOOSTS,
})

export const DEFAULT_NAMESPACE = 'default'
export const DEFAULT_TYPE = 'fact'
export const DEFAULT_SOURCE = 'agent'

/** Recall-log entries kept; the oldest are dropped. */
export const DEFAULT_RECALL_LOG_SIZE = 200

/** Writes coalesced into one transaction at most. */
export const DEFAULT_WRITE_BATCH = 500

/**
 * The least number of changes after the last snapshot that makes a new one due. The engine
 * snapshots after `max(snapshotEvery, store size × SNAPSHOT_STORE_SHARE)` changes, and also once
 * writes pause for {@link IDLE_SNAPSHOT_MS}. A positive integer. @default 1000
 */
export const DEFAULT_SNAPSHOT_EVERY = 1000

/**
 * The share of the store that must have changed since the last snapshot before the next is due
 * (see {@link DEFAULT_SNAPSHOT_EVERY}): a snapshot costs time in proportion to the store, so a
 * 100k import saves a handful, not a hundred. Range (0, 1]. @default 0.25
 */
export const SNAPSHOT_STORE_SHARE = 0.25

/**
 * Quiet time in milliseconds after the last write before unsaved changes are snapshotted, so a
 * tab killed rather than closed restarts from a recent snapshot. @default 3000
 */
export const IDLE_SNAPSHOT_MS = 3000

/**
 * Change-log entries kept behind a snapshot when it prunes the log, so a tab slightly behind
 * still catches up by replay instead of a rebuild. A non-negative integer. @default 1000
 */
export const CHANGE_LOG_TAIL = 1000

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

/** Tuning of the BM25 leg. Changing any field changes the options hash: snapshots rebuild. */
export interface KeywordIndexOptions {
  /** Field boosts: an alias or tag hit says more than a word in the text. @default text 1, aliases 2, tags 1.5 */
  boost: { text: number; aliases: number; tags: number }
  /** Prefix-match query terms at least this long (0 turns prefix matching off). @default 0 */
  prefixMinLength: number
  /** Fuzzy-match query terms at least this long, within 20% edits (0: off). @default 0 */
  fuzzyMinLength: number
  /** BM25 parameters. @default k 1.2, b 0.7, d 0.5 (MiniSearch's BM25+ defaults) */
  bm25: { k: number; b: number; d: number }
  /** Porter-stem plain English words on both sides. @default true */
  stemming: boolean
  /** Drop English function words (`STOP_WORDS`) on both sides. @default true */
  stopWords: boolean
  /**
   * Second pass over the BM25 hits: a hit's score is multiplied by `1 + phraseBoost × share`,
   * where `share` is the fraction of the query's adjacent term pairs that stand side by side in
   * the memory too. The keyword list's score (`bm25` in explanations) includes this factor.
   * 0 turns it off; 0.25..1 is sensible. @default 0.5
   * @example phrase pairs of "lgbtq support group": [lgbtq support], [support group]
   */
  phraseBoost: number
}

export const DEFAULT_KEYWORD_OPTIONS: Readonly<KeywordIndexOptions> = Object.freeze({
  boost: Object.freeze({ text: 1, aliases: 2, tags: 1.5 }),
  prefixMinLength: 0,
  fuzzyMinLength: 0,
  bm25: Object.freeze({ k: 1.2, b: 0.7, d: 0.5 }),
  stemming: true,
  stopWords: true,
  phraseBoost: 0.5,
})

/**
 * MiniSearch's vacuuming of discarded documents: start once 200 are discarded and they are a
 * tenth of the index, clean 1000 per step with 10 ms between steps, so a large forget or
 * re-import never blocks recall for long. Not part of the options hash: it changes no result.
 */
export const KEYWORD_AUTO_VACUUM = Object.freeze({
  minDirtCount: 200,
  minDirtFactor: 0.1,
  batchSize: 1000,
  batchWait: 10,
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

/**
 * Candidates re-scored exactly per near-duplicate check of a write: the int8 estimate is within
 * about 0.01 of the cosine, so a neighbour at 0.97 or above is always among the best few. An
 * integer ≥ 1. @default 16
 */
export const NEAR_DUPLICATE_RESCORE = 16

/**
 * Texts per embedding call: a large `rememberMany` is embedded in pieces and stored in one go.
 * An integer ≥ 1. @default 64
 */
export const EMBED_CHUNK = 64

/**
 * Attempts of a write that lost a race to a writer outside this engine's lock (a unique-key
 * clash, a duplicate that was changed or removed meanwhile, a text changed while it was being
 * embedded) before it gives up. An integer ≥ 1. @default 3
 */
export const WRITE_ATTEMPTS = 3

/**
 * Memories embedded per backfill batch, one write-queue turn each so writes interleave. An
 * integer ≥ 1. @default 32
 */
export const BACKFILL_BATCH = 32

/**
 * Back-off of a failed backfill batch in milliseconds: the first retry waits `first`, each later
 * one twice the last, at most `max`. @default first 500, max 60000
 */
export const BACKFILL_RETRY_MS = Object.freeze({ first: 500, max: 60_000 })

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

/**
 * The defaults every door applies, in one table: `openMemory`, `openMemoryInProcess`,
 * `connectMemory` and `embedMemory` (through the host they reach, `openEngine`) and
 * `MemoryEngine.open` alike.
 *
 * - `autoReview: {}`: the memory reviews itself once writes have been quiet for 30 s, at most
 *   once a day per database, in one tab; `autoReview: false` turns it off, `{ idleMs }` tunes it.
 * - `tabSync: true`: a host keeps the tabs of one origin consistent (the engine alone has no tabs).
 *
 * @example
 * await MemoryEngine.open({ name: 'm', autoReview: false })
 * // => an engine that reviews only when `review()` is called
 */
export const DOOR_DEFAULTS: Readonly<{
  autoReview: Readonly<{ idleMs?: number }>
  tabSync: boolean
}> = Object.freeze({ autoReview: Object.freeze({}), tabSync: true })
