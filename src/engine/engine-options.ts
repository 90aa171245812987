import { InvalidInputError } from '../core/errors.ts'
import type { LimitOptions, RetrievalOptions } from '../core/options.ts'
import type { Embedder, MemoryEventListener } from '../core/types.ts'
import type { EngramDatabase } from '../storage/index.ts'
import type { KeywordIndexOptions } from './keyword-index.ts'
import { describe } from './prepare.ts'

/** How to open a {@link MemoryEngine}. Only `name` is required. */
export interface EngineOptions {
  /** Database name; one IndexedDB database per memory name. */
  name: string
  /** IndexedDB factory. @default globalThis.indexedDB (pass fake-indexeddb's in Node) */
  indexedDB?: IDBFactory
  /** Matching key-range constructor. @default globalThis.IDBKeyRange */
  IDBKeyRange?: typeof IDBKeyRange
  /** Turns text into vectors. Without one, recall is keyword-only (`degraded: 'no-embedder'`). */
  embedder?: Embedder
  retrieval?: Partial<RetrievalOptions>
  limits?: Partial<LimitOptions>
  /** Milliseconds since epoch. Injected so tests can move time. @default Date.now */
  clock?: () => number
  /** Write a fresh index snapshot after this many changes. A positive integer. @default 1000 */
  snapshotEvery?: number
  /** Recall-log entries kept, 1..1000000. @default 200 */
  recallLogSize?: number
  /** Progress and change notices. */
  onEvent?: MemoryEventListener
  /** BM25 tuning (field boosts, prefix/fuzzy, BM25 parameters). */
  keyword?: Partial<KeywordIndexOptions>
  /**
   * Serialises writers across tabs: runs `task` while holding an exclusive lock for this
   * database. @default a Web Lock (`navigator.locks`) where available, else none
   */
  writeLock?: <T>(task: () => Promise<T>) => Promise<T>
  /**
   * Most `remember` calls coalesced into one transaction, and import lines per transaction when
   * `importMemories` is not told. Range 1..10000. @default 500
   */
  writeBatch?: number
  /**
   * For tests and instrumentation only: called once with the Dexie database before it first
   * opens, so a test can install DBCore middleware (`db.use({ stack: 'dbcore', ... })`) to count
   * transactions or inject faults, or keep the handle to close the connection underneath the
   * engine. The engine reuses this same instance when it reopens. Leave it out in products.
   *
   * @example
   * let writes = 0
   * const onDatabase = (db) => db.use({ stack: 'dbcore', name: 'count', create: (down) => ({
   *   ...down,
   *   table: (name) => {
   *     const table = down.table(name)
   *     return { ...table, mutate: (req) => (writes++, table.mutate(req)) }
   *   },
   * }) })
   * await (await MemoryEngine.open({ name: 'm', onDatabase })).remember('hello')
   * writes // => 3 (memories, vectors, changes)
   */
  onDatabase?: (db: EngramDatabase) => void
}

function positiveInteger(value: unknown, field: string, max: number): void {
  if (value === undefined) return
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected an integer from 1 to ${max}, got ${describe(value)}`,
    )
  }
}

/**
 * Checks the options whose wrong type would otherwise surface late, as a hang or a loop
 * (`writeBatch: 0` never drains the write queue).
 *
 * @throws InvalidInputError `BAD_OPTION`.
 */
export function checkEngineOptions(options: EngineOptions): void {
  if (!options || typeof options !== 'object' || typeof options.name !== 'string') {
    throw new InvalidInputError('BAD_OPTION', 'name', 'expected a non-empty memory name')
  }
  if (options.name === '') {
    throw new InvalidInputError('BAD_OPTION', 'name', 'expected a non-empty memory name')
  }
  positiveInteger(options.writeBatch, 'writeBatch', 10_000)
  positiveInteger(options.snapshotEvery, 'snapshotEvery', Number.MAX_SAFE_INTEGER)
  positiveInteger(options.recallLogSize, 'recallLogSize', 1_000_000)
  for (const name of ['clock', 'onEvent', 'writeLock', 'onDatabase'] as const) {
    const value = options[name]
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidInputError('BAD_OPTION', name, `expected a function, got ${describe(value)}`)
    }
  }
}
