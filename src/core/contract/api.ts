/** Everything a memory can do. Types only; `core/types.ts` gathers them. */

import type { AtRestSecret } from './encryption.ts'
import type {
  CountFilter,
  ListOptions,
  ListPage,
  MemoryStats,
  RecallLogEntry,
  TimelineOptions,
  VerifyReport,
} from './inspect.ts'
import type { Feedback, Memory, Relation, RelationKind } from './memory.ts'
import type { PageInfo, PageResult, RememberPageInput, StoredPage } from './pages.ts'
import type { RecallOptions, RecallResult } from './recall.ts'
import type { ReviewOptions, ReviewReport } from './review.ts'
import type { ExportOptions, ImportOptions, ImportReport } from './transfer.ts'
import type { MemoryPatch, RememberItem, RememberOptions, RememberResult } from './write.ts'

/**
 * Everything a memory can do: the core verbs at the top, each sub-domain one namespace object
 * (PGlite's model: a small interface that grows by namespaces, not by width). Every method is
 * async so the same contract works over a worker. Multi-device sync is not part of it: it is
 * an extension the client doors add as `memory.sync` (see `host/sync-extension.ts`).
 */
export interface MemoryApi {
  remember(text: string, options?: RememberOptions): Promise<RememberResult>
  rememberMany(items: RememberItem[]): Promise<RememberResult[]>
  update(id: string, patch: MemoryPatch): Promise<Memory>
  /** Removes the memory, its vector and both index entries. Throws `MemoryNotFoundError`. */
  forget(id: string): Promise<void>
  get(id: string): Promise<Memory | undefined>
  list(options?: ListOptions): Promise<ListPage>
  count(filter?: CountFilter): Promise<number>
  /**
   * What happened in a window, newest first by `happenedAt ?? createdAt`, without keywords:
   * "what did I do last week" as a list (see {@link TimelineOptions}). Paged by `cursor`.
   *
   * @example
   * await memory.timeline({ since: Date.UTC(2024, 2, 4), until: Date.UTC(2024, 2, 11), limit: 20 })
   * // => { items: [up to 20 memories of that week, latest first], cursor: '…' }
   */
  timeline(options?: TimelineOptions): Promise<ListPage>
  recall(query: string, options?: RecallOptions): Promise<RecallResult>
  /**
   * What a reader made of a memory: `useful` raises its confidence and counts as a use, `wrong`
   * halves it and flags the memory `needsReview`, `outdated` expires it now (review removes it
   * after the grace period). Returns the memory as stored.
   */
  feedback(id: string, verdict: Feedback): Promise<Memory>
  /**
   * The housekeeping pass: archives expired memories and removes those expired longer than the
   * grace period, flags low confidence (`list({ needsReview: true })`), merges near duplicates
   * that slipped in (written before their vector existed, say), promotes much-recalled working
   * memories, and says what it did. Runs in chunks under the write lock, so writes go on
   * meanwhile; a review cut short (the tab closed) resumes where it stopped. With `autoReview`
   * (on at every door, see `DOOR_DEFAULTS`) the memory runs one by itself when idle, at most
   * once a day per database.
   */
  review(options?: ReviewOptions): Promise<ReviewReport>
  close(): Promise<void>
  /** Long texts stored as chunks: {@link PagesApi}. */
  readonly pages: PagesApi
  /** Typed edges between memories: {@link RelationsApi}. */
  readonly relations: RelationsApi
  /** The read-only diagnostics: {@link InspectApi}. */
  readonly inspect: InspectApi
  /** Encryption at rest, once opened with `encryption`: {@link AtRestApi}. */
  readonly atRest: AtRestApi
  /** JSONL export and import: {@link TransferApi}. */
  readonly transfer: TransferApi
}

/** `memory.pages`: long texts stored as chunks (type `'page'`), one page per `pageId`. */
export interface PagesApi {
  /**
   * Stores a long text as chunks in one transaction: the same text again is `unchanged`; a
   * changed page (same `pageId`, or same namespace + title + source) is re-chunked and only the
   * chunks whose text changed are embedded. It returns once the chunks are stored and
   * keyword-searchable (`wait: 'stored'`, the default); their vectors fill in the background
   * (`pending` counts those still missing, `page-embedding` events say how far it got, and a
   * reload resumes). `wait: 'vectors'` embeds them before returning.
   *
   * @example
   * await memory.pages.remember({ title: 'Agent guide', text: '# Install\n\nRun `npm i`.' })
   * // => { pageId: '01J…', chunks: 1, status: 'created', embedded: 0, pending: 1 }
   */
  remember(input: RememberPageInput): Promise<PageResult>
  /** The page reassembled from its chunks, or undefined. */
  get(pageId: string): Promise<StoredPage | undefined>
  /** Removes every chunk of the page, their vectors and index entries. `MemoryNotFoundError`. */
  forget(pageId: string): Promise<void>
  /** Pages of a namespace (default `'default'`), most recently updated first. */
  list(options?: { namespace?: string }): Promise<PageInfo[]>
}

