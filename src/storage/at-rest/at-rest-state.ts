import type { UnreadableRow } from '../../core/contract/encryption.ts'
import { MemoryLockedError } from '../../core/errors.ts'
import { type AtRestKeys, forgetKeys } from './cipher.ts'
import { SEAL_FORMAT, type SealFormat } from './row-seal.ts'

/**
 * Whether this connection's rows are encrypted and, if so, whether the keys are held: the one
 * switch the storage middleware reads on every request. Plain (the default) passes rows through;
 * encrypted and locked refuses every read and write of a sealed table.
 *
 * It also keeps the rows the middleware refused (they did not open) since this connection
 * opened, minus those written or deleted since: what `inspect.stats()` reports without reading a row.
 */
export class AtRestState {
  #encrypted = false
  #keys: AtRestKeys | null = null
  #format: SealFormat = SEAL_FORMAT
  /** Table → primary key (as JSON) → the key itself. */
  #refused = new Map<string, Map<string, string | number>>()
  /** IndexedDB transactions whose keys-only reads answer every stored key (`stored-keys.ts`). */
  #storedKeys = new WeakMap<object, number>()

  /** The memory is encrypted at rest (whether or not it is unlocked now). */
  get encrypted(): boolean {
    return this.#encrypted
  }

  get locked(): boolean {
    return this.#encrypted && this.#keys === null
  }

  /** The seal format rows are opened as: the current one, but while a memory is resealed. */
  get format(): SealFormat {
    return this.#format
  }

  /** The keys while unlocked; throws `MemoryLockedError` while locked. Null when plain. */
  keys(): AtRestKeys | null {
    if (this.locked) throw new MemoryLockedError()
    return this.#keys
  }

  /**
   * Holds `keys` (already checked against the key-check value): reads and writes seal again.
   * `format` is how the stored rows were sealed; writes always use the current format.
   */
  unlock(keys: AtRestKeys, format: SealFormat = SEAL_FORMAT): void {
    this.#encrypted = true
    this.#keys = keys
    this.#format = format
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

  /**
   * Whether keys-only reads in `trans` list refused rows too: normally they are left out, as from
   * every answer; `stored-keys.ts` asks for them where a caller compares keys with rows.
   */
  listsStoredKeys(trans: object): boolean {
    return (this.#storedKeys.get(trans) ?? 0) > 0
  }

  /** While `on`, keys-only reads in `trans` list every stored key (counted: reads may overlap). */
  listStoredKeys(trans: object, on: boolean): void {
    const n = (this.#storedKeys.get(trans) ?? 0) + (on ? 1 : -1)
    if (n > 0) this.#storedKeys.set(trans, n)
    else this.#storedKeys.delete(trans)
  }

  /** A row of `table` under `key` did not open and was left out of an answer. */
  noteRefused(table: string, key: unknown): void {
    if (typeof key !== 'string' && typeof key !== 'number') return
    const rows = this.#refused.get(table) ?? new Map<string, string | number>()
    this.#refused.set(table, rows)
    rows.set(JSON.stringify(key), key)
  }

  /** Rows of `table` under `keys` were written or deleted: whatever they were, they are gone. */
  noteReplaced(table: string, keys: readonly unknown[] | 'all'): void {
    const rows = this.#refused.get(table)
    if (!rows) return
    if (keys === 'all') rows.clear()
    else for (const key of keys) rows.delete(JSON.stringify(key))
  }

  /** The refused rows noted so far, table by table in key order. */
  refusedRows(): UnreadableRow[] {
    const out: UnreadableRow[] = []
    for (const [table, rows] of this.#refused) {
      for (const id of [...rows.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        out.push({ table, id } as UnreadableRow)
    }
    return out
  }
}
