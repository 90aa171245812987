import type { EngramDatabase } from '../database.ts'
import type { AtRestKeys } from './cipher.ts'
import { AT_REST_META_KEY, formatRecord, readRecord } from './key-check-record.ts'
import { AT_REST_RULES } from './row-rules.ts'
import { SEAL_FORMAT } from './row-seal.ts'

/**
 * Reseals every row of a memory sealed in format 1 (before issue 22) in the current format,
 * then records the format in the key-check row: one transaction, so the memory is wholly one
 * format or the other, and a second tab opening it meanwhile finds the work done. Runs once,
 * at the first open by this version, and leaves `db`'s state unlocked in the current format.
 *
 * Rows are opened as format 1 and written back through the middleware, which seals them in
 * the current one. A row that does not open as format 1 (a changed byte, a row written in the
 * clear) stays as it is, and is refused from then on. Every sealed row is held in memory at
 * once: for 10 000 memories with 384-dimension vectors, about the size of one snapshot more.
 *
 * @throws what IndexedDB throws; then nothing is written and `db`'s state is locked.
 */
export async function resealRows(db: EngramDatabase, keys: AtRestKeys): Promise<void> {
  const tables = Object.keys(AT_REST_RULES).map((name) => db.table(name))
  db.atRest.unlock(keys, 1)
  try {
    await db.transaction('rw', [db.meta, ...tables], async () => {
      const held = await readRecord(db)
      if (!held || held.version === SEAL_FORMAT) return
      const rows = await Promise.all(tables.map((t) => t.toArray()))
      await Promise.all(tables.map((t, i) => t.bulkPut(rows[i]!)))
      await db.meta.put({ key: AT_REST_META_KEY, value: formatRecord(held, keys) })
    })
  } catch (error) {
    db.atRest.lock()
    throw error
  }
  db.atRest.unlock(keys, SEAL_FORMAT)
}
