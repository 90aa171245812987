import { type Collection, Dexie, type Table } from 'dexie'
import type { EngramDatabase } from '../database.ts'

/**
 * The primary keys `chosen` selects as IndexedDB holds them, refused rows' included: the
 * middleware leaves a row that does not open out of keys-only answers too, and `inspect.verify()`,
 * export and the open's snapshot check tell such rows by the keys whose rows did not come back.
 * Runs in the caller's transaction when there is one (a key and its row read together).
 */
export function storedKeys<T, K>(
  db: EngramDatabase,
  table: Table<T, K>,
  chosen: () => Collection<T, K> = () => table.toCollection(),
): Promise<K[]> {
  return db.transaction('r', table, () => {
    const trans = (Dexie.currentTransaction as unknown as { idbtrans: object }).idbtrans
    db.atRest.listStoredKeys(trans, true)
    return chosen()
      .primaryKeys()
      .finally(() => db.atRest.listStoredKeys(trans, false))
  })
}
