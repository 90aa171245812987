import { EncryptionError } from '../../core/errors.ts'
import { type EngramDatabase, storedKeys } from '../../storage/index.ts'

/** What names a memory in the unique `[namespace+type+key]` index. */
export interface DedupSlot {
  namespace: string
  type: string
  key: string
}

/**
 * The ids of stored rows that do not open (encryption at rest refused them) and hold one of
 * `slots` in the unique index: a write of the same text collides with them forever, since no
 * read returns them to dedup against. Empty for a plain memory.
 */
export async function refusedHolders(
  db: EngramDatabase,
  slots: readonly DedupSlot[],
): Promise<string[]> {
  if (!db.atRest.encrypted) return []
  const out = new Set<string>()
  for (const { namespace, type, key } of slots) {
    const chosen = () => db.memories.where('[namespace+type+key]').equals([namespace, type, key])
    const stored = await storedKeys(db, db.memories, chosen)
    if (stored.length === 0) continue
    const opened = new Set(await chosen().primaryKeys())
    for (const id of stored) if (!opened.has(id)) out.add(id)
  }
  return [...out]
}

/** The error for a write blocked by {@link refusedHolders}: names them and how to drop them. */
export function blockedByRefused(ids: readonly string[]): EncryptionError {
  return new EncryptionError(
    'UNREADABLE',
    `expected no stored memory with this text, got ${ids.length === 1 ? 'one' : ids.length} that does not open (${ids.join(', ')}, see verify().unreadable): forget its id, then write again`,
  )
}

/** Whether a row is stored under `id` though no read returns it (it does not open). */
export async function isRefused(db: EngramDatabase, id: string): Promise<boolean> {
  if (!db.atRest.encrypted) return false
  const stored = await storedKeys(db, db.memories, () => db.memories.where('id').equals(id))
  return stored.length > 0 && (await db.memories.get(id)) === undefined
}
