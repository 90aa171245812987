import { CHANGE_LOG_TAIL, SNAPSHOT_STORE_SHARE } from '../../core/options.ts'
import type { Embedder, Memory, MemoryEvent, MemoryStats } from '../../core/types.ts'
import type { ChangeRow, EngramDatabase, VectorRow } from '../../storage/index.ts'
import type { ConnectionState } from '../connection-state.ts'
import { indexesAgree, keysAgree } from './agree.ts'
import { IndexSet } from './index-set.ts'
import type { KeywordIndexOptions } from './keyword-index.ts'
import { deleteSnapshot, readCountersMark, saveSnapshot } from './snapshot.ts'
import { COUNTERS_SNAPSHOT_GAP_MS, QUIET_SNAPSHOT_MS, SnapshotTimer } from './snapshot-timer.ts'
import { readChangesAfter, readTables } from './table-reads.ts'

/** How the indexes were restored on open, as {@link MemoryStats} reports it. */
export type Restored = NonNullable<MemoryStats['open']>['restored']

/**
 * What index upkeep needs from the engine (the {@link EngineContext} that owns it): written as
 * its own shape so the owner can construct it without a cycle between the two modules.
 */
export interface IndexUpkeepHost {
  readonly db: EngramDatabase
  readonly embedder: Embedder | undefined
  readonly keywordOptions: Partial<KeywordIndexOptions>
  readonly optionsHash: string
  readonly clock: () => number
  readonly snapshotEvery: number
  readonly connection: ConnectionState
  readonly queue: { run<T>(task: () => Promise<T>): Promise<T> }
  readyDims(): number
  emit(event: MemoryEvent): void
  track(promise: Promise<unknown>): void
}

/**
 * The derived indexes and how far they have caught up with the change log: the last seq they
 * reflect, the seq of the last snapshot, the snapshot that runs once writes pause, how many
 * stored vectors belong to another model, and how many rebuilds there were. Only its methods
 * move these: a write records its seqs, a catch-up replays, a mismatch rebuilds.
 */
export class IndexUpkeep {
  readonly #ctx: IndexUpkeepHost
  #indexes: IndexSet
  /** Last change-log seq the indexes reflect. */
  #lastSeq = 0
  /** Seq of the last snapshot saved or loaded; -1 after a failed save. */
  #snapshotSeq = 0
  readonly #timer: SnapshotTimer
  /**
   * The recall-counter mark the catalogue's counters reflect (see `readCountersMark`); -1 when
   * another engine flushed counters this catalogue has not seen.
   */
  #counters = -1
  /** Counters were flushed since the last snapshot. */
  #countersDirty = false
  /** When this engine last saved a snapshot (`performance.now()`). */
  #savedAt = Number.NEGATIVE_INFINITY
  /**
   * Stored vectors from a model other than the current one (re-embedding pending); undefined
   * until counted or taken from a snapshot that counted them.
   */
  #staleVectors: number | undefined
  #rebuilds = 0
  #rebuilding = false

