import { monotonicFactory } from 'ulidx'
import {
  type EngramError,
  InvalidInputError,
  MemoryClosedError,
  MemoryNotFoundError,
} from '../core/errors.ts'
import {
  DEFAULT_LIMITS,
  DEFAULT_RECALL_LOG_SIZE,
  DEFAULT_RETRIEVAL,
  DEFAULT_SNAPSHOT_EVERY,
  DEFAULT_WRITE_BATCH,
  type LimitOptions,
  type RetrievalOptions,
} from '../core/options.ts'
import type {
  CountFilter,
  Embedder,
  ExportOptions,
  ImportOptions,
  ImportReport,
  ListOptions,
  ListPage,
  Memory,
  MemoryApi,
  MemoryEvent,
  MemoryPatch,
  MemoryStats,
  RecallLogEntry,
  RecallOptions,
  RecallResult,
  RememberItem,
  RememberOptions,
  RememberResult,
  VerifyReport,
} from '../core/types.ts'
import { validateId, validateVector } from '../core/validate.ts'
import {
  type ChangeRow,
  EngramDatabase,
  isConstraintError,
  mapStorageError,
  type VectorRow,
} from '../storage/index.ts'
import { checkEngineOptions, type EngineOptions } from './engine-options.ts'
import { checkImportOptions, exportJsonl, parseJsonl } from './import-export.ts'
import { IndexSet } from './index-set.ts'
import type { KeywordIndexOptions } from './keyword-index.ts'
import {
  describe,
  type PreparedWrite,
  preparePatch,
  prepareWrite,
  screen,
  screenedText,
} from './prepare.ts'
import { checkRecallOptions, runRecall } from './recall.ts'
import { deleteSnapshot, loadSnapshot, optionsHash, saveSnapshot } from './snapshot.ts'
import { compareIndexes } from './verify.ts'
import { writeBatch } from './write-batch.ts'
import { Coalescer, WriteQueue } from './write-queue.ts'

type Lock = <T>(task: () => Promise<T>) => Promise<T>

/** Texts per embedding call: a large `rememberMany` is embedded in pieces, stored in one go. */
const EMBED_CHUNK = 64

/** Attempts of a batch that lost a unique-key race to a writer that held no shared lock. */
const CONSTRAINT_RETRIES = 3

/** Cross-tab write lock: a Web Lock per database where the host has them. */
function defaultLock(name: string): Lock {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
  if (!locks) return (task) => task()
  return (task) => locks.request(`engram:${name}:write`, task)
}

/**
 * The memory itself: a Dexie database plus the in-memory indexes derived from it. Implements
 * {@link MemoryApi}; the worker exposes it as is and Node uses it in process.
 *
 * @example
 * const memory = await MemoryEngine.open({ name: 'assistant', indexedDB, IDBKeyRange })
 * await memory.remember('The owner prefers metric units')
 * // => { id: '01J…', status: 'created' }
 */
export class MemoryEngine implements MemoryApi {
  readonly name: string
  readonly #db: EngramDatabase
  readonly #embedder: Embedder | undefined
  readonly #retrieval: RetrievalOptions
  readonly #limits: LimitOptions
  readonly #keywordOptions: Partial<KeywordIndexOptions>
  readonly #optionsHash: string
  readonly #clock: () => number
  readonly #snapshotEvery: number
  readonly #recallLogSize: number
  readonly #onEvent: ((event: MemoryEvent) => void) | undefined
  readonly #lock: Lock
  readonly #queue = new WriteQueue()
  readonly #coalescer: Coalescer<PreparedWrite, RememberResult>
  readonly #ulid = monotonicFactory()
  readonly #background = new Set<Promise<unknown>>()
  #indexes: IndexSet
  #lastSeq = 0
  #snapshotSeq = 0
  #staleVectors = 0
  #backfilling: Promise<void> | null = null
  #backfillDelay = 0
  #backfillTimer: ReturnType<typeof setTimeout> | undefined
  #closed: MemoryClosedError | null = null
  /** `close()` ran (or is running). */
  #disposed = false
  #reopening: Promise<void> | null = null
  #rebuilds = 0
  readonly #writeBatch: number
  #openStats: MemoryStats['open']
  readonly #pendingRecalls = new Map<string, number>()

