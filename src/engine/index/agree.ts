import { type EngramDatabase, storedKeys } from '../../storage/index.ts'
import type { IndexSet } from './index-set.ts'

/**
 * Whether the indexes hold exactly the ids of the memories and of `model`'s vectors (and a
 * catalogue restored from the snapshot those of the table). Counts first: every change to the
 * tables' ids inside Engram writes a change-log entry, which the replay has applied, so the check
 * is there for rows written around the log (another program, a bug), and a row added or removed
 * so changes a count. The counts are the tables' plain ones, the vectors' against the index's
 * rows plus `staleVectors` (another model's, as the snapshot counted them); without that figure,
 * the count of the model's index range. Only when a count differs are the stored keys read and
 * compared one by one
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
  staleVectors?: number,
): Promise<boolean> {
  const { catalogue, keyword, vectors } = indexes
  if (keyword.size !== catalogue.size) return false
  for (const id of catalogue.keys()) if (!keyword.has(id)) return false
  const held = vectors?.ids() ?? []
  for (const id of held) if (!catalogue.has(id)) return false
  const restored = indexes.restoredCounters !== undefined
  // With the snapshot's count of other models' vectors, the table's plain count will do: in
  // Chromium counting the model's index range checks every entry against its row (60 of 67 ms
  // of these counts at 10k, where the memories' plain count took 7).
  const whole = staleVectors !== undefined
  const [memoryCount, vectorCount] = await db.transaction('r', db.memories, db.vectors, () =>
    Promise.all([
      restored ? db.memories.count() : catalogue.size,
      !model ? 0 : whole ? db.vectors.count() : db.vectors.where('model').equals(model).count(),
    ]),
  )
  const expected = held.length + (whole ? staleVectors : 0)
  if (memoryCount === catalogue.size && vectorCount === expected) return true
  return (await keysAgree(db, indexes, model)).agreed
}

/** What {@link keysAgree} found. */
export interface KeysAgreement {
  agreed: boolean
  /** How many stored vectors are `model`'s, when their keys were read (the memories' agreed). */
  modelVectors?: number
}

/**
 * The stored keys of the memories and of `model`'s vectors, each compared with the indexes: what
 * the counts in {@link indexesAgree} cannot see (an id swapped for another around the log). Run
 * after an open the counts let through, off its path (`IndexUpkeep.checkKeys`), which takes the
 * model's vectors counted from the keys read here.
 */
export async function keysAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  model: string | undefined,
): Promise<KeysAgreement> {
  const restored = indexes.restoredCounters !== undefined
  if (!(await memoriesAgree(db, indexes, restored))) return { agreed: false }
  const vectorIds = model
    ? ((await storedKeys(db, db.vectors, () =>
        db.vectors.where('model').equals(model),
      )) as string[])
    : []
  return { agreed: await vectorsAgree(db, indexes, vectorIds), modelVectors: vectorIds.length }
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

/** The stored keys of the model's vectors against the vector index, a refused row's key aside. */
async function vectorsAgree(
  db: EngramDatabase,
  indexes: IndexSet,
  vectorIds: readonly string[],
): Promise<boolean> {
  const { catalogue, vectors } = indexes
  const indexed = vectorIds.filter((id) => catalogue.has(id))
  const unindexed = indexed.filter((id) => !vectors?.has(id))
  if ((vectors?.size ?? 0) !== indexed.length - unindexed.length) return false
  if (unindexed.length === 0) return true
  return (await db.vectors.bulkGet(unindexed)).every((v) => v === undefined)
}
