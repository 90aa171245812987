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
       * opens read them). 1..10 000 000; lower only for tests. @default 600000
       */
      iterations?: number
    }
  | { key: CryptoKey }
