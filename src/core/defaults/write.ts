/**
 * Defaults of the write path: input limits, what a write that names nothing is filed under, and
 * the batch, retry and embedding sizes of storing. Gathered by `core/options.ts`.
 */

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

export const DEFAULT_LIMITS: Readonly<LimitOptions> = Object.freeze({
  maxTextBytes: 8192,
  maxTags: 32,
  maxTagLength: 64,
  maxAliases: 32,
  maxAliasLength: 256,
  maxQueryLength: 2000,
  maxK: 100,
})

export const DEFAULT_NAMESPACE = 'default'
export const DEFAULT_TYPE = 'fact'
export const DEFAULT_SOURCE = 'agent'

/** Writes coalesced into one transaction at most. */
export const DEFAULT_WRITE_BATCH = 500

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

/** Longest `summary`, in UTF-8 bytes: one line. */
export const MAX_SUMMARY_BYTES = 512
