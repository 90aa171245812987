export {
  AT_REST_META_KEY,
  AtRestState,
  checkAtRestSecret,
  DEFAULT_KDF_ITERATIONS,
  openAtRest,
  passphraseKey,
  SEALED_FIELD,
  storedKeys,
  unlockKeys,
} from './at-rest/index.ts'
export type { DatabaseEnvironment } from './database.ts'
export { EngramDatabase, SCHEMA_VERSION } from './database.ts'
export { isConstraintError, mapStorageError } from './map-error.ts'
export { syncChannelName, writeLockName } from './names.ts'
export type {
  ChangeRow,
  MemoryRow,
  MetaRow,
  RelationRow,
  SnapshotRow,
  VectorRow,
} from './rows.ts'
