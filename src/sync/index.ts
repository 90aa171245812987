export { SyncKeyError, SyncServerError } from './sync-errors.ts'
export { DEFAULT_KDF_ITERATIONS } from './sync-keys.ts'
export type { SyncOptions, SyncStatus } from './sync-options.ts'
export { type SyncHandle, startSync } from './sync-session.ts'