  constructor(ctx: IndexUpkeepHost) {
    this.#ctx = ctx
    this.#timer = new SnapshotTimer({
      windingDown: () => ctx.connection.isWindingDown,
      stale: () => this.#lastSeq !== this.#snapshotSeq || this.#countersDirty,
      save: () => this.#housekeep(() => this.snapshot()),
    })
    this.#indexes = IndexSet.empty(ctx.keywordOptions, ctx.readyDims())
  }

  /** The indexes; replaced wholesale by a rebuild or a snapshot restore, so read it afresh. */
  get indexes(): IndexSet {
    return this.#indexes
  }

  /** Last change-log seq the indexes reflect. */
  get lastSeq(): number {
    return this.#lastSeq
  }

  /** Rebuilds so far, so a caller can tell whether a replay fell back to one. */
  get rebuilds(): number {
    return this.#rebuilds
  }

  /** A rebuild is reading the tables: the indexes may be far behind them (recall falls back). */
  get rebuilding(): boolean {
    return this.#rebuilding
  }

  /** Stored vectors of another model are still waiting to be re-embedded. */
  get reembedding(): boolean {
    return (this.#staleVectors ?? 0) > 0
  }

  /**
   * Takes the indexes from a snapshot stamped `seq`, when there is one that fits, then replays
   * the change log after it; rebuilds from the tables when the snapshot does not fit them.
   */
  async restore(
    snapshot: { indexes: IndexSet; seq: number; staleVectors?: number } | undefined,
  ): Promise<{ restored: Restored; replayed: number }> {
    if (snapshot && (await this.#adopt(snapshot.indexes, snapshot.seq))) {
      const rebuilds = this.#rebuilds
      const replayed = await this.replay()
      // The replay rebuilds by itself when the log no longer reaches back to the snapshot.
      if (this.#rebuilds !== rebuilds) return { restored: 'rebuild', replayed }
      const { db, embedder } = this.#ctx
      if (await indexesAgree(db, this.#indexes, embedder?.model, snapshot.staleVectors)) {
        // Counted again by `checkKeys`, after the open: the log since the save may have
        // re-embedded some, or a tab on another model stored some.
        this.#staleVectors ??= snapshot.staleVectors
        return { restored: 'snapshot', replayed }
      }
      await this.rebuild()
      return { restored: 'rebuild', replayed }
    }
    await this.rebuild()
    return { restored: this.#indexes.catalogue.size === 0 ? 'empty' : 'rebuild', replayed: 0 }
  }

  /**
   * After an open that trusted a snapshot on its counts: the stored keys read and compared (in
   * Chromium a key costs what its row does, a third of a 10k open, so not on the open's path),
   * after a replay of what was written since. A mismatch (an id swapped around the log) rebuilds.
   * Returns whether they agreed. Inside the write queue, under the cross-tab lock.
   */
  async checkKeys(): Promise<boolean> {
    await this.replay()
    const { db, embedder } = this.#ctx
    const { agreed, modelVectors } = await keysAgree(db, this.#indexes, embedder?.model)
    if (!agreed) {
      await this.rebuild()
      await this.countStaleVectors()
      return false
    }
    // The model's vectors were just counted by their keys; the table's plain count is cheap.
    this.#staleVectors = embedder ? (await db.vectors.count()) - modelVectors! : 0
    return true
  }

  /**
   * Replays the change log after the last seq into the indexes. Returns how many changes. When
   * the log no longer reaches back that far (pruned by a snapshot elsewhere), only a rebuild
   * can be trusted.
   */
  async replay(): Promise<number> {
    const after = this.#lastSeq
    const read = await readChangesAfter(this.#ctx.db, after)
    if (!read || read.changes.length === 0) return 0
    const { changes, oldest, memories, vectors } = read
    // Seqs may skip numbers (an aborted write can use one up), so a gap alone proves nothing;
    // a log whose oldest entry is past us does.
    if (oldest && oldest.seq! > after + 1) {
      await this.rebuild()
      return changes.length
    }
    this.apply(changes, memories, vectors)
    return changes.length
  }

  /** Applies changes to the indexes from rows read in the same transaction as the changes. */
  apply(
    changes: readonly ChangeRow[],
    rows: ReadonlyMap<string, Memory>,
    vectorRows: ReadonlyMap<string, VectorRow>,
  ): void {
    if (changes.length === 0) return
    const latest = new Map<string, 'put' | 'delete'>()
    for (const change of changes) latest.set(change.id, change.op)
    const model = this.#ctx.embedder?.model
    const indexes = this.#indexes
    for (const [id, op] of latest) {
      const memory = op === 'put' ? rows.get(id) : undefined
      if (!memory) {
        indexes.remove(id)
        continue
      }
      const v = vectorRows.get(id)
      const current = v && v.model === model && v.dims === indexes.vectors?.dims
      indexes.put(memory, current ? v.vector : undefined)
      if (!current) indexes.removeVector(id)
    }
    this.#lastSeq = changes[changes.length - 1]!.seq!
  }

  /** Rebuilds every derived index from the `memories` and `vectors` tables. */
  async rebuild(): Promise<void> {
    this.#rebuilding = true
    try {
      await this.#rebuild()
    } finally {
      this.#rebuilding = false
    }
  }

  async #rebuild(): Promise<void> {
    this.#rebuilds++
    const { db, embedder, keywordOptions } = this.#ctx
    const { lastSeq, memories, vectors, counters } = await readTables(db, embedder?.model ?? null)
    this.#counters = counters
    const dims = vectors[0]?.dims ?? this.#ctx.readyDims()
    const indexes = IndexSet.empty(keywordOptions, dims)
    for (const memory of memories) indexes.put(memory)
    for (const row of vectors) if (row.dims === dims) indexes.putVector(row.id, row.vector)
    this.#indexes = indexes
    this.#lastSeq = lastSeq
    this.#rebuilding = false
    // The snapshot only saves start-up time; failing to write one (quota) must not fail the
    // open or the catch-up that needed the rebuild.
    try {
      if (memories.length > 0) await this.snapshot()
      else await deleteSnapshot(db)
    } catch {
      this.#snapshotSeq = -1
    }
  }

  /** Saves the indexes as they stand at the last seq and prunes the change log behind them. */
  async snapshot(): Promise<void> {
    const ctx = this.#ctx
    if (ctx.connection.isClosed) return
    const seq = this.#lastSeq
    const started = performance.now()
    // A snapshot says how many stored vectors are another model's, so the next open need not
    // count the model's range: counted now unless known to be none.
    if (this.#staleVectors !== 0) await this.countStaleVectors()
    await saveSnapshot(ctx.db, this.#indexes, {
      seq,
      optionsHash: ctx.optionsHash,
      model: ctx.embedder?.model ?? null,
      count: this.#indexes.catalogue.size,
      now: ctx.clock(),
      counters: this.#counters,
      staleVectors: this.#staleVectors ?? 0,
    })
    this.#snapshotSeq = seq
    this.#savedAt = performance.now()
    this.#timer.markSaved(this.#savedAt - started)
    this.#countersDirty = false
    await ctx.db.changes
      .where('seq')
      .belowOrEqual(seq - CHANGE_LOG_TAIL)
      .delete()
  }

  /**
   * Forgets the indexes (encryption at rest's `atRest.lock()`: they hold the texts in the clear); the
   * next {@link restore} brings them back from the snapshot or the tables.
   */
  drop(): void {
    this.cancelIdleSnapshot()
    this.#indexes = IndexSet.empty(this.#ctx.keywordOptions, this.#ctx.readyDims())
    this.#lastSeq = 0
    this.#snapshotSeq = 0
  }

  /** Snapshots when anything changed since the last snapshot, counters too (`close()`). */
  async snapshotIfChanged(): Promise<void> {
    if (this.#lastSeq !== this.#snapshotSeq || this.#countersDirty) await this.snapshot()
  }

  /**
   * This engine flushed recall counters, moving the mark from `before` to `after` in the same
   * transaction: the catalogue is still in step with the table only if nobody else moved it.
   * Schedules the idle snapshot: without one, a tab killed after recalls left a saved catalogue
   * behind the mark, and the next open read every row instead (issue 25).
   */
  noteCountersFlushed(before: number, after: number): void {
    this.#counters = before === this.#counters ? after : -1
    this.#countersDirty = true
    // A snapshot builds every index (0.4 s of thread at 10k in Chromium): after each burst of
    // recalls would cost more than the one full read it spares a killed tab, so at most once
    // a minute; and none when another tab moved the mark (-1 spares nothing).
    const since = performance.now() - this.#savedAt
    if (this.#counters >= 0 && since >= COUNTERS_SNAPSHOT_GAP_MS) this.#timer.schedule()
  }

  /**
   * Records seqs this engine wrote, catching up first if another writer slipped in between, then
   * snapshots when enough changed (at least `snapshotEvery` changes and a share of the store,
   * `SNAPSHOT_STORE_SHARE`) once the engine is quiet for {@link QUIET_SNAPSHOT_MS}, or once it
   * is quiet for `IDLE_SNAPSHOT_MS` whatever changed.
   */
  recordWrites(seqs: readonly number[]): void {
    if (seqs.length === 0) return
    const { min, max } = rangeOf(seqs)
    if (min === this.#lastSeq + 1) this.#lastSeq = max
    else this.#housekeep(() => this.replay())
    this.#ctx.emit({ type: 'change', seq: max })
    this.#timer.noteActivity()
    const size = this.#indexes.catalogue.size
    const due = Math.max(this.#ctx.snapshotEvery, Math.floor(size * SNAPSHOT_STORE_SHARE))
    if (this.#lastSeq - this.#snapshotSeq >= due) this.#timer.markDue()
    this.#timer.schedule()
  }

  /** Bumped by every write and recall: background work compares it to find a quiet spell. */
  get activity(): number {
    return this.#timer.activity
  }

  /** A recall ran: a pending snapshot waits for a quiet spell. */
  noteActivity(): void {
    this.#timer.noteActivity()
  }

  /** Cancels the pending idle snapshot (`close()` saves its own). */
  cancelIdleSnapshot(): void {
    this.#timer.cancel()
  }

  /** Counts the stored vectors of a model other than the current one, unless already known. */
  async knowStaleVectors(): Promise<void> {
    if (this.#staleVectors === undefined) await this.countStaleVectors()
  }

  /** Counts the stored vectors of a model other than the current one. */
  async countStaleVectors(): Promise<void> {
    const { db, embedder } = this.#ctx
    const total = await db.vectors.count()
    const current = embedder
      ? await db.vectors.where('model').equals(embedder.model).count()
      : total
    this.#staleVectors = total - current
  }

  /**
   * Takes indexes loaded from a snapshot stamped `seq`, with the catalogue saved beside them when
   * its counters are those of the table (no flush since), else around the rows read now. Refuses
   * (false) a snapshot stamped past the end of the change log: it describes data that is not
   * there. The replay after it and {@link indexesAgree} check the rest.
   */
  async #adopt(indexes: IndexSet, seq: number): Promise<boolean> {
    const { db } = this.#ctx
    const saved = indexes.restoredCounters
    const [last, counters, memories] = await db.transaction(
      'r',
      [db.memories, db.changes, db.snapshots],
      async () => {
        const mark = await readCountersMark(db)
        const current = saved !== undefined && saved >= 0 && saved === mark
        const read = current ? undefined : await db.memories.toArray()
        return [await db.changes.orderBy('seq').last(), mark, read] as const
      },
    )
    if (seq > (last?.seq ?? 0)) return false
    if (memories) indexes.adoptCatalogue(memories)
    this.#counters = counters
    this.#indexes = indexes
    this.#lastSeq = seq
    this.#snapshotSeq = seq
    return true
  }

  /**
   * Queues housekeeping (a catch-up, a snapshot) whose failure no caller waits for: the next
   * write catches up anyway, and a missing snapshot only costs start-up time.
   */
  #housekeep(task: () => Promise<unknown>): void {
    const ctx = this.#ctx
    ctx.track(
      ctx.queue.run(async () => {
        if (ctx.connection.isClosed || !ctx.db.isOpen()) return
        await task()
      }),
    )
  }
}

/**
 * The least and greatest of `seqs`, by a loop: a batch can hold more seqs than a call has room
 * for arguments, and `Math.min(...seqs)` overflowed the stack on a 100k import (issue 11).
 */
function rangeOf(seqs: readonly number[]): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (const seq of seqs) {
    if (seq < min) min = seq
    if (seq > max) max = seq
  }
  return { min, max }
}
