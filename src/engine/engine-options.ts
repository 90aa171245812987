import type { LimitOptions, RetrievalOptions } from '../core/options.ts'
import type { Embedder, MemoryEventListener } from '../core/types.ts'
import type { KeywordIndexOptions } from './keyword-index.ts'

/** How to open a {@link MemoryEngine}. Only `name` is required. */
export interface EngineOptions {
  /** Database name; one IndexedDB database per memory name. */
  name: string
  /** IndexedDB factory. @default globalThis.indexedDB (pass fake-indexeddb's in Node) */
  indexedDB?: IDBFactory
  /** Matching key-range constructor. @default globalThis.IDBKeyRange */
  IDBKeyRange?: typeof IDBKeyRange
  /** Turns text into vectors. Without one, recall is keyword-only (`degraded: 'no-embedding'`). */
  embedder?: Embedder
  retrieval?: Partial<RetrievalOptions>
  limits?: Partial<LimitOptions>
  /** Milliseconds since epoch. Injected so tests can move time. @default Date.now */
  clock?: () => number
  /** Write a fresh index snapshot after this many changes. @default 1000 */
  snapshotEvery?: number
  /** Recall-log entries kept. @default 200 */
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
  /** Most writes coalesced into one transaction. @default 500 */
  writeBatch?: number
}
