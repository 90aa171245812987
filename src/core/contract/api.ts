/** Everything a memory can do. Types only; `core/types.ts` gathers them. */

import type { AtRestSecret } from './encryption.ts'
import type {
  CountFilter,
  ListOptions,
  ListPage,
  MemoryStats,
  RecallLogEntry,
  VerifyReport,
} from './inspect.ts'
import type { Feedback, Memory, Relation, RelationKind } from './memory.ts'
import type { PageInfo, PageResult, RememberPageInput, StoredPage } from './pages.ts'
import type { RecallOptions, RecallResult } from './recall.ts'
import type { ReviewOptions, ReviewReport } from './review.ts'
import type { SyncHandle, SyncOptions } from './sync.ts'
import type { ExportOptions, ImportOptions, ImportReport } from './transfer.ts'
import type { MemoryPatch, RememberItem, RememberOptions, RememberResult } from './write.ts'

/** Everything a memory can do. Every method is async so the same contract works over a worker. */
export interface MemoryApi {
  remember(text: string, options?: RememberOptions): Promise<RememberResult>
  rememberMany(items: RememberItem[]): Promise<RememberResult[]>
  update(id: string, patch: MemoryPatch): Promise<Memory>
  /** Removes the memory, its vector and both index entries. Throws `MemoryNotFoundError`. */
  forget(id: string): Promise<void>
  get(id: string): Promise<Memory | undefined>
  list(options?: ListOptions): Promise<ListPage>
  count(filter?: CountFilter): Promise<number>
  recall(query: string, options?: RecallOptions): Promise<RecallResult>
  /** Most recent first; `limit` 1..1000000, default 50. */
  recallLog(options?: { limit?: number }): Promise<RecallLogEntry[]>
  clearRecallLog(): Promise<void>
  stats(): Promise<MemoryStats>
  verify(): Promise<VerifyReport>
  /**
   * JSONL: a header line `{"format":"engram","version":1,"model","dims",...}` then one memory per
   * line, every field of it but the derived `key`. Never blocked by one row: a row whose `meta`
   * (written by an older version) JSON cannot carry is exported with what can be carried and
   * named in the header's `repaired`; a row that cannot be written at all is left out and named
   * in `skipped`.
   */
  exportMemories(options?: ExportOptions): Promise<string>
  /**
   * Reads what {@link exportMemories} wrote (or plain `{"text": ...}` lines). A bad line throws
   * `ImportFormatError` naming it, and nothing from its batch is stored. Besides the fields
   * {@link ImportOptions.defaults} names, a line may carry those an export writes (`id`,
   * `createdAt`, `updatedAt`, `confirmedAt`, `confirmations`, `recallCount`, `lastRecalledAt`,
   * `pageId`, `chunk`), so an export imported into an empty memory gives back the same memories
   * field for field; instants later than now are brought back to now. Other fields of a line
   * (`key`, `flags`, `poison`) are ignored: the key is derived and the screen runs again. The
   * text may start with a UTF-8 BOM and use LF, CRLF or CR line endings.
   */
  importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport>
  /**
   * Stores a long text as chunks (type `'page'`) in one transaction: the same text again is
   * `unchanged`; a changed page (same `pageId`, or same namespace + title + source) is
   * re-chunked and only the chunks whose text changed are embedded.
   *
   * @example
   * await memory.rememberPage({ title: 'Agent guide', text: '# Install\n\nRun `npm i`.' })
   * // => { pageId: '01J…', chunks: 1, status: 'created', embedded: 1 }
   */
  rememberPage(input: RememberPageInput): Promise<PageResult>
  /** The page reassembled from its chunks, or undefined. */
  getPage(pageId: string): Promise<StoredPage | undefined>
  /** Removes every chunk of the page, their vectors and index entries. `MemoryNotFoundError`. */
  forgetPage(pageId: string): Promise<void>
  /** Pages of a namespace (default `'default'`), most recently updated first. */
  listPages(options?: { namespace?: string }): Promise<PageInfo[]>
  /**
   * Stores an edge `fromId → toId` of `kind`; both must exist (`MemoryNotFoundError`). At
   * recall, a memory something `supersedes` is hidden (`includeSuperseded`), a contradiction is
   * named in both hits' explanations, and `expand: 1` pulls in memories related to the hits.
   * Edges go with either end and travel with export/import.
   *
   * @example
   * await memory.relate(lisbon.id, porto.id, 'supersedes')
   * // => { from: lisbon.id, to: porto.id, kind: 'supersedes', createdAt: 1767225600000 }
   */
  relate(fromId: string, toId: string, kind: RelationKind): Promise<Relation>
  /** Removes the edge; `false` when there was none. */
  unrelate(fromId: string, toId: string, kind: RelationKind): Promise<boolean>
  /** Every edge with `id` at either end. */
  relations(id: string): Promise<Relation[]>
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
   * meanwhile; a review cut short (the tab closed) resumes where it stopped. The worker runs one
   * by itself when idle, at most once a day per database.
   */
  review(options?: ReviewOptions): Promise<ReviewReport>
  /**
   * Syncs this memory with a CouchDB-protocol server, end to end encrypted (AES-GCM under a key
   * from `passphrase` or `key`; the server holds ciphertext and keyed-hash ids only): memories,
   * their relations, and forgets as tombstones. Resolves once the key is checked and the first
   * local pass is done. One sync at a time: a second call before the first has stopped throws
   * `SyncStateError` `SYNC_RUNNING`. A wrong passphrase throws `SyncKeyError` and changes
   * nothing; an unreachable server on first use, `SyncServerError`. `close()` stops it.
   *
   * @example
   * const sync = await memory.sync({ url: 'https://couch.example/alice', passphrase })
   * sync.on((s) => console.log(s.state)) // => 'active', then 'paused' once caught up
   * await sync.stop()
   */
  sync(options: SyncOptions): Promise<SyncHandle>
  /**
   * Locks a memory opened with `encryption`: the keys are wiped and the in-memory indexes
   * dropped (writes already queued finish first, and a snapshot is saved so unlocking is
   * quick). Until {@link unlock}, every call but `unlock`, `close` and `stats` throws
   * `MemoryLockedError`; `stats` then gives row counts and `atRest: 'locked'`. On a memory
   * without encryption, throws `EncryptionError` `NOT_ENCRYPTED`.
   */
  lock(): Promise<void>
  /**
   * Unlocks with the memory's passphrase or key and restores the indexes (from the snapshot,
   * else from the tables). A wrong one throws `EncryptionError` `WRONG_KEY`: still locked,
   * nothing changed.
   *
   * @example
   * await memory.lock()
   * await memory.recall('units') // => throws MemoryLockedError { code: 'LOCKED' }
   * await memory.unlock({ passphrase })
   * await memory.recall('units') // => { hits: [...] }
   */
  unlock(secret: AtRestSecret): Promise<void>
  close(): Promise<void>
}
