/**
 * Defaults of the indexes: the BM25 leg's tuning, snapshots and their change log, and the retry
 * of a failed restore. Gathered by `core/options.ts`.
 */

/** After a failed index restore, the rebuild is tried again at most this often (`IndexFailure`). */
export const INDEX_RETRY_MS = 60_000

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
