/**
 * `engram/sync`: the replicator behind `memory.sync.start()` (PouchDB to a CouchDB-protocol server,
 * sealed documents). `openMemory`, `openMemoryInProcess` and `createMemoryHost` plug it in by
 * themselves; an engine opened with `MemoryEngine.open` takes it with `engine.useSync(startSync)`,
 * or is synced directly with `startSync(engine, options)` (which also takes a `mirror`).
 */
export {
  SyncKeycheckError,
  SyncKeyError,
  SyncServerError,
  SyncStateError,
} from '../core/errors.ts'
export type {
  SyncConflict,
  SyncHandle,
  SyncListener,
  SyncOptions,
  SyncRefusal,
  SyncState,
  SyncStatus,
} from '../core/types.ts'
export { DEFAULT_KDF_ITERATIONS } from './sync-keys.ts'
export type { StartSyncOptions } from './sync-options.ts'
export { startSync } from './sync-session.ts'
