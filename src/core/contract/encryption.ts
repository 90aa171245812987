/** Encryption at rest as the contract names it. Types only; the work is `src/storage/at-rest/`. */

/**
 * The owner's secret for the rows Engram keeps in IndexedDB: a passphrase, stretched by
 * PBKDF2-SHA-256 with a salt stored beside the data, or an HKDF `CryptoKey` the app manages
 * (`crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey'])`, the same kind sync
 * takes). Plain data: a `CryptoKey` is structured-cloneable, so it crosses to the worker.
 *
 * @example
 * await openMemory({ name: 'notes', encryption: { passphrase: 'correct horse battery staple' } })
 * // => a memory whose texts, tags, vectors, snapshots and recall queries are sealed on disk
 */
export type AtRestSecret =
  | {
      passphrase: string
      /**
       * PBKDF2 rounds, used when the memory is first encrypted (stored with the salt, so later
       * opens read them and this is ignored). 600 000..10 000 000: sync's floor too, so a
       * passphrase is stretched no less on disk than on a server. @default 600000
       */
      iterations?: number
    }
  | { key: CryptoKey }

/**
 * A row encryption at rest refused: it did not open (a byte changed, written in the clear,
 * sealed under another key, or a plain field beside it edited since it was sealed). Such a row
 * is never served (not by `get`, `list`, `recall`, export or the indexes); it is named here.
 * `id` is its primary key: a memory's or vector's id, a snapshot's name, a recall log entry's
 * number.
 *
 * @example
 * (await memory.inspect.verify()).unreadable
 * // => { count: 1, rows: [{ table: 'memories', id: '01JH4Z3V6Q8N2W5X7Y9A0B1C2D' }] }
 */
export type UnreadableRow =
  | { table: 'memories' | 'vectors' | 'snapshots'; id: string }
  | { table: 'recalls'; id: number }

/** The rows encryption at rest refused, and how many. */
export interface UnreadableRows {
  count: number
  rows: UnreadableRow[]
}
