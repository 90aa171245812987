import type { SyncStatus } from './contract/sync.ts'

/** A sync's status before its first pass: nothing moved, nothing refused. */
export function startingSyncStatus(): SyncStatus {
  return {
    state: 'starting',
    pushed: 0,
    pulled: 0,
    applied: 0,
    conflicts: 0,
    nearDuplicates: 0,
    refused: { tampered: 0, rollback: 0, deletion: 0, oversized: 0 },
    repaired: 0,
  }
}