  private constructor(options: EngineOptions, db: EngramDatabase) {
    this.name = options.name
    this.#db = db
    this.#embedder = options.embedder
    this.#retrieval = {
      ...DEFAULT_RETRIEVAL,
      ...options.retrieval,
      boosts: { ...DEFAULT_RETRIEVAL.boosts, ...options.retrieval?.boosts },
    }
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits }
    this.#keywordOptions = options.keyword ?? {}
    this.#optionsHash = optionsHash(this.#keywordOptions)
    this.#clock = options.clock ?? Date.now
    this.#snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY
    this.#recallLogSize = options.recallLogSize ?? DEFAULT_RECALL_LOG_SIZE
    this.#onEvent = options.onEvent
    this.#lock = options.writeLock ?? defaultLock(options.name)
    this.#indexes = IndexSet.empty(this.#keywordOptions, this.#readyDims())
    this.#writeBatch = options.writeBatch ?? DEFAULT_WRITE_BATCH
    this.#coalescer = new Coalescer(this.#queue, (items) => this.#write(items), this.#writeBatch)
  }

  /**
   * Opens (creating if needed) the memory called `options.name` and restores its indexes.
   *
   * Connection lifecycle: `close()` and a schema upgrade or deletion from another tab close the
   * memory for good (`closed` event, then `MemoryClosedError` on every call). A connection that
   * closes any other way (the browser dropped it, a tool closed it) fails only the calls in
   * flight; the next call reopens it and catches the indexes up from the change log.
   */
  static async open(options: EngineOptions): Promise<MemoryEngine> {
    checkEngineOptions(options)
    const db = new EngramDatabase(options.name, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    })
    options.onDatabase?.(db)
    const engine = new MemoryEngine(options, db)
    // Registered before opening, so an upgrade that arrives during the restore is seen too.
    db.on('versionchange', (event: IDBVersionChangeEvent) => {
      engine.#shutDown(
        event.newVersion === null
          ? 'another tab deleted this memory'
          : 'another tab is upgrading this memory; reload to continue',
      )
      return false
    })
    try {
      await db.open()
      await engine.#restore()
    } catch (error) {
      db.close()
      throw mapStorageError(error)
    }
    engine.#startEmbedder()
    return engine
  }

  // ---------------------------------------------------------------- writes

  async remember(text: string, options?: RememberOptions): Promise<RememberResult> {
    this.#assertOpen()
    const prepared = prepareWrite(text, options, this.#limits)
    this.#checkVector(prepared, 'vector')
    return this.#coalescer.submit(prepared)
  }

  /** All or nothing: every item is stored (or found a duplicate) in one transaction, or none is. */
  async rememberMany(items: RememberItem[]): Promise<RememberResult[]> {
    this.#assertOpen()
    if (!Array.isArray(items)) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'items',
        'expected an array of { text, ...options }',
      )
    }
    const prepared = items.map((item, i) => {
      if (!item || typeof item !== 'object') {
        throw new InvalidInputError(
          'BAD_OPTION',
          `items[${i}]`,
          'expected an object with a text field',
        )
      }
      const p = prepareWrite(item.text, item, this.#limits, `items[${i}].`)
      this.#checkVector(p, `items[${i}].vector`)
      return p
    })
    if (prepared.length === 0) return []
    return this.#queue.run(() => this.#write(prepared))
  }

  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    this.#assertOpen()
    validateId(id)
    const changes = preparePatch(patch, this.#limits)
    return this.#queue.run(() =>
      this.#locked(async () => {
        const current = await this.#db.memories.get(id)
        if (!current) throw new MemoryNotFoundError(id)
        const { poison = 'reject', key, expiresAt, ...fields } = changes
        const next: Memory = { ...current, ...fields, updatedAt: this.#clock() }
        if (key !== undefined) next.key = key
        if (expiresAt === null) delete next.expiresAt
        else if (expiresAt !== undefined) next.expiresAt = expiresAt
        if (
          fields.text !== undefined ||
          fields.aliases !== undefined ||
          fields.tags !== undefined
        ) {
          next.flags = screen(screenedText(next), poison, 'patch')
        }
        if (next.key !== current.key || next.type !== current.type) {
          const clash = await this.#db.memories
            .where('[namespace+type+key]')
            .equals([next.namespace, next.type, next.key])
            .first()
          if (clash && clash.id !== id) {
            throw new InvalidInputError(
              'DUPLICATE_TEXT',
              'patch.text',
              `memory ${clash.id} already says this`,
            )
          }
        }
        let vector: Float32Array | undefined
        let dropVector = false
        if (next.text !== current.text) {
          vector = await this.#embedPassages([next.text]).then((v) => v?.[0])
          dropVector = !vector
        } else if (next.type !== current.type) {
          vector = (await this.#db.vectors.get(id))?.vector
        }
        const seq = await this.#transact(async () => {
          // Recall counters are written without the write lock (they change no index); take
          // theirs from the row as it is now, so this update does not undo them.
          const latest = await this.#db.memories.get(id)
          if (!latest) throw new MemoryNotFoundError(id)
          next.recallCount = latest.recallCount
          if (latest.lastRecalledAt !== undefined) next.lastRecalledAt = latest.lastRecalledAt
          await this.#db.memories.put(next)
          if (vector) await this.#db.vectors.put(this.#vectorRow(id, vector))
          else if (dropVector) await this.#db.vectors.delete(id)
          return this.#db.changes.add({ op: 'put', id, at: next.updatedAt })
        })
        this.#indexes.put(next, vector)
        if (dropVector) this.#indexes.removeVector(id)
        this.#advance([seq])
        return next
      }),
    )
  }

  async forget(id: string): Promise<void> {
    this.#assertOpen()
    validateId(id)
    await this.#queue.run(() =>
      this.#locked(async () => {
        const seq = await this.#transact(async () => {
          const exists = await this.#db.memories.get(id)
          if (!exists) throw new MemoryNotFoundError(id)
          await this.#db.memories.delete(id)
          await this.#db.vectors.delete(id)
          return this.#db.changes.add({ op: 'delete', id, at: this.#clock() })
        })
        this.#indexes.remove(id)
        this.#advance([seq])
      }),
    )
  }

  /**
   * Each batch of `batchSize` lines is all or nothing; a failure stops the import with a typed
   * error after the batches before it were stored. Importing the same text again is safe: what
   * is already stored comes back as duplicates.
   */
  async importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport> {
    this.#assertOpen()
    const batchSize = checkImportOptions(options, this.#writeBatch)
    const lines = parseJsonl(jsonl, options?.defaults, this.#limits, this.#embedder?.model ?? null)
    const report: ImportReport = { lines: lines.length, created: 0, duplicates: 0, flagged: 0 }
    for (let start = 0; start < lines.length; start += batchSize) {
      const batch = lines.slice(start, start + batchSize)
      for (const p of batch) {
        if (p.vector === undefined) continue
        try {
          this.#checkVector(p, 'vector')
        } catch {
          delete p.vector // embedded afresh instead
        }
      }
      const results = await this.#queue.run(() => this.#write(batch))
      for (const r of results) {
        if (r.status === 'created') report.created++
        else report.duplicates++
        if (r.flags?.length) report.flagged++
      }
      this.#emit({
        type: 'import',
        done: Math.min(start + batchSize, lines.length),
        total: lines.length,
      })
    }
    return report
  }

  async exportMemories(options: ExportOptions = {}): Promise<string> {
    await this.#connected()
    if (!options || typeof options !== 'object') {
      throw new InvalidInputError('BAD_OPTION', 'options', 'expected an object')
    }
    return this.#mapped(
      exportJsonl(this.#db, {
        ...options,
        model: this.#embedder?.model ?? null,
        dims: this.#readyDims(),
        now: this.#clock(),
      }),
    )
  }

  // ---------------------------------------------------------------- reads

  async recall(query: string, options?: RecallOptions): Promise<RecallResult> {
    await this.#connected()
    const started = performance.now()
    const checked = checkRecallOptions(query, options, this.#retrieval, this.#limits)
    const now = this.#clock()
    const outcome = await runRecall(
      {
        indexes: this.#indexes,
        ...(this.#embedder ? { embedder: this.#embedder } : {}),
        vectorBlocker: () => this.#vectorBlocker(),
        retrieval: this.#retrieval,
        limits: this.#limits,
        now,
      },
      query,
      checked,
    )
    const result: RecallResult = { ...outcome, tookMs: performance.now() - started }
    if (checked.log) this.#logRecall(query, options, result, now)
    this.#noteRecalled(result.hits.map((h) => h.id))
    return result
  }

  async get(id: string): Promise<Memory | undefined> {
    this.#assertOpen()
    validateId(id)
    await this.#connected()
    return this.#mapped(this.#db.memories.get(id))
  }

  async list(options: ListOptions = {}): Promise<ListPage> {
    this.#assertOpen()
    if (!options || typeof options !== 'object') {
      throw new InvalidInputError('BAD_OPTION', 'options', 'expected an object')
    }
    if (options.cursor !== undefined) validateId(options.cursor, 'cursor')
    const limit = options.limit ?? 50
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'limit',
        `expected an integer 1..1000, got ${limit}`,
      )
    }
    const { namespace, type, tag, cursor } = options
    const wanted = (m: Memory) =>
      (namespace === undefined || m.namespace === namespace) &&
      (type === undefined || m.type === type) &&
      (tag === undefined || m.tags.some((t) => t.toLowerCase() === tag.toLowerCase()))
    await this.#connected()
    const collection = cursor
      ? this.#db.memories.where('id').below(cursor).reverse()
      : this.#db.memories.orderBy('id').reverse()
    const items = await this.#mapped(
      collection
        .filter(wanted)
        .limit(limit + 1)
        .toArray(),
    )
    const page: ListPage = { items: items.slice(0, limit) }
    if (items.length > limit) page.cursor = page.items[page.items.length - 1]!.id
    return page
  }

  async count(filter: CountFilter = {}): Promise<number> {
    this.#assertOpen()
    if (!filter || typeof filter !== 'object') {
      throw new InvalidInputError('BAD_OPTION', 'filter', 'expected an object')
    }
    await this.#connected()
    const { namespace, type } = filter
    const table = this.#db.memories
    const query =
      namespace !== undefined && type !== undefined
        ? table.where('[namespace+type]').equals([namespace, type]).count()
        : namespace !== undefined
          ? table.where('namespace').equals(namespace).count()
          : type !== undefined
            ? table.filter((m) => m.type === type).count()
            : table.count()
    return this.#mapped(query)
  }

  async recallLog(options: { limit?: number } = {}): Promise<RecallLogEntry[]> {
    this.#assertOpen()
    const limit = options?.limit ?? 50
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'limit',
        `expected an integer from 1 to 1000000, got ${describe(limit)}`,
      )
    }
    await this.#connected()
    await Promise.allSettled([...this.#background])
    return this.#mapped(this.#db.recalls.orderBy('id').reverse().limit(limit).toArray())
  }

  async clearRecallLog(): Promise<void> {
    await this.#connected()
    await Promise.allSettled([...this.#background])
    await this.#mapped(this.#db.recalls.clear())
  }

  async stats(): Promise<MemoryStats> {
    await this.#connected()
    const vectors = await this.#mapped(this.#db.vectors.count())
    const { catalogue, keyword } = this.#indexes
    const vectorEntries = this.#indexes.vectors?.size ?? 0
    const stats: MemoryStats = {
      memories: catalogue.size,
      vectors,
      pendingVectors: this.#embedder ? catalogue.size - vectorEntries : 0,
      keywordEntries: keyword.size,
      vectorEntries,
      changeSeq: this.#lastSeq,
    }
    if (this.#embedder) stats.embedder = this.#embedder.stats()
    if (this.#openStats) stats.open = this.#openStats
    return stats
  }

  /**
   * Checks that the indexes agree with the tables. Runs under the write lock, and reads the
   * tables in one transaction together with the change log past `#lastSeq`, which it applies from
   * the rows it read: the check sees one consistent moment even while a writer outside the lock
   * (a tab without Web Locks) keeps committing. A catalogue row that differs from its table row
   * in an indexed field counts as missing from the keyword index (its current version is).
   */
  async verify(): Promise<VerifyReport> {
    this.#assertOpen()
    return this.#queue.run(() =>
      this.#locked(async () => {
        for (let attempt = 1; ; attempt++) {
          const read = await this.#db.transaction(
            'r',
            this.#db.memories,
            this.#db.vectors,
            this.#db.changes,
            async () => {
              const changes = await this.#db.changes.where('seq').above(this.#lastSeq).toArray()
              const oldest = await this.#db.changes.orderBy('seq').first()
              const [memories, vectors] = await Promise.all([
                this.#db.memories.toArray(),
                this.#db.vectors.toArray(),
              ])
              return { changes, oldest, memories, vectors }
            },
          )
          const { changes, oldest, memories, vectors } = read
          const pruned = changes.length > 0 && oldest && oldest.seq! > this.#lastSeq + 1
          if (pruned && attempt < 3) {
            await this.#rebuild() // the log no longer reaches back to this engine: read again
            continue
          }
          this.#apply(
            changes,
            new Map(memories.map((m) => [m.id, m])),
            new Map(vectors.map((v) => [v.id, v])),
          )
          return compareIndexes(this.#indexes, memories, vectors, this.#embedder?.model)
        }
      }),
    )
  }

  /**
   * Applies changes other tabs wrote since this engine last looked. Called when a tab announces
   * a new `seq`; also runs inside every write, under the lock, before dedup.
   */
  async catchUp(): Promise<number> {
    this.#assertOpen()
    return this.#queue.run(async () => {
      try {
        await this.#reconnect()
        return await this.#replay()
      } catch (error) {
        throw this.#mapError(error)
      }
    })
  }

  /**
   * Waits for queued writes, saves a snapshot and closes. Never throws for the snapshot or the
   * recall counters: the tables already hold every acknowledged write, and the next open
   * catches up from the change log.
   */
  async close(): Promise<void> {
    if (this.#disposed) return
    this.#disposed = true
    clearTimeout(this.#backfillTimer)
    try {
      if (!this.#closed) {
        await this.#queue.drain()
        if (this.#db.isOpen()) {
          await this.#flushRecalled().catch(() => {})
          await Promise.allSettled([...this.#background])
          if (this.#lastSeq !== this.#snapshotSeq) await this.#snapshot().catch(() => {})
        }
      }
    } finally {
      this.#closed ??= new MemoryClosedError()
      this.#db.close()
      await this.#embedder?.dispose?.()
    }
  }

  // ---------------------------------------------------------------- internals

  #assertOpen(): void {
    if (this.#closed) throw this.#closed
  }

  /** Closes for good: a schema upgrade or deletion elsewhere. Calls in flight reject. */
  #shutDown(reason: string): void {
    if (this.#closed) return
    this.#closed = new MemoryClosedError(reason)
    this.#db.close()
    this.#emit({ type: 'closed', reason: 'versionchange' })
  }

  /** Translates a storage failure; a connection lost underneath says the next call reopens. */
  #mapError(error: unknown): EngramError {
    const mapped = mapStorageError(error)
    if (!(mapped instanceof MemoryClosedError)) return mapped
    if (this.#closed) return this.#closed
    return new MemoryClosedError(
      'the database connection closed during this call; the next call reopens it',
      { cause: error },
    )
  }

  #mapped<T>(promise: Promise<T>): Promise<T> {
    return promise.catch((error: unknown) => {
      throw this.#mapError(error)
    })
  }

  /** Reopens a connection lost underneath. Inside the queue; the caller catches up after. */
  async #reconnect(): Promise<void> {
    this.#assertOpen()
    if (this.#db.isOpen()) return
    await this.#db.open()
    // Site data cleared while the connection was down: the log restarts below where this
    // engine was, and replaying from `#lastSeq` would keep serving memories that are gone.
    const last = await this.#db.changes.orderBy('seq').last()
    if ((last?.seq ?? 0) < this.#lastSeq) await this.#rebuild()
  }

  /** For calls outside the write queue: reopens (through the queue) if the connection was lost. */
  async #connected(): Promise<void> {
    this.#assertOpen()
    if (this.#db.isOpen()) return
    this.#reopening ??= this.#queue
      .run(async () => {
        await this.#reconnect()
        await this.#replay()
      })
      .finally(() => {
        this.#reopening = null
      })
    await this.#mapped(this.#reopening)
  }

  #emit(event: MemoryEvent): void {
    try {
      this.#onEvent?.(event)
    } catch {
      // A listener's failure must not break the write that announced it.
    }
  }

  /**
   * Runs a write under the cross-tab lock, after reopening a lost connection and replaying what
   * other tabs wrote. Every failure comes out as a catalogue error.
   */
  #locked<T>(task: () => Promise<T>): Promise<T> {
    return this.#mapped(
      this.#lock(async () => {
        await this.#reconnect()
        await this.#replay()
        return task()
      }),
    )
  }

  async #transact<T>(body: () => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction(
        'rw',
        this.#db.memories,
        this.#db.vectors,
        this.#db.changes,
        body,
      )
    } catch (error) {
      // Keep the raw error for #write: a unique-key failure there is a race, not a fault.
      if (isConstraintError(error)) throw error
      throw this.#mapError(error)
    }
  }

  #readyDims(): number {
    return this.#embedder && this.#embedder.state === 'ready' ? this.#embedder.dims : 0
  }

  #vectorBlocker(): 'no-embedder' | 'loading' | 'failed' | 'reembedding' | null {
    const e = this.#embedder
    if (!e) return 'no-embedder'
    if (e.state === 'failed') return 'failed'
    if (e.state !== 'ready' || !this.#indexes.vectors) return 'loading'
    if (this.#staleVectors > 0) return 'reembedding'
    return null
  }

  #checkVector(prepared: PreparedWrite, field: string): void {
    if (prepared.vector === undefined) return
    const dims = this.#readyDims()
    if (dims === 0) {
      throw new InvalidInputError(
        'BAD_VECTOR',
        field,
        'a vector needs a loaded embedding model to compare with; none is ready',
      )
    }
    prepared.vector = validateVector(prepared.vector, dims, field)
  }

  #vectorRow(id: string, vector: Float32Array): VectorRow {
    return { id, model: this.#embedder!.model, dims: vector.length, vector }
  }

  async #embedPassages(texts: string[]): Promise<Float32Array[] | undefined> {
    const embedder = this.#embedder
    if (embedder?.state !== 'ready' || !this.#indexes.vectors) return undefined
    try {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += EMBED_CHUNK) {
        const chunk = texts.slice(start, start + EMBED_CHUNK)
        vectors.push(...(await embedder.embed(chunk, { kind: 'passage' })))
      }
      return vectors
    } catch {
      // The write still lands; the backfill embeds it when the model works again.
      return undefined
    }
  }

  /**
   * One batch, inside the queue: dedup, embed, one transaction, then the indexes. A unique-key
   * failure means a writer outside this engine's lock stored the same text (or id) first: catch
   * up and run the batch again, so the caller gets the duplicate instead of an error.
   */
  #write(items: PreparedWrite[]): Promise<RememberResult[]> {
    this.#assertOpen()
    return this.#locked(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const outcome = await writeBatch(items, {
            db: this.#db,
            indexes: this.#indexes,
            now: this.#clock(),
            newId: () => this.#ulid(),
            embed: (texts) => this.#embedPassages(texts),
            model: this.#embedder?.model ?? null,
            nearDuplicate: this.#retrieval.nearDuplicate,
            transact: (body) => this.#transact(body),
          })
          this.#advance(outcome.seqs)
          if (outcome.unembedded > 0) this.#scheduleBackfill()
          return outcome.results
        } catch (error) {
          if (!isConstraintError(error) || attempt >= CONSTRAINT_RETRIES) throw error
          await this.#replay()
        }
      }
    })
  }

  /** Records seqs this engine wrote, catching up first if another writer slipped in between. */
  #advance(seqs: number[]): void {
    if (seqs.length === 0) return
    const max = Math.max(...seqs)
    if (Math.min(...seqs) === this.#lastSeq + 1) this.#lastSeq = max
    else this.#housekeep(() => this.#replay())
    this.#emit({ type: 'change', seq: max })
    if (this.#lastSeq - this.#snapshotSeq >= this.#snapshotEvery) {
      this.#housekeep(() => this.#snapshot())
    }
  }

  /**
   * Queues housekeeping (a catch-up, a snapshot) whose failure no caller waits for: the next
   * write catches up anyway, and a missing snapshot only costs start-up time.
   */
  #housekeep(task: () => Promise<unknown>): void {
    this.#track(
      this.#queue.run(async () => {
        if (this.#closed || !this.#db.isOpen()) return
        await task()
      }),
    )
  }

  /**
   * Replays the change log after `#lastSeq` into the indexes. Returns how many changes. When the
   * log no longer reaches back to `#lastSeq` (pruned by a snapshot elsewhere), or ends before
   * it, only a rebuild can be trusted.
   */
  async #replay(): Promise<number> {
    const { changes, oldest, memories, vectors } = await this.#db.transaction(
      'r',
      this.#db.changes,
      this.#db.memories,
      this.#db.vectors,
      async () => {
        const changes = await this.#db.changes.where('seq').above(this.#lastSeq).toArray()
        const gap = changes.length > 0 && changes[0]!.seq! > this.#lastSeq + 1
        const oldest = gap ? await this.#db.changes.orderBy('seq').first() : undefined
        const ids = [...new Set(changes.filter((c) => c.op === 'put').map((c) => c.id))]
        const [memories, vectors] = await Promise.all([
          this.#db.memories.bulkGet(ids),
          this.#db.vectors.bulkGet(ids),
        ])
        return { changes, oldest, memories, vectors }
      },
    )
    if (changes.length === 0) return 0
    // Seqs may skip numbers (an aborted write can use one up), so a gap alone proves nothing;
    // a log whose oldest entry is past us does.
    if (oldest && oldest.seq! > this.#lastSeq + 1) {
      await this.#rebuild()
      return changes.length
    }
    this.#apply(
      changes,
      new Map(memories.filter((m) => m !== undefined).map((m) => [m.id, m])),
      new Map(vectors.filter((v) => v !== undefined).map((v) => [v.id, v])),
    )
    return changes.length
  }

  /** Applies changes to the indexes from rows read in the same transaction as the changes. */
  #apply(
    changes: ChangeRow[],
    rows: ReadonlyMap<string, Memory>,
    vectorRows: ReadonlyMap<string, VectorRow>,
  ): void {
    if (changes.length === 0) return
    const latest = new Map<string, 'put' | 'delete'>()
    for (const change of changes) latest.set(change.id, change.op)
    const model = this.#embedder?.model
    for (const [id, op] of latest) {
      const memory = op === 'put' ? rows.get(id) : undefined
      if (!memory) {
        this.#indexes.remove(id)
        continue
      }
      const v = vectorRows.get(id)
      const current = v && v.model === model && v.dims === this.#indexes.vectors?.dims
      this.#indexes.put(memory, current ? v.vector : undefined)
      if (!current) this.#indexes.removeVector(id)
    }
    this.#lastSeq = changes[changes.length - 1]!.seq!
  }

  async #restore(): Promise<void> {
    const started = performance.now()
    const model = this.#embedder?.model ?? null
    const loaded = await loadSnapshot(
      this.#db,
      { optionsHash: this.#optionsHash, model },
      this.#keywordOptions,
    )
    let restored: 'snapshot' | 'rebuild' | 'empty' = 'rebuild'
    let replayed = 0
    if ('indexes' in loaded && (await this.#adopt(loaded.indexes, loaded.row.seq))) {
      const rebuilds = this.#rebuilds
      replayed = await this.#replay()
      // The replay rebuilds by itself when the log no longer reaches back to the snapshot.
      if (this.#rebuilds === rebuilds && (await this.#agrees())) restored = 'snapshot'
      else if (this.#rebuilds === rebuilds) await this.#rebuild()
    } else {
      await this.#rebuild()
      if (this.#indexes.catalogue.size === 0) restored = 'empty'
    }
    const total = await this.#db.vectors.count()
    const current = model ? await this.#db.vectors.where('model').equals(model).count() : total
    this.#staleVectors = total - current
    this.#openStats = { ms: performance.now() - started, restored, replayed }
  }

  /**
   * Takes indexes loaded from a snapshot stamped `seq`, around the current rows. Refuses (false)
   * a snapshot stamped past the end of the change log: it describes data that is not there.
   */
  async #adopt(indexes: IndexSet, seq: number): Promise<boolean> {
    const [memories, last] = await this.#db.transaction(
      'r',
      this.#db.memories,
      this.#db.changes,
      () => Promise.all([this.#db.memories.toArray(), this.#db.changes.orderBy('seq').last()]),
    )
    if (seq > (last?.seq ?? 0)) return false
    indexes.adoptCatalogue(memories)
    this.#indexes = indexes
    this.#lastSeq = seq
    this.#snapshotSeq = seq
    return true
  }

  /** Whether the indexes hold exactly the ids of `memories` and of the current model's `vectors`. */
  async #agrees(): Promise<boolean> {
    const model = this.#embedder?.model
    const { catalogue, keyword, vectors } = this.#indexes
    if (keyword.size !== catalogue.size) return false
    for (const id of catalogue.keys()) if (!keyword.has(id)) return false
    const vectorIds = model
      ? ((await this.#db.vectors.where('model').equals(model).primaryKeys()) as string[])
      : []
    const indexed = vectorIds.filter((id) => catalogue.has(id))
    if ((vectors?.size ?? 0) !== indexed.length) return false
    return indexed.every((id) => vectors?.has(id))
  }

  /** Rebuilds every derived index from the `memories` and `vectors` tables. */
  async #rebuild(): Promise<void> {
    this.#rebuilds++
    const model = this.#embedder?.model ?? null
    // One read transaction: the rows and the seq they correspond to.
    const [last, memories, vectors] = await this.#db.transaction(
      'r',
      this.#db.changes,
      this.#db.memories,
      this.#db.vectors,
      () =>
        Promise.all([
          this.#db.changes.orderBy('seq').last(),
          this.#db.memories.toArray(),
          model ? this.#db.vectors.where('model').equals(model).toArray() : Promise.resolve([]),
        ]),
    )
    const dims = vectors[0]?.dims ?? this.#readyDims()
    const indexes = IndexSet.empty(this.#keywordOptions, dims)
    for (const memory of memories) indexes.put(memory)
    for (const row of vectors) if (row.dims === dims) indexes.putVector(row.id, row.vector)
    this.#indexes = indexes
    this.#lastSeq = last?.seq ?? 0
    // The snapshot only saves start-up time; failing to write one (quota) must not fail the
    // open or the catch-up that needed the rebuild.
    try {
      if (memories.length > 0) await this.#snapshot()
      else await deleteSnapshot(this.#db)
    } catch {
      this.#snapshotSeq = -1
    }
  }

  async #snapshot(): Promise<void> {
    if (this.#closed) return
    const seq = this.#lastSeq
    await saveSnapshot(this.#db, this.#indexes, {
      seq,
      optionsHash: this.#optionsHash,
      model: this.#embedder?.model ?? null,
      count: this.#indexes.catalogue.size,
      now: this.#clock(),
    })
    this.#snapshotSeq = seq
    // Keep a tail of the log so a tab slightly behind can still catch up without a rebuild.
    await this.#db.changes
      .where('seq')
      .belowOrEqual(seq - 1000)
      .delete()
  }

  #startEmbedder(): void {
    const embedder = this.#embedder
    if (!embedder) return
    const ready = () => {
      if (this.#closed) return
      this.#indexes.ensureVectors(embedder.dims)
      this.#emit({ type: 'model-ready', model: embedder.model, ...deviceOf(embedder) })
      this.#scheduleBackfill()
    }
    if (embedder.state === 'ready') {
      ready()
      return
    }
    this.#track(
      embedder.load().then(ready, (error: unknown) => {
        this.#emit({ type: 'model-failed', model: embedder.model, error: String(error) })
      }),
    )
  }

  /**
   * Embeds memories that lack a vector from the current model (written while the model
   * loaded, or under another model), a batch at a time through the write queue, running the
   * near-dedup check each would have had at write time.
   */
  #scheduleBackfill(): void {
    if (this.#closed || this.#disposed) return
    if (this.#backfilling || !this.#embedder || this.#embedder.state !== 'ready') return
    this.#backfilling = this.#runBackfill().finally(() => {
      this.#backfilling = null
    })
    this.#track(this.#backfilling)
  }

  async #runBackfill(): Promise<void> {
    const { backfillBatch } = await import('./backfill.ts')
    let done = 0
    for (;;) {
      if (this.#closed || this.#disposed) return
      const pending = [...this.#indexes.catalogue.keys()].filter(
        (id) => !this.#indexes.vectors?.has(id),
      )
      if (pending.length === 0) break
      const batch = pending.slice(0, 32)
      const progressed = await this.#queue
        .run(() =>
          this.#locked(() =>
            backfillBatch(batch, {
              db: this.#db,
              indexes: this.#indexes,
              embedder: this.#embedder!,
              nearDuplicate: this.#retrieval.nearDuplicate,
              now: this.#clock(),
              transact: (body) => this.#transact(body),
            }),
          ),
        )
        .catch(() => null)
      if (!progressed) {
        this.#retryBackfill()
        return
      }
      this.#backfillDelay = 0
      this.#advance(progressed.seqs)
      done += batch.length
      this.#emit({ type: 'backfill', done, total: done + pending.length - batch.length })
    }
    if (this.#staleVectors > 0) {
      const total = await this.#db.vectors.count()
      const current = await this.#db.vectors.where('model').equals(this.#embedder!.model).count()
      this.#staleVectors = total - current
    }
  }

  /**
   * A failed backfill batch (a storage fault, the model erroring) is tried again later, backing
   * off from 0.5 s to a minute, so one failure does not leave memories unembedded all session.
   */
  #retryBackfill(): void {
    if (this.#closed || this.#disposed || this.#backfillTimer) return
    this.#backfillDelay = Math.min(Math.max(this.#backfillDelay * 2, 500), 60_000)
    this.#backfillTimer = setTimeout(() => {
      this.#backfillTimer = undefined
      this.#scheduleBackfill()
    }, this.#backfillDelay)
  }

  #track(promise: Promise<unknown>): void {
    const tracked = promise.catch(() => {}).finally(() => this.#background.delete(tracked))
    this.#background.add(tracked)
  }

  #logRecall(
    query: string,
    options: RecallOptions | undefined,
    result: RecallResult,
    at: number,
  ): void {
    // A function (the select hook) cannot be stored in IndexedDB.
    const { select: _select, ...loggable } = options ?? {}
    const entry: RecallLogEntry = {
      at,
      query,
      options: loggable,
      hits: result.hits.map((h) => ({
        id: h.id,
        rank: h.rank,
        score: h.score,
        via: h.via,
        explanation: h.explanation,
      })),
      tookMs: result.tookMs,
    }
    if (result.degraded) entry.degraded = result.degraded
    this.#track(
      (async () => {
        const id = await this.#db.recalls.add(entry)
        const cutoff = id - this.#recallLogSize
        if (cutoff > 0) await this.#db.recalls.where('id').belowOrEqual(cutoff).delete()
      })(),
    )
  }

  #noteRecalled(ids: string[]): void {
    if (ids.length === 0) return
    const first = this.#pendingRecalls.size === 0
    for (const id of ids) this.#pendingRecalls.set(id, (this.#pendingRecalls.get(id) ?? 0) + 1)
    if (first) this.#track(new Promise((r) => setTimeout(r, 50)).then(() => this.#flushRecalled()))
  }

  /** Counters only: they change no index, so no change-log entry and no write lock. */
  async #flushRecalled(): Promise<void> {
    if (this.#pendingRecalls.size === 0 || this.#closed) return
    const counts = new Map(this.#pendingRecalls)
    this.#pendingRecalls.clear()
    const at = this.#clock()
    await this.#db.transaction('rw', this.#db.memories, async () => {
      await this.#db.memories
        .where('id')
        .anyOf([...counts.keys()])
        .modify((m) => {
          m.recallCount += counts.get(m.id) ?? 0
          m.lastRecalledAt = at
        })
    })
    for (const [id, n] of counts) {
      const m = this.#indexes.catalogue.get(id)
      if (m)
        this.#indexes.catalogue.set(id, {
          ...m,
          recallCount: m.recallCount + n,
          lastRecalledAt: at,
        })
    }
  }
}

function deviceOf(embedder: Embedder): { device?: string } {
  const device = embedder.stats().device
  return device ? { device } : {}
}
