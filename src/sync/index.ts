/**
 * `engram/sync`: the replicator behind `memory.sync.start()` (PouchDB to a CouchDB-protocol
 * server, sealed documents). The client doors' sync extension (`host/sync-extension.ts`) loads
 * it by itself; an engine opened with `MemoryEngine.open` is synced directly with
 * `startSync(engine, options)` (which also takes a `mirror`).
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
