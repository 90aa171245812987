/**
 * The shapes every benchmark part shares: what a system must do, what the environment (Node or
 * a Chromium worker) supplies, and what a run reports. No Node or DOM imports here: the same
 * suite runs in both.
 */
import type { PGlite } from '@electric-sql/pglite'

export type Mode = 'keyword' | 'vector' | 'hybrid'
export const MODES: readonly Mode[] = ['keyword', 'vector', 'hybrid']

/** One memory to store: `id` is its index in the corpus. */
export interface Doc {
  id: number
  text: string
  /** Unit length, 384 dims. Each system gets its own copy. */
  vector: Float32Array
}

export interface Query {
  text: string
  vector: Float32Array
}

/** What a system is given to work with. */
export interface SystemEnv {
  indexedDB: IDBFactory
  IDBKeyRange: typeof IDBKeyRange
  /** Opens (creating from the template when `fresh`) a PGlite with pgvector called `name`. */
  openPGlite(name: string, fresh: boolean): Promise<PGlite>
  /** Bytes PGlite keeps for `name` on disk, when the environment can tell. */
  pgliteBytes?(name: string): Promise<number | undefined>
  dropPGlite(name: string): Promise<void>
}

/**
 * One system under test. Ids are corpus indexes, so every system's answers can be compared with
 * the exact scan.
 */
export interface BenchSystem {
  /** Stable key: `engram`, `orama`, `minisearch`, `entitydb-scan`, `pglite`. */
  readonly key: string
  readonly modes: readonly Mode[]
  /** Creates an empty store. */
  create(): Promise<void>
  /** Stores every doc, vectors included, durably where the system persists at all. */
  importAll(docs: Doc[]): Promise<ImportNote | undefined>
  /** One write of a new memory, as an app would do it after the import. */
  remember(doc: Doc): Promise<void>
  /** Top-10 corpus ids for `query` in `mode`. */
  recall(query: Query, mode: Mode): Promise<number[]>
  /** Top-10 by the vector leg alone, exact-scan comparable (no boosts). */
  vectorTop10?(query: Query): Promise<number[]>
  /** Closes the store, keeping what it stored (for the cold-start measure). */
  close(): Promise<void>
  /** Opens the stored store again; cold start is this plus the first hybrid answer. */
  open(): Promise<void>
  /** Bytes stored, and the saved index image if there is one. */
  storage(): Promise<{ storedBytes?: number; snapshotBytes?: number }>
  /** Closes and deletes everything it stored. */
  destroy(): Promise<void>
  /** Engram: the parts of a cold start, timed apart (ms). */
  coldStartParts?(): Promise<Record<string, number>>
  /** Things the import could not do (Orama's save over IndexedDB's value limit). */
  readonly warnings?: readonly string[]
}

/** Something the import did not do as the system would on its own (sampled, extrapolated). */
export interface ImportNote {
  /** Docs actually timed; the rest were loaded another way and the time extrapolated. */
  timedDocs: number
  /** Time the timed docs took. */
  timedMs: number
  note: string
}

export interface Latency {
  p50: number
  p99: number
  /** Samples behind the figures (fewer when a slow system hit its time budget). */
  n: number
}

export interface SystemResult {
  system: string
  size: number
  /**
   * `ms` is the whole import, or `size / perSecond` when only part was timed (`partial` says
   * how).
   */
  import?: { ms: number; perSecond: number; partial?: string }
  remember?: Latency
  recall: Partial<Record<Mode, Latency>>
  coldStart?: { ms: number; runs: number; parts?: Record<string, number> }
  /** Mean overlap of the vector leg's top 10 with the exact float32 scan's. */
  recallAt10?: number
  storedBytes?: number
  snapshotBytes?: number
  /** Heap growth after import (gc'd), in bytes; what that includes depends on the runtime. */
  heapBytes?: number
  /** Engram only: bytes the vector index holds (typed arrays and WebAssembly memory). */
  vectorIndexBytes?: number
  /** The import failed: nothing else was measured. */
  error?: string
  /** Measures that failed or were degraded, one line each. */
  notes?: string[]
  /** How long this system took at this size, all measures included. */
  wallMs?: number
}

export interface RunResult {
  runtime: 'node' | 'chromium'
  machine: string
  startedAt: string
  sizes: number[]
  queries: number
  results: SystemResult[]
  corpus: { msc: number; locomo: number; combined: number }
  wallMs: number
}
