import { type EngramDatabase, storedKeys } from '../../storage/index.ts'
import type { IndexSet } from './index-set.ts'

/**
 * Whether the indexes hold exactly the ids of the memories and of `model`'s vectors (and a
 * catalogue restored from the snapshot those of the table). Counts first: every change to the
 * tables' ids inside Engram writes a change-log entry, which the replay has applied, so the check
 * is there for rows written around the log (another program, a bug), and a row added or removed
 * so changes a count. Only when a count differs are the stored keys read and compared one by one
 * (refused rows at rest are counted but not in the catalogue): in Chromium a key costs about as
 * much to read as its row, 16 µs, so reading them on every open was a third of a 10k cold start
 * (issue 25). What the counts cannot see, an id swapped for another around the log, is as out of
 * reach of the counts; {@link keysAgree} reads the keys after the open, and a mismatch there
 * rebuilds (a row's text edited around the log is found only by `inspect.verify()`).
 */
export async function indexesAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  model: string | undefined,
): Promise<boolean> {
  const { catalogue, keyword, vectors } = indexes
  if (keyword.size !== catalogue.size) return false
  for (const id of catalogue.keys()) if (!keyword.has(id)) return false
  const held = vectors?.ids() ?? []
  for (const id of held) if (!catalogue.has(id)) return false
  const restored = indexes.restoredCounters !== undefined
  const [memoryCount, vectorCount] = await db.transaction('r', db.memories, db.vectors, () =>
    Promise.all([
      restored ? db.memories.count() : catalogue.size,
      model ? db.vectors.where('model').equals(model).count() : 0,
    ]),
  )
  if (memoryCount === catalogue.size && vectorCount === held.length) return true
  return (await memoriesAgree(db, indexes, restored)) && vectorsAgree(db, indexes, model)
}

/**
 * The stored keys of the memories and of `model`'s vectors, each compared with the indexes: what
 * the counts in {@link indexesAgree} cannot see (an id swapped for another around the log). Run
 * after an open the counts let through, off its path (`IndexUpkeep.checkKeys`).
 */
export async function keysAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  model: string | undefined,
): Promise<boolean> {
  const restored = indexes.restoredCounters !== undefined
  return (await memoriesAgree(db, indexes, restored)) && vectorsAgree(db, indexes, model)
}

/** The stored memory keys against a restored catalogue's ids, a refused row's key aside. */
async function memoriesAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  restored: boolean,
): Promise<boolean> {
  if (!restored) return true
  const { catalogue } = indexes
  // Every stored key, refused rows' too (reading them all through the middleware would open
  // every row): a key the catalogue lacks counts only if its row opens.
  const ids = (await storedKeys(db, db.memories)) as string[]
  const extra = ids.filter((id) => !catalogue.has(id))
  if (ids.length - extra.length !== catalogue.size) return false
  return extra.length === 0 || (await db.memories.bulkGet(extra)).every((m) => m === undefined)
}

/** The stored keys of `model`'s vectors against the vector index, a refused row's key aside. */
async function vectorsAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  model: string | undefined,
): Promise<boolean> {
  const { catalogue, vectors } = indexes
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
