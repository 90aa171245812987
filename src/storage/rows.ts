import type { Memory, RelationKind } from '../core/types.ts'

/** A memory's embedding. Written in the same transaction as its memory. */
export interface VectorRow {
  id: string
  /** The model that made it: vectors of different models are never compared. */
  model: string
  dims: number
  /** Unit length. */
  vector: Float32Array
}

/** One entry of the append-only change log: the spine of crash recovery and multi-tab sync. */
export interface ChangeRow {
  seq?: number
  op: 'put' | 'delete'
  id: string
  at: number
}

/**
 * Derived indexes saved as structured-clone objects (not JSON), stamped with what they cover.
 * Any mismatch on load means a rebuild, never a silent load.
 */
export interface SnapshotRow {
  name: string
  version: number
  /** The last change `seq` the snapshot includes. */
  seq: number
  optionsHash: string
  model: string | null
  count: number
  createdAt: number
  data: unknown
}

export interface MetaRow {
  key: string
  value: unknown
}

export type MemoryRow = Memory

/** An edge between two memories; removed with either end. One per `from`, `to` and `kind`. */
export interface RelationRow {
  from: string
  to: string
  kind: RelationKind
  createdAt: number
}
