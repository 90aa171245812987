import { Dexie, type Table } from 'dexie'
import type { RecallLogEntry } from '../core/types.ts'
import { AtRestState } from './at-rest/at-rest-state.ts'
import { atRestMiddleware } from './at-rest/middleware.ts'
import { upgradeToLifecycle } from './migrations.ts'
import type { ChangeRow, MemoryRow, MetaRow, RelationRow, SnapshotRow, VectorRow } from './rows.ts'

/** The current schema version. Bump it with a new `version(n).stores(...)` below, never edit one. */
export const SCHEMA_VERSION = 3

/** Where IndexedDB comes from: the browser's own, or fake-indexeddb in Node. */
export interface DatabaseEnvironment {
  indexedDB?: IDBFactory
  IDBKeyRange?: typeof IDBKeyRange
}

/**
 * The Dexie schema of one memory (docs/architecture.md §5). `memories` is the source of truth;
 * `vectors`,
 * `changes` and `snapshots` exist to rebuild and to sync the derived indexes.
 */
export class EngramDatabase extends Dexie {
  declare memories: Table<MemoryRow, string>
  declare vectors: Table<VectorRow, string>
  declare changes: Table<ChangeRow, number>
  declare snapshots: Table<SnapshotRow, string>
  declare recalls: Table<RecallLogEntry, number>
  declare meta: Table<MetaRow, string>
  declare relations: Table<RelationRow, [string, string, string]>
  /** Encryption at rest: plain until `openAtRest` finds or sets up a key (`at-rest/`). */
  readonly atRest = new AtRestState()

  constructor(name: string, environment: DatabaseEnvironment = {}) {
    const { indexedDB, IDBKeyRange } = environment
    super(`engram:${name}`, {
      ...(indexedDB ? { indexedDB } : {}),
      ...(IDBKeyRange ? { IDBKeyRange } : {}),
      // A schema upgrade in another tab must not hang this one: Dexie closes this connection
      // on `versionchange` and the engine turns later calls into MemoryClosedError.
      autoOpen: true,
    })
    this.version(1).stores({
      // The unique compound index is what makes exact dedup hold even across tabs.
      memories: 'id, &[namespace+type+key], [namespace+type], namespace, *tags, pageId',
      vectors: 'id, model',
      changes: '++seq, id',
      snapshots: 'name',
      recalls: '++id, at',
      meta: 'key',
    })
    // Version 2 (issue 14): relations between memories, and every memory given a tier and a
    // numeric confidence.
    this.version(2)
      .stores({ relations: '[from+to+kind], from, to' })
      .upgrade((tx) => upgradeToLifecycle(tx.table('memories')))
    // Version 3 (seal format 2 of encryption at rest) changes no table: it makes a tab still
    // running an older Engram close on `versionchange`, where it would go on writing format-1
    // rows that this version refuses. It does not stop older code opening the memory afresh:
    // Dexie 4 opens a database at a higher version than it declares.
    this.version(3).stores({})
    this.use(atRestMiddleware(this.atRest))
  }
}
