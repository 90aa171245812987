/**
 * The public contract of Engram, types only. The engine implements {@link MemoryApi}; the client
 * is a `Remote<MemoryApi>` over a worker, or the engine itself in process. Each part lives in
 * `contract/`, named for what it describes; this module gathers them so one import serves all.
 */

export type * from './contract/api.ts'
export type * from './contract/embedder.ts'
export type * from './contract/encryption.ts'
export type * from './contract/events.ts'
export type * from './contract/inspect.ts'
export type * from './contract/memory.ts'
export type * from './contract/pages.ts'
export type * from './contract/recall.ts'
export type * from './contract/review.ts'
export type * from './contract/sync.ts'
export type * from './contract/transfer.ts'
export type * from './contract/write.ts'
