import type { Table } from 'dexie'
import { confidenceValue, tierOf } from '../core/lifecycle.ts'
import { DEFAULT_LIFECYCLE } from '../core/options.ts'
import type { Confidence, Memory } from '../core/types.ts'

/**
 * Schema 1 → 2: rows stored a confidence word and no tier. The word becomes its number
 * (`low` 0.3, `medium` 0.6, `high` 0.9) and the tier its type's default, so every later read
 * sees the new shape. Runs inside Dexie's upgrade transaction: nothing else is awaited.
 */
export function upgradeToLifecycle(memories: Table<Memory, string>): Promise<number> {
  return memories.toCollection().modify((m) => {
    const row = m as Memory & { confidence: number | Confidence }
    if (typeof row.confidence !== 'number') row.confidence = confidenceValue(row.confidence)
    if (row.tier === undefined) row.tier = tierOf(row, DEFAULT_LIFECYCLE)
  })
}
