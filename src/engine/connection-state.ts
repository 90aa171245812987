import { MemoryClosedError, MemoryLockedError } from '../core/errors.ts'
import { IndexHealth } from './index/health.ts'

/**
 * Whether the memory may still be used: open; closing (`close()` has begun: background work
 * stops, queued writes still finish); or closed for good (every call throws the reason). Also
 * the one reopen shared by the calls that find a connection lost underneath them, and whether
 * the indexes came back with it ({@link IndexHealth}: a memory whose indexes failed to restore
 * stays open on its tables).
 */
export class ConnectionState {
  /** Whether the derived indexes are usable; failed after a restore that threw. */
  readonly indexHealth = new IndexHealth()
  #closed: MemoryClosedError | null = null
  #closing = false
  #locked: MemoryLockedError | null = null
  #reopening: Promise<void> | null = null

  /** Closed for good: by `close()`, or by a schema upgrade or deletion elsewhere. */
  get isClosed(): boolean {
    return this.#closed !== null
  }

  /** Closed, or `close()` has begun: background work (backfill, idle snapshots) should stop. */
  get isWindingDown(): boolean {
    return this.#closing || this.#closed !== null
  }

  /** The error every call gets once closed for good, else null. */
  get closedError(): MemoryClosedError | null {
    return this.#closed
  }

  /** Locked (encryption at rest, `atRest.lock()`): calls throw `MemoryLockedError` until unlocked. */
  get isLocked(): boolean {
    return this.#locked !== null
  }

  setLocked(locked: boolean): void {
    this.#locked = locked ? new MemoryLockedError() : null
  }

  /** Throws {@link closedError} once closed for good, `MemoryLockedError` while locked. */
  assertOpen(): void {
    if (this.#closed) throw this.#closed
    if (this.#locked) throw this.#locked
  }

  /** Closes for good, saying why; false when it already was (the caller then does nothing). */
  closeForGood(reason: string): boolean {
    if (this.#closed) return false
    this.#closed = new MemoryClosedError(reason)
    return true
  }

  /** Marks `close()` as begun; false when it already had, so a second `close()` returns at once. */
  beginClose(): boolean {
    if (this.#closing) return false
    this.#closing = true
    return true
  }

  /** The end of `close()`: closed for good, unless something closed it for good first. */
  finishClose(): void {
    this.#closed ??= new MemoryClosedError()
  }

  /** Runs `reopen` unless a reopen is already under way, and waits for that one. */
  reopen(reopen: () => Promise<void>): Promise<void> {
    this.#reopening ??= reopen().finally(() => {
      this.#reopening = null
    })
    return this.#reopening
  }
}
