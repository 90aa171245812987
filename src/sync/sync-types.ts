/** The shapes the sync steps hand each other, apart from the steps, so no step imports another's. */
import type { MemoryPayload } from './payload.ts'
import type { SealedDoc, Tombstone } from './sync-context.ts'
import type { VersionVector } from './versions.ts'

/** How far each direction has got: the engine's change-log seq, and the mirror's changes seq. */
export interface SyncCursor {
  local: number
  mirror: number
}

/** A remote memory to store: its document id and the payload it resolved to. */
export interface Incoming {
  docId: string
  payload: MemoryPayload
  /** A vector of this device's model, when one was made or brought. */
  vector?: Float32Array
}

/** A version to record in the ledger once the engine has stored it. */
export interface Acceptance {
  docId: string
  vv: VersionVector
  deleted: boolean
  /** Its revision: the one read, unless `writeIndex` names the write that makes it. */
  rev: string
  writeIndex?: number
}

/** Concurrent versions merged, reported as the status's `lastConflict` once stored. */
export interface PlannedConflict {
  docId: string
  outcome: 'merged' | 'forgotten'
  fields: string[]
}

/** What one inbound step does: memories to store and forget, and mirror documents to write. */
export interface InboundPlan {
  puts: Incoming[]
  /** Document ids forgotten. */
  forgets: string[]
  writes: (SealedDoc | Tombstone)[]
  accepts: Acceptance[]
  conflicts: PlannedConflict[]
}
