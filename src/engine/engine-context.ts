import { type EngramError, MemoryClosedError } from '../core/errors.ts'
import {
  DEFAULT_LIMITS,
  DEFAULT_RECALL_LOG_SIZE,
  DEFAULT_RETRIEVAL,
  DEFAULT_SNAPSHOT_EVERY,
  DEFAULT_WRITE_BATCH,
  type LimitOptions,
  type RetrievalOptions,
} from '../core/options.ts'
import type { Embedder, MemoryEvent } from '../core/types.ts'
import {
  type EngramDatabase,
  isConstraintError,
  mapStorageError,
  writeLockName,
} from '../storage/index.ts'
import type { EngineOptions } from './engine-options.ts'
import { IndexSet } from './index-set.ts'
import type { KeywordIndexOptions } from './keyword-index.ts'
import { optionsHash } from './snapshot.ts'
import { WriteQueue } from './write-queue.ts'

/** Runs `task` while holding this database's cross-tab write lock. */
export type Lock = <T>(task: () => Promise<T>) => Promise<T>

/** Cross-tab write lock: a Web Lock per database where the host has them. */
function defaultLock(name: string): Lock {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
  if (!locks) return (task) => task()
  return (task) => locks.request(writeLockName(name), task)
}

/**
 * What the engine's modules share: the resolved options, the database, the derived indexes and
 * the bookkeeping that says how far those indexes have caught up with the change log. One per
 * {@link MemoryEngine}; the modules under `src/engine/` take it explicitly instead of reaching
 * into the engine.
 */
export class EngineContext {
  readonly name: string
  readonly db: EngramDatabase
  readonly embedder: Embedder | undefined
  readonly retrieval: RetrievalOptions
  readonly limits: LimitOptions
  readonly keywordOptions: Partial<KeywordIndexOptions>
  readonly optionsHash: string
  readonly clock: () => number
  readonly snapshotEvery: number
  readonly recallLogSize: number
  readonly writeBatch: number
  readonly lock: Lock
  /** Every write, catch-up and housekeeping task runs through this, one at a time. */
  readonly queue = new WriteQueue()
  /** Derived from the tables; replaced wholesale by a rebuild or a snapshot restore. */
  indexes: IndexSet
  /** Last change-log seq the indexes reflect. */
  lastSeq = 0
  /** Seq of the last snapshot saved or loaded; -1 after a failed save. */
  snapshotSeq = 0
  /** Timer of the snapshot that runs once writes pause. */
  idleSnapshot: ReturnType<typeof setTimeout> | undefined = undefined
  /** Stored vectors from a model other than the current one (re-embedding pending). */
  staleVectors = 0
  /** Rebuilds so far, so a caller can tell whether a replay fell back to one. */
  rebuilds = 0
  /** Set once the memory is closed for good; thrown by every later call. */
  closed: MemoryClosedError | null = null
  /** `close()` ran (or is running). */
  disposed = false
  /** A reopen after a lost connection, shared by the calls that find it lost. */
  reopening: Promise<void> | null = null
  readonly #onEvent: ((event: MemoryEvent) => void) | undefined
  readonly #background = new Set<Promise<unknown>>()

  constructor(options: EngineOptions, db: EngramDatabase) {
    this.name = options.name
    this.db = db
    this.embedder = options.embedder
    this.retrieval = {
      ...DEFAULT_RETRIEVAL,
      ...options.retrieval,
      boosts: { ...DEFAULT_RETRIEVAL.boosts, ...options.retrieval?.boosts },
    }
    this.limits = { ...DEFAULT_LIMITS, ...options.limits }
    this.keywordOptions = options.keyword ?? {}
    this.optionsHash = optionsHash(this.keywordOptions)
    this.clock = options.clock ?? Date.now
    this.snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY
    this.recallLogSize = options.recallLogSize ?? DEFAULT_RECALL_LOG_SIZE
    this.#onEvent = options.onEvent
    this.lock = options.writeLock ?? defaultLock(options.name)
    this.indexes = IndexSet.empty(this.keywordOptions, this.readyDims())
    this.writeBatch = options.writeBatch ?? DEFAULT_WRITE_BATCH
  }

  assertOpen(): void {
    if (this.closed) throw this.closed
  }

  /** Vector dimensions of the embedder once it is ready; 0 before (or without one). */
  readyDims(): number {
    return this.embedder && this.embedder.state === 'ready' ? this.embedder.dims : 0
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
    if (this.closed) return this.closed
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

  /** One read-write transaction over the memories, vectors and change log. */
  async transact<T>(body: () => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(
        'rw',
        this.db.memories,
        this.db.vectors,
        this.db.changes,
        body,
      )
    } catch (error) {
      // Keep the raw error for the batch writer: a unique-key failure there is a race, not a fault.
      if (isConstraintError(error)) throw error
      throw this.mapError(error)
    }
  }
}
