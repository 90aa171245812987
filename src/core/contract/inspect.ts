/** Listing, counting, verifying, statistics and the recall log. Types only; `core/types.ts` gathers them. */

import type { EmbedderStats } from './embedder.ts'
import type { UnreadableRow, UnreadableRows } from './encryption.ts'
import type { Memory, MemoryType, Relation, Tier } from './memory.ts'
import type { Degraded, RecallOptions, Via } from './recall.ts'

/**
 * Filter and page for {@link MemoryApi.list}. Filters are normalised as the write stored them;
 * a value of the wrong type or an unknown name is `BAD_OPTION`.
 */
export interface ListOptions {
  namespace?: string
  type?: MemoryType
  /** Memories carrying this tag (case-insensitive, as tags are stored lower-cased). */
  tag?: string
  /** Only this tier. */
  tier?: Tier
  /**
   * `true`: only memories past their TTL or `expiresAt` (kept until `review()` removes them);
   * `false`: only live ones. @default both
   */
  expired?: boolean
  /** `true`: only memories `review()` flagged for attention; `false`: only the others. */
  needsReview?: boolean
  /** Page size, 1..1000. @default 50 */
  limit?: number
  /** The `cursor` of the previous page. */
  cursor?: string
}

/**
 * What {@link MemoryApi.timeline} lists: no keywords, a window of time. A memory's time is
 * `happenedAt ?? createdAt`; one with an interval (`happenedUntil`) is in the window when the
 * interval overlaps it. A wrong type or an unknown name is `BAD_OPTION`.
 *
 * @example
 * await memory.timeline({ since: '2024-03-01', until: '2024-04-01', types: ['log'] })
 * // => { items: [the logs of March 2024, newest first], cursor?: '…' }
 */
export interface TimelineOptions {
  /** Only this namespace. @default every namespace (as `list`) */
  namespace?: string
  /** The window's start, inclusive: epoch ms or an ISO 8601 date or date-time. @default none */
  since?: number | string
  /** The window's end, exclusive; after `since`. @default none */
  until?: number | string
  /** Only these types (up to 64). @default all */
  types?: MemoryType[]
  /** Only memories carrying every one of these tags. */
  tags?: string[]
  /**
   * Also list memories past their TTL or `expiresAt`, and those `review()` archived; left out
   * otherwise, as recall leaves them out. @default false
   */
  includeExpired?: boolean
  /** Page size, 1..1000. @default 50 */
  limit?: number
  /** The `cursor` of the previous page. */
  cursor?: string
}

export interface ListPage {
  items: Memory[]
  /** Pass back to get the next page; absent on the last page. */
  cursor?: string
}

/** Filter for {@link MemoryApi.count}; checked as {@link ListOptions} are. */
export interface CountFilter {
  namespace?: string
  type?: MemoryType
}

/** What {@link InspectApi.verify} found. `ok` is true when every count agrees and no id is missing or extra. */
export interface VerifyReport {
  ok: boolean
  memories: number
  vectors: number
  keywordEntries: number
  vectorEntries: number
  /**
   * Ids in `memories` whose keyword entry is absent or stale: missing from the keyword index or
   * the catalogue, or held there in a version whose indexed fields (namespace, type, text,
   * aliases, tags, trust, flags, expiresAt) differ from the row. An id can appear twice (absent
   * from the keyword index and stale in the catalogue).
   */
  missingFromKeyword: string[]
  /** Ids in the keyword index or the catalogue whose memory row does not exist. */
  extraInKeyword: string[]
  /** Ids with a current-model vector row but no entry in the vector index / the reverse. */
  missingFromVectors: string[]
  extraInVectors: string[]
  /** Vectors whose memory row does not exist. */
  orphanVectors: string[]
  /** Relations with an end whose memory row does not exist. */
  orphanRelations: Omit<Relation, 'createdAt'>[]
  /**
   * Encrypted at rest only, and only when there are some: memory and vector rows stored but
   * refused because they do not open (see {@link UnreadableRow}). Any makes `ok` false.
   */
  unreadable?: UnreadableRows
  /**
   * Only when there are some: ids of pages whose chunks no longer make up the page stored (a
   * chunk missing, renumbered or edited, offsets that do not tile, the reassembled text not
   * matching the page's hash). Any makes `ok` false.
   */
  brokenPages?: string[]
}

/**
 * The indexes could not be restored at open (the snapshot was unusable and the rebuild from
 * the tables threw: a row the keyword index cannot take, an IndexedDB read error). The memory
 * is open on its tables all the same: `get`, `list`, `count` and writes work (all or nothing, as
 * ever), and recall answers from the newest memories with `degraded: 'recency'`. The next write
 * or recall once `INDEX_RETRY_MS` (a minute) has passed since the last try rebuilds again; when
 * that succeeds this field goes away, hybrid recall returns, and the rebuild, read from the
 * tables, holds every write made meanwhile.
 *
 * @example
 * (await memory.inspect.stats()).indexes
 * // => { state: 'failed', error: { name: 'TypeError', code: 'STORAGE',
 * //      message: "Cannot read properties of null (reading 'join')" },
 * //      since: 1767225600000, lastTriedAt: 1767225600000, attempts: 1 }
 */
export interface IndexFailure {
  state: 'failed'
  /** What the last rebuild threw: its `name` and `message`, and the catalogue `code` it maps to. */
  error: { name: string; code: string; message: string }
  /** When the first failed restore happened (the engine's clock). */
  since: number
  /** When the rebuild was last tried. */
  lastTriedAt: number
  /** Failed tries so far, the one at open included. */
  attempts: number
}

export interface MemoryStats {
  memories: number
  vectors: number
  /** Memories still waiting for a vector from the current model. */
  pendingVectors: number
  keywordEntries: number
  vectorEntries: number
  changeSeq: number
  embedder?: EmbedderStats
  /**
   * Milliseconds the last open spent restoring indexes, and how; `'failed'`: they could not be
   * restored, see {@link MemoryStats.indexes}.
   */
  open?: { ms: number; restored: 'snapshot' | 'rebuild' | 'empty' | 'failed'; replayed: number }
  /** Present while the indexes are unavailable after a failed restore (see {@link IndexFailure}). */
  indexes?: IndexFailure
  /** Only for a memory encrypted at rest: whether it is locked now (then the counts are rows). */
  atRest?: 'locked' | 'unlocked'
  /**
   * Encrypted at rest only, when some read since the open met rows that do not open (see
   * {@link UnreadableRow}): those rows, left out of every answer. `inspect.verify()` reads every row.
   */
  unreadable?: UnreadableRows
}

/** One entry of the recall log. */
export interface RecallLogEntry {
  id?: number
  at: number
  query: string
  options: Omit<RecallOptions, 'select'>
  hits: { id: string; rank: number; score: number; via: Via; explanation: string }[]
  degraded?: Degraded
  tookMs: number
}
