import type { MemoryStats, UnreadableRow, UnreadableRows, VerifyReport } from '../../core/types.ts'
import type { AtRestState } from '../../storage/index.ts'

/**
 * The rows of `table` whose keys the store lists but whose rows did not come back from the same
 * read: encryption at rest refused them (the middleware leaves such a row out of every answer).
 */
export function unreadableIn(
  table: 'memories' | 'vectors',
  storedKeys: readonly unknown[],
  rows: readonly { id: string }[],
): UnreadableRow[] {
  const read = new Set(rows.map((r) => r.id))
  return storedKeys
    .filter((key): key is string => typeof key === 'string' && !read.has(key))
    .map((id) => ({ table, id }))
}

/** `rows` as the report field, or undefined when there are none. */
export function unreadableRows(rows: readonly UnreadableRow[]): UnreadableRows | undefined {
  return rows.length === 0 ? undefined : { count: rows.length, rows: [...rows] }
}

/** Adds the unreadable rows to a verify report: any at all and the memory is not ok. */
export function withUnreadable(report: VerifyReport, rows: readonly UnreadableRow[]): VerifyReport {
  const unreadable = unreadableRows(rows)
  if (!unreadable) return report
  return { ...report, ok: false, unreadable }
}

/**
 * Fills in what `inspect.stats()` says of an unlocked encrypted memory: that it is unlocked, and the
 * rows refused since it opened (only those some read met; `inspect.verify()` reads them all).
 */
export function unlockedStats(state: AtRestState, stats: MemoryStats): void {
  stats.atRest = 'unlocked'
  const unreadable = unreadableRows(state.refusedRows())
  if (unreadable) stats.unreadable = unreadable
}
