import { type EngramDatabase, storedKeys } from '../../storage/index.ts'
import type { IndexSet } from './index-set.ts'

/**
 * Whether the indexes hold exactly the ids of the memories and of `model`'s vectors (and a
 * catalogue restored from the snapshot those of the table).
 */
export async function indexesAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  model: string | undefined,
): Promise<boolean> {
  const { catalogue, keyword, vectors } = indexes
  if (keyword.size !== catalogue.size) return false
  for (const id of catalogue.keys()) if (!keyword.has(id)) return false
  if (indexes.restoredCounters !== undefined) {
    // Every stored key, refused rows' too (reading them all through the middleware would open
    // every row): a key the catalogue lacks counts only if its row opens.
    const ids = (await storedKeys(db, db.memories)) as string[]
    const extra = ids.filter((id) => !catalogue.has(id))
    if (ids.length - extra.length !== catalogue.size) return false
    if (extra.length > 0 && (await db.memories.bulkGet(extra)).some((m) => m !== undefined)) {
      return false
    }
  }
  const vectorIds = model
    ? ((await storedKeys(db, db.vectors, () =>
        db.vectors.where('model').equals(model),
      )) as string[])
    : []
  const indexed = vectorIds.filter((id) => catalogue.has(id))
  const unindexed = indexed.filter((id) => !vectors?.has(id))
  if ((vectors?.size ?? 0) !== indexed.length - unindexed.length) return false
  if (unindexed.length === 0) return true
  return (await db.vectors.bulkGet(unindexed)).every((v) => v === undefined)
}
