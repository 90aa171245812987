import type { Table } from 'dexie'
import { monotonicFactory } from 'ulidx'
import type { EngramError } from '../core/errors.ts'
import { MemoryClosedError } from '../core/errors.ts'
import {
  DEFAULT_LIFECYCLE,
  DEFAULT_LIMITS,
  DEFAULT_RECALL_LOG_SIZE,
  DEFAULT_RETRIEVAL,
  DEFAULT_SNAPSHOT_EVERY,
  DEFAULT_WRITE_BATCH,
  type LifecycleOptions,
  type LimitOptions,
  type RecallDefaults,
  type RetrievalOptions,
} from '../core/options.ts'
import type { Embedder, MemoryEvent } from '../core/types.ts'
import { nearDuplicateFor } from '../embedder/model-table.ts'
import {
  type EngramDatabase,
  isConstraintError,
  mapStorageError,
  writeLockName,
} from '../storage/index.ts'
import { ConnectionState } from './connection-state.ts'
import type { EngineOptions } from './engine-options.ts'
import type { IndexSet } from './index/index-set.ts'
import type { KeywordIndexOptions } from './index/keyword-index.ts'
import { optionsHash } from './index/snapshot.ts'
import { IndexUpkeep } from './index/upkeep.ts'
import type { VectorBlocker } from './recall/vector-list.ts'
import { WriteQueue } from './write/queue.ts'

/** Runs `task` while holding this database's cross-tab write lock. */
export type Lock = <T>(task: () => Promise<T>) => Promise<T>

/** Cross-tab write lock: a Web Lock per database where the host has them. */
function defaultLock(name: string): Lock {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
  if (!locks) return (task) => task()
  return (task) => locks.request(writeLockName(name), task)
}

/**
 * What the engine's modules share: the resolved options, the database, the write queue, and the
 * two pieces of state, each behind its owner's methods: {@link IndexUpkeep} (the indexes and how
 * far they have caught up with the change log) and {@link ConnectionState} (open, closing,
 * closed). One per {@link MemoryEngine}; the modules under `src/engine/` take it explicitly
 * instead of reaching into the engine.
 */
export class EngineContext {
  readonly name: string
  readonly db: EngramDatabase
  readonly embedder: Embedder | undefined
  readonly retrieval: RetrievalOptions
  /** `EngineOptions.recallDefaults`, merged under each recall's options. */
  readonly recallDefaults: RecallDefaults
  readonly limits: LimitOptions
  readonly lifecycle: LifecycleOptions
  readonly keywordOptions: Partial<KeywordIndexOptions>
  readonly optionsHash: string
  readonly clock: () => number
  /**
   * Ids of new memories and pages: one monotonic ULID factory per engine, so ids made in one
   * millisecond still sort in the order they were made (the review walks ids in order).
   */
  readonly newId: () => string
  readonly snapshotEvery: number
  readonly recallLogSize: number
  readonly writeBatch: number
  readonly lock: Lock
  /** Every write, catch-up and housekeeping task runs through this, one at a time. */
  readonly queue = new WriteQueue()
  readonly connection = new ConnectionState()
  readonly upkeep: IndexUpkeep
  readonly #onEvent: ((event: MemoryEvent) => void) | undefined
  #backfill: (() => void) | undefined
  readonly #background = new Set<Promise<unknown>>()

