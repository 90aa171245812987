/**
 * Engram: long-term memory for AI assistants, extensions and web apps, kept entirely in the
 * browser. Start with {@link openMemory} (a worker) or {@link openMemoryInProcess} (Node, or
 * hosts without workers).
 */

export type {
  EmbedderChoice,
  MemoryClient,
  OpenMemoryOptions,
  WasmPaths,
  WorkerOpenOptions,
} from './client/index.ts'
export {
  connectMemory,
  openMemory,
  openMemoryInProcess,
} from './client/index.ts'
export type { InvalidInputCode } from './core/errors.ts'
export {
  EmbedderUnavailableError,
  EngramError,
  ImportFormatError,
  InvalidInputError,
  MemoryClosedError,
  MemoryNotFoundError,
  RejectedMemoryError,
  reviveError,
  StorageError,
  StorageFullError,
  WorkerTerminatedError,
} from './core/errors.ts'
export type { BoostOptions, LimitOptions, RetrievalOptions } from './core/options.ts'
export {
  DEFAULT_BOOSTS,
  DEFAULT_LIMITS,
  DEFAULT_RETRIEVAL,
} from './core/options.ts'
export type * from './core/types.ts'
export { NgramEmbedder } from './embedder/ngram-embedder.ts'
export type { EngineOptions } from './engine/engine-options.ts'
export { MemoryEngine } from './engine/memory-engine.ts'