/** `memory.relations`: typed edges between memories. */
export interface RelationsApi {
  /**
   * Stores an edge `fromId → toId` of `kind`; both must exist (`MemoryNotFoundError`). At
   * recall, a memory something `supersedes` is hidden (`includeSuperseded`), a contradiction is
   * named in both hits' explanations, and `expand: 1` pulls in memories related to the hits.
   * Edges go with either end and travel with export/import.
   *
   * @example
   * await memory.relations.add(lisbon.id, porto.id, 'supersedes')
   * // => { from: lisbon.id, to: porto.id, kind: 'supersedes', createdAt: 1767225600000 }
   */
  add(fromId: string, toId: string, kind: RelationKind): Promise<Relation>
  /** Removes the edge; `false` when there was none. */
  remove(fromId: string, toId: string, kind: RelationKind): Promise<boolean>
  /** Every edge with `id` at either end. */
  of(id: string): Promise<Relation[]>
}

/** `memory.inspect`: the read-only diagnostics (and clearing the recall log). */
export interface InspectApi {
  stats(): Promise<MemoryStats>
  /**
   * Checks that the indexes agree with the tables, at one consistent moment even while another
   * tab writes. A catalogue row that differs from its table row in an indexed field counts as
   * missing from the keyword index (its current version is).
   */
  verify(): Promise<VerifyReport>
  /** Most recent first; `limit` 1..1000000, default 50. */
  recallLog(options?: { limit?: number }): Promise<RecallLogEntry[]>
  clearRecallLog(): Promise<void>
}

/** `memory.atRest`: locking and unlocking a memory opened with `encryption`. */
export interface AtRestApi {
  /**
   * Locks a memory opened with `encryption`: the keys are wiped and the in-memory indexes
   * dropped (writes already queued finish first, and a snapshot is saved so unlocking is
   * quick). Until {@link unlock}, every call but `atRest.unlock`, `close` and `inspect.stats`
   * throws `MemoryLockedError`; `inspect.stats` then gives row counts and `atRest: 'locked'`. On
   * a memory without encryption, throws `EncryptionError` `NOT_ENCRYPTED`.
   */
  lock(): Promise<void>
  /**
   * Unlocks with the memory's passphrase or key and restores the indexes (from the snapshot,
   * else from the tables). A wrong one throws `EncryptionError` `WRONG_KEY`: still locked,
   * nothing changed.
   *
   * @example
   * await memory.atRest.lock()
   * await memory.recall('units') // => throws MemoryLockedError { code: 'LOCKED' }
   * await memory.atRest.unlock({ passphrase })
   * await memory.recall('units') // => { hits: [...] }
   */
  unlock(secret: AtRestSecret): Promise<void>
}

/** `memory.transfer`: the JSONL export and import. */
export interface TransferApi {
  /**
   * JSONL: a header line `{"format":"engram","version":1,"model","dims",...}` then one memory per
   * line, every field of it but the derived `key`. Never blocked by one row: a row whose `meta`
   * (written by an older version) JSON cannot carry is exported with what can be carried and
   * named in the header's `repaired`; a row that cannot be written at all is left out and named
   * in `skipped`.
   */
  export(options?: ExportOptions): Promise<string>
  /**
   * Reads what {@link export} wrote (or plain `{"text": ...}` lines). A bad line throws
   * `ImportFormatError` naming it, and nothing from its batch is stored. Besides the fields
   * {@link ImportOptions.defaults} names, a line may carry those an export writes (`id`,
   * `createdAt`, `updatedAt`, `confirmedAt`, `confirmations`, `recallCount`, `lastRecalledAt`,
   * `pageId`, `chunk`), so an export imported into an empty memory gives back the same memories
   * field for field; instants later than now are brought back to now. Other fields of a line
   * (`key`, `flags`, `poison`) are ignored: the key is derived and the screen runs again. The
   * text may start with a UTF-8 BOM and use LF, CRLF or CR line endings.
   */
  import(jsonl: string, options?: ImportOptions): Promise<ImportReport>
}

/** The namespaces of {@link MemoryApi}: its members that are objects of methods. */
export type MemoryNamespace = {
  [K in keyof MemoryApi]: MemoryApi[K] extends (...args: never[]) => unknown ? never : K
}[keyof MemoryApi]
