import { EngramError, MemoryClosedError, StorageError, StorageFullError } from '../core/errors.ts'

/** Names IndexedDB and Dexie use for a closed or vanished connection. */
const CLOSED_NAMES = new Set(['DatabaseClosedError', 'InvalidStateError', 'VersionChangeError'])

/**
 * Translates whatever Dexie or IndexedDB threw into the catalogue. Quota errors often arrive
 * wrapped (AbortError whose `inner` is the QuotaExceededError), so the chain is walked.
 */
export function mapStorageError(error: unknown): EngramError {
  if (error instanceof EngramError) return error
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const name = (e as { name?: string }).name
    if (name === 'QuotaExceededError') return new StorageFullError(undefined, { cause: error })
    if (name && CLOSED_NAMES.has(name)) {
      return new MemoryClosedError(`database connection closed (${name})`, { cause: error })
    }
    e = (e as { inner?: unknown; cause?: unknown }).inner ?? (e as { cause?: unknown }).cause
  }
  const message = error instanceof Error ? error.message : String(error)
  return new StorageError(message, { cause: error })
}

/**
 * Whether a write failed on a unique key (`ConstraintError`), directly or inside Dexie's
 * `BulkError`: the sign that another writer stored the same memory first.
 */
export function isConstraintError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const { name, failures } = e as { name?: string; failures?: unknown }
    if (name === 'ConstraintError') return true
    if (name === 'BulkError' && Array.isArray(failures)) {
      return failures.some((f) => (f as { name?: string } | undefined)?.name === 'ConstraintError')
    }
    e = (e as { inner?: unknown; cause?: unknown }).inner ?? (e as { cause?: unknown }).cause
  }
  return false
}
