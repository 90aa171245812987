export type { EngineEnvironment } from '../host/open-engine.ts'
export type {
  EmbedderChoice,
  EmbedderDevice,
  EmbedderDtype,
  MemoryOptions,
  WasmPaths,
  WorkerOpenOptions,
} from '../host/protocol.ts'
export type { ChannelLike, LocksLike } from '../host/tab-sync.ts'
export { type ConnectHooks, connectMemory } from './connect-memory.ts'
export type { MemoryClient, OpenMemoryOptions } from './memory-client.ts'
export { openMemory } from './open-memory.ts'
export { openMemoryInProcess } from './open-memory-in-process.ts'
