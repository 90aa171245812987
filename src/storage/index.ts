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
