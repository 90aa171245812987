/**
 * `engram/engine`: the engine itself, for hosts that bring their own `Embedder` object, clock
 * or write lock (evaluation, benchmarks, Node scripts). No events API, no tab sync and no
 * `memory.sync` (sync an engine with `startSync(engine, options)` from `engram/sync`); the same
 * `MemoryApi` and the same defaults (`DOOR_DEFAULTS`) as the doors of `engram`.
 *
 * @example
 * import { MemoryEngine } from 'engram/engine'
 * const memory = await MemoryEngine.open({ name: 'bench', indexedDB, IDBKeyRange })
 * await memory.inspect.stats() // => { memories: 0, vectors: 0, … }
 */
export { DOOR_DEFAULTS } from '../core/options.ts'
export type { AutoReviewOptions, EngineOptions } from './engine-options.ts'
export type { KeywordIndexOptions } from './index/keyword-index.ts'
export { MemoryEngine } from './memory-engine.ts'
