import { monotonicFactory } from 'ulidx'
import { InvalidInputError, MemoryClosedError, MemoryNotFoundError } from '../core/errors.ts'
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
import { EngramDatabase, mapStorageError, type VectorRow } from '../storage/index.ts'
import type { EngineOptions } from './engine-options.ts'
import { exportJsonl, parseJsonl } from './import-export.ts'
import { IndexSet } from './index-set.ts'
import type { KeywordIndexOptions } from './keyword-index.ts'
import { type PreparedWrite, preparePatch, prepareWrite, screen } from './prepare.ts'
import { checkRecallOptions, runRecall } from './recall.ts'
import { deleteSnapshot, loadSnapshot, optionsHash, saveSnapshot } from './snapshot.ts'
import { writeBatch } from './write-batch.ts'
import { Coalescer, WriteQueue } from './write-queue.ts'

type Lock = <T>(task: () => Promise<T>) => Promise<T>

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
  #closed: Error | null = null
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
    this.#coalescer = new Coalescer(
      this.#queue,
      (items) => this.#write(items),
      options.writeBatch ?? DEFAULT_WRITE_BATCH,
    )
  }

  /** Opens (creating if needed) the memory called `options.name` and restores its indexes. */
  static async open(options: EngineOptions): Promise<MemoryEngine> {
    if (!options || typeof options.name !== 'string' || options.name === '') {
      throw new InvalidInputError('BAD_OPTION', 'name', 'expected a non-empty memory name')
    }
    const db = new EngramDatabase(options.name, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    })
    const engine = new MemoryEngine(options, db)
    try {
      await db.open()
      db.on('versionchange', () => {
        engine.#closed = new MemoryClosedError(
          'another tab is upgrading this memory; reload to continue',
        )
        db.close()
        engine.#emit({ type: 'closed', reason: 'versionchange' })
        return false
      })
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
    return this.#writeInBatches(prepared)
  }

  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    this.#assertOpen()
    validateId(id)
    const changes = preparePatch(patch, this.#limits)
    return this.#queue.run(() =>
      this.#locked(async () => {
        const current = await this.#db.memories.get(id).catch((e) => {
          throw mapStorageError(e)
        })
        if (!current) throw new MemoryNotFoundError(id)
        const { poison = 'reject', key, expiresAt, ...fields } = changes
        const next: Memory = { ...current, ...fields, updatedAt: this.#clock() }
        if (key !== undefined) next.key = key
        if (expiresAt === null) delete next.expiresAt
        else if (expiresAt !== undefined) next.expiresAt = expiresAt
        if (fields.text !== undefined || fields.aliases !== undefined) {
          next.flags = screen([next.text, ...next.aliases].join('\n'), poison)
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

  async importMemories(jsonl: string, options: ImportOptions = {}): Promise<ImportReport> {
    this.#assertOpen()
    const lines = parseJsonl(jsonl, options.defaults, this.#limits, this.#embedder?.model ?? null)
    const batchSize = options.batchSize ?? DEFAULT_WRITE_BATCH
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
    this.#assertOpen()
    return exportJsonl(this.#db, {
      ...options,
      model: this.#embedder?.model ?? null,
      dims: this.#readyDims(),
      now: this.#clock(),
    }).catch((e) => {
      throw mapStorageError(e)
    })
  }

  // ---------------------------------------------------------------- reads

  async recall(query: string, options?: RecallOptions): Promise<RecallResult> {
    this.#assertOpen()
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
    return this.#db.memories.get(id).catch((e) => {
      throw mapStorageError(e)
    })
  }

  async list(options: ListOptions = {}): Promise<ListPage> {
    this.#assertOpen()
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
    const collection = cursor
      ? this.#db.memories.where('id').below(cursor).reverse()
      : this.#db.memories.orderBy('id').reverse()
    const items = await collection
      .filter(wanted)
      .limit(limit + 1)
      .toArray()
      .catch((e) => {
        throw mapStorageError(e)
      })
    const page: ListPage = { items: items.slice(0, limit) }
    if (items.length > limit) page.cursor = page.items[page.items.length - 1]!.id
    return page
  }

  async count(filter: CountFilter = {}): Promise<number> {
    this.#assertOpen()
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
    return query.catch((e) => {
      throw mapStorageError(e)
    })
  }

  async recallLog(options: { limit?: number } = {}): Promise<RecallLogEntry[]> {
    this.#assertOpen()
    await Promise.allSettled([...this.#background])
    return this.#db.recalls
      .orderBy('id')
      .reverse()
      .limit(options.limit ?? 50)
      .toArray()
  }

  async clearRecallLog(): Promise<void> {
    this.#assertOpen()
    await Promise.allSettled([...this.#background])
    await this.#db.recalls.clear()
  }

  async stats(): Promise<MemoryStats> {
    this.#assertOpen()
    const vectors = await this.#db.vectors.count()
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

  async verify(): Promise<VerifyReport> {
    this.#assertOpen()
    return this.#queue.run(async () => {
      const [memoryIds, vectorRows] = await Promise.all([
        this.#db.memories.toCollection().primaryKeys() as Promise<string[]>,
        this.#db.vectors.toArray(),
      ])
      const model = this.#embedder?.model
      const memorySet = new Set(memoryIds)
      const currentVectorIds = new Set(vectorRows.filter((v) => v.model === model).map((v) => v.id))
      const keywordIds = new Set(this.#indexes.keyword.ids())
      const vectorIds = new Set(this.#indexes.vectors?.ids() ?? [])
      const report: VerifyReport = {
        ok: false,
        memories: memorySet.size,
        vectors: vectorRows.length,
        keywordEntries: keywordIds.size,
        vectorEntries: vectorIds.size,
        missingFromKeyword: [...memorySet].filter((id) => !keywordIds.has(id)),
        extraInKeyword: [...keywordIds].filter((id) => !memorySet.has(id)),
        missingFromVectors: [...currentVectorIds].filter((id) => !vectorIds.has(id)),
        extraInVectors: [...vectorIds].filter((id) => !currentVectorIds.has(id)),
        orphanVectors: vectorRows.filter((v) => !memorySet.has(v.id)).map((v) => v.id),
      }
      report.ok =
        report.missingFromKeyword.length === 0 &&
        report.extraInKeyword.length === 0 &&
        report.missingFromVectors.length === 0 &&
        report.extraInVectors.length === 0 &&
        report.orphanVectors.length === 0 &&
        this.#indexes.catalogue.size === memorySet.size
      return report
    })
  }

  /**
   * Applies changes other tabs wrote since this engine last looked. Called when a tab announces
   * a new `seq`; also runs inside every write, under the lock, before dedup.
   */
  async catchUp(): Promise<number> {
    this.#assertOpen()
    return this.#queue.run(() => this.#replay())
  }

  async close(): Promise<void> {
    if (this.#closed) return
    try {
      await this.#queue.drain()
      await this.#flushRecalled()
      await Promise.allSettled([...this.#background])
      if (this.#lastSeq !== this.#snapshotSeq) await this.#snapshot()
    } finally {
      this.#closed = new MemoryClosedError()
      this.#db.close()
      await this.#embedder?.dispose?.()
    }
  }

  // ---------------------------------------------------------------- internals

  #assertOpen(): void {
    if (this.#closed) throw this.#closed
  }

  #emit(event: MemoryEvent): void {
    try {
      this.#onEvent?.(event)
    } catch {
      // A listener's failure must not break the write that announced it.
    }
  }

  #locked<T>(task: () => Promise<T>): Promise<T> {
    return this.#lock(async () => {
      await this.#replay()
      return task()
    })
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
      throw mapStorageError(error)
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
    if (!this.#embedder || this.#embedder.state !== 'ready' || !this.#indexes.vectors)
      return undefined
    try {
      return await this.#embedder.embed(texts, { kind: 'passage' })
    } catch {
      // The write still lands; the backfill embeds it when the model works again.
      return undefined
    }
  }

  async #writeInBatches(prepared: PreparedWrite[]): Promise<RememberResult[]> {
    const results: RememberResult[] = []
    for (let start = 0; start < prepared.length; start += DEFAULT_WRITE_BATCH) {
      const batch = prepared.slice(start, start + DEFAULT_WRITE_BATCH)
      results.push(...(await this.#queue.run(() => this.#write(batch))))
    }
    return results
  }

  /** One batch, inside the queue: dedup, embed, one transaction, then the indexes. */
  #write(items: PreparedWrite[]): Promise<RememberResult[]> {
    this.#assertOpen()
    return this.#locked(async () => {
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
    })
  }

  /** Records seqs this engine wrote, catching up first if another writer slipped in between. */
  #advance(seqs: number[]): void {
    if (seqs.length === 0) return
    const max = Math.max(...seqs)
    if (Math.min(...seqs) === this.#lastSeq + 1) this.#lastSeq = max
    else void this.#queue.run(() => this.#replay())
    this.#emit({ type: 'change', seq: max })
    if (this.#lastSeq - this.#snapshotSeq >= this.#snapshotEvery) {
      void this.#queue.run(() => this.#snapshot()).catch(() => {})
    }
  }

  /** Replays the change log after `#lastSeq` into the indexes. Returns how many changes. */
  async #replay(): Promise<number> {
    const changes = await this.#db.changes.where('seq').above(this.#lastSeq).toArray()
    if (changes.length === 0) return 0
    const first = changes[0]!.seq!
    if (first > this.#lastSeq + 1 && this.#lastSeq > 0) {
      const oldest = await this.#db.changes.orderBy('seq').first()
      // The log was pruned past us: only a rebuild can be trusted.
      if (oldest && oldest.seq! > this.#lastSeq + 1) {
        await this.#rebuild()
        return changes.length
      }
    }
    const latest = new Map<string, 'put' | 'delete'>()
    for (const change of changes) latest.set(change.id, change.op)
    const putIds = [...latest].filter(([, op]) => op === 'put').map(([id]) => id)
    const [memories, vectors] = await Promise.all([
      this.#db.memories.bulkGet(putIds),
      this.#db.vectors.bulkGet(putIds),
    ])
    const model = this.#embedder?.model
    for (const [id, op] of latest) if (op === 'delete') this.#indexes.remove(id)
    putIds.forEach((id, i) => {
      const memory = memories[i]
      if (!memory) {
        this.#indexes.remove(id)
        return
      }
      const v = vectors[i]
      this.#indexes.put(memory, v && v.model === model ? v.vector : undefined)
      if (!v || v.model !== model) this.#indexes.removeVector(id)
    })
    this.#lastSeq = changes[changes.length - 1]!.seq!
    return changes.length
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
    if ('indexes' in loaded) {
      const memories = await this.#db.memories.toArray()
      this.#indexes = loaded.indexes
      this.#indexes.adoptCatalogue(memories)
      this.#lastSeq = loaded.row.seq
      this.#snapshotSeq = loaded.row.seq
      replayed = await this.#replay()
      const currentVectors = model ? await this.#db.vectors.where('model').equals(model).count() : 0
      const agrees =
        this.#indexes.keyword.size === this.#indexes.catalogue.size &&
        (this.#indexes.vectors?.size ?? 0) === currentVectors
      if (agrees) restored = 'snapshot'
      else await this.#rebuild()
    } else {
      await this.#rebuild()
      if (this.#indexes.catalogue.size === 0) restored = 'empty'
    }
    const total = await this.#db.vectors.count()
    const current = model ? await this.#db.vectors.where('model').equals(model).count() : total
    this.#staleVectors = total - current
    this.#openStats = { ms: performance.now() - started, restored, replayed }
  }

  /** Rebuilds every derived index from the `memories` and `vectors` tables. */
  async #rebuild(): Promise<void> {
    const model = this.#embedder?.model ?? null
    const last = await this.#db.changes.orderBy('seq').last()
    const [memories, vectors] = await Promise.all([
      this.#db.memories.toArray(),
      model ? this.#db.vectors.where('model').equals(model).toArray() : Promise.resolve([]),
    ])
    const dims = vectors[0]?.dims ?? this.#readyDims()
    const indexes = IndexSet.empty(this.#keywordOptions, dims)
    for (const memory of memories) indexes.put(memory)
    for (const row of vectors) if (row.dims === dims) indexes.putVector(row.id, row.vector)
    this.#indexes = indexes
    this.#lastSeq = last?.seq ?? 0
    if (memories.length > 0) await this.#snapshot()
    else await deleteSnapshot(this.#db)
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
      if (this.#closed) return
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
      if (!progressed) return
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
    const entry: RecallLogEntry = {
      at,
      query,
      options: { ...options },
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
