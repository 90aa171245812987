/**
 * Engram: long-term memory for AI assistants, extensions and web apps, kept entirely in the
 * browser. Three doors here, one {@link MemoryClient} (the `MemoryApi` plus `sync`, events and
 * a hard stop), one defaults table (`DOOR_DEFAULTS`):
 *
 * - {@link openMemory}: a page; spawns the bundled worker.
 * - {@link connectMemory}: a worker or `MessagePort` you created (an extension's offscreen
 *   document, an iframe host), whose far end runs `engram/worker` or `createMemoryHost`.
 * - {@link openMemoryInProcess}: Node, tests and hosts without workers; same options.
 *
 * Two more doors have their own entry: `embedMemory` in `engram/connect` (a memory on another
 * origin), and `MemoryEngine` in `engram/engine` (the engine itself, for hosts that bring their
 * own `Embedder` object, clock or write lock: no events API, no tab sync, no `sync`).
 */

export type {
  ChannelLike,
  ConnectHooks,
  EmbedderChoice,
  EmbedderDevice,
  EmbedderDtype,
  EngineEnvironment,
  LocksLike,
  MemoryClient,
  MemoryOptions,
  OpenMemoryOptions,
  WasmPaths,
  WorkerOpenOptions,
} from './client/index.ts'
export {
  connectMemory,
  openMemory,
  openMemoryInProcess,
} from './client/index.ts'
export type {
  EncryptionCode,
  ErrorData,
  InvalidInputCode,
  SyncStateCode,
} from './core/errors.ts'
export {
  AccessDeniedError,
  EmbedderUnavailableError,
  EncryptionError,
  EngramError,
  ImportFormatError,
  InvalidInputError,
  MemoryClosedError,
  MemoryLockedError,
  MemoryNotFoundError,
  RecallBusyError,
  RejectedMemoryError,
  StorageError,
  StorageFullError,
  SyncKeyError,
  SyncServerError,
  SyncStateError,
  WorkerTerminatedError,
} from './core/errors.ts'
export type {
  BoostOptions,
  LimitOptions,
  RecallDefaults,
  RecallQueueOptions,
  RetrievalOptions,
  SelectOptions,
} from './core/options.ts'
export {
  DEFAULT_BOOSTS,
  DEFAULT_LIMITS,
  DEFAULT_RECALL,
  DEFAULT_RECALL_QUEUE,
  DEFAULT_RETRIEVAL,
  DOOR_DEFAULTS,
} from './core/options.ts'
export { analyseText, screenText } from './core/poison/index.ts'
export { startingSyncStatus } from './core/sync-status.ts'
export type { MentionedTime, TimeWindow, TimeWindowOptions, WindowUnit } from './core/time/index.ts'
export { asksWhen, findTimeWindows, formatWindow, resolveMentionedTime } from './core/time/index.ts'
export type * from './core/types.ts'
export {
  CONFIDENCE_LEVELS,
  DEGRADED_REASONS,
  EMBEDDER_DEVICES,
  FEEDBACK_KINDS,
  LIST_NAMES,
  POISON_POLICIES,
  RECALL_MODES,
  RELATION_KINDS,
  TIERS,
  TRUST_LEVELS,
  VIAS,
} from './core/vocabulary.ts'
export { DEFAULT_MODEL } from './embedder/model-table.ts'
export { NgramEmbedder } from './embedder/ngram-embedder.ts'
export type { KeywordIndexOptions } from './engine/index/keyword-index.ts'
export { createMemoryHost } from './host/memory-host.ts'
