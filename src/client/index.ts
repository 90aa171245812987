export type {
  EmbedderChoice,
  EmbedderDevice,
  WasmPaths,
  WorkerOpenOptions,
} from '../worker/protocol.ts'
export { type ConnectHooks, connectMemory } from './connect-memory.ts'
export type { MemoryClient, OpenMemoryOptions } from './memory-client.ts'
export { openMemory } from './open-memory.ts'
export { openMemoryInProcess } from './open-memory-in-process.ts'