  constructor(options: EngineOptions, db: EngramDatabase) {
    this.name = options.name
    this.db = db
    this.embedder = options.embedder
    this.retrieval = {
      ...DEFAULT_RETRIEVAL,
      // The near-duplicate cosine belongs to the model (issue 13 §5); the caller's value wins.
      nearDuplicate: nearDuplicateFor(options.embedder?.model, DEFAULT_RETRIEVAL.nearDuplicate),
      ...options.retrieval,
    }
    this.recallDefaults = options.recallDefaults ?? {}
    this.limits = { ...DEFAULT_LIMITS, ...options.limits }
    const l = options.lifecycle
    this.lifecycle = {
      ...DEFAULT_LIFECYCLE,
      ...l,
      ttlDays: { ...DEFAULT_LIFECYCLE.ttlDays, ...l?.ttlDays },
      tierByType: { ...DEFAULT_LIFECYCLE.tierByType, ...l?.tierByType },
      sourceConfidence: { ...DEFAULT_LIFECYCLE.sourceConfidence, ...l?.sourceConfidence },
    }
    this.keywordOptions = options.keyword ?? {}
    this.optionsHash = optionsHash(this.keywordOptions)
    this.clock = options.clock ?? Date.now
    this.newId = options.newId ?? monotonicFactory()
    this.snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY
    this.recallLogSize = options.recallLogSize ?? DEFAULT_RECALL_LOG_SIZE
    this.writeBatch = options.writeBatch ?? DEFAULT_WRITE_BATCH
    this.#onEvent = options.onEvent
    this.lock = options.writeLock ?? defaultLock(options.name)
    this.upkeep = new IndexUpkeep(this)
  }

  /** The derived indexes as they stand now (see {@link IndexUpkeep.indexes}). */
  get indexes(): IndexSet {
    return this.upkeep.indexes
  }

  assertOpen(): void {
    this.connection.assertOpen()
  }

  /** Vector dimensions of the embedder once it is ready; 0 before (or without one). */
  readyDims(): number {
    return this.embedder && this.embedder.state === 'ready' ? this.embedder.dims : 0
  }

  /** Why recall cannot use vectors right now, or null when it can. */
  vectorBlocker(): VectorBlocker {
    const e = this.embedder
    if (!e) return 'no-embedder'
    if (e.state === 'failed') return 'failed'
    if (e.state !== 'ready' || !this.indexes.vectors) return 'loading'
    if (this.upkeep.reembedding) return 'reembedding'
    return null
  }

  /** Names the backfill a write starts when it stored memories without a vector. */
  useBackfill(schedule: () => void): void {
    this.#backfill = schedule
  }

  /** Starts the backfill (see {@link useBackfill}); nothing before one is named. */
  scheduleBackfill(): void {
    this.#backfill?.()
  }

  emit(event: MemoryEvent): void {
    try {
      this.#onEvent?.(event)
    } catch {
      // A listener's failure must not break the write that announced it.
    }
  }

  /** Keeps a background task (a log write, a backfill) so `close()` and log reads can wait for it. */
  track(promise: Promise<unknown>): void {
    const tracked = promise.catch(() => {}).finally(() => this.#background.delete(tracked))
    this.#background.add(tracked)
  }

  /** Resolves once every background task tracked so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#background])
  }

  /** Translates a storage failure; a connection lost underneath says the next call reopens. */
  mapError(error: unknown): EngramError {
    const mapped = mapStorageError(error)
    if (!(mapped instanceof MemoryClosedError)) return mapped
    const closed = this.connection.closedError
    if (closed) return closed
    return new MemoryClosedError(
      'the database connection closed during this call; the next call reopens it',
      { cause: error },
    )
  }

  mapped<T>(promise: Promise<T>): Promise<T> {
    return promise.catch((error: unknown) => {
      throw this.mapError(error)
    })
  }

  /**
   * One read-write transaction over the memories, vectors, change log and relations (an edge
   * goes with either end in the same transaction), and the `extra` tables a write names (the
   * review's progress mark in `meta`).
   */
  async transact<T>(body: () => Promise<T>, extra: readonly Table[] = []): Promise<T> {
    const { db } = this
    try {
      return await db.transaction(
        'rw',
        [db.memories, db.vectors, db.changes, db.relations, ...extra],
        body,
      )
    } catch (error) {
      // Keep the raw error for the batch writer: a unique-key failure there is a race, not a fault.
      if (isConstraintError(error)) throw error
      throw this.mapError(error)
    }
  }
}
