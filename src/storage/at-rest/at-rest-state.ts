import { MemoryLockedError } from '../../core/errors.ts'
import { type AtRestKeys, forgetKeys } from './cipher.ts'

/**
 * Whether this connection's rows are encrypted and, if so, whether the keys are held: the one
 * switch the storage middleware reads on every request. Plain (the default) passes rows through;
 * encrypted and locked refuses every read and write of a sealed table.
 */
export class AtRestState {
  #encrypted = false
  #keys: AtRestKeys | null = null

  /** The memory is encrypted at rest (whether or not it is unlocked now). */
  get encrypted(): boolean {
    return this.#encrypted
  }

  get locked(): boolean {
    return this.#encrypted && this.#keys === null
  }

  /** The keys while unlocked; throws `MemoryLockedError` while locked. Null when plain. */
  keys(): AtRestKeys | null {
    if (this.locked) throw new MemoryLockedError()
    return this.#keys
  }

  /** Holds `keys` (already checked against the key-check value): reads and writes seal again. */
  unlock(keys: AtRestKeys): void {
    this.#encrypted = true
    this.#keys = keys
  }

  /** Drops the keys: until {@link unlock}, sealed tables refuse every request. */
  lock(): void {
    if (!this.#keys) return
    forgetKeys(this.#keys)
    // Wiped, not only dropped: the arrays may outlive this reference in a closure somewhere.
    this.#keys.seal.fill(0)
    this.#keys.mac.fill(0)
    this.#keys = null
  }
}
