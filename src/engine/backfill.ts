import type { Embedder } from '../core/types.ts'
import type { ChangeRow, EngramDatabase } from '../storage/index.ts'
import type { IndexSet } from './index-set.ts'

export interface BackfillContext {
  db: EngramDatabase
  indexes: IndexSet
  embedder: Embedder
  nearDuplicate: number
  now: number
  transact: <T>(body: () => Promise<T>) => Promise<T>
}

/**
 * Embeds one batch of memories that have no vector from the current model and stores the
 * vectors. A memory that turns out to be a near duplicate of an older one (the check it missed
 * at write time) is merged: the older memory is confirmed and the newer one removed.
 */
export async function backfillBatch(
  ids: string[],
  ctx: BackfillContext,
): Promise<{ seqs: number[] }> {
  const { db, indexes, embedder } = ctx
  const memories = ids.map((id) => indexes.catalogue.get(id)).filter((m) => m !== undefined)
  if (memories.length === 0) return { seqs: [] }
  const vectors = await embedder.embed(
    memories.map((m) => m.text),
    { kind: 'passage' },
  )
  const keep: { id: string; vector: Float32Array }[] = []
  const merges: { from: string; into: string }[] = []
  memories.forEach((memory, i) => {
    const vector = vectors[i]!
    const [top] =
      indexes.vectors?.search(vector, 1, {
        groups: [indexes.groupOf(memory.namespace, memory.type)],
      }) ?? []
    // Only an older memory absorbs a newer one, so the merge direction is stable.
    if (top && top.score >= ctx.nearDuplicate && top.id < memory.id) {
      merges.push({ from: memory.id, into: top.id })
    } else keep.push({ id: memory.id, vector })
  })
  const confirmed = await ctx.transact(async () => {
    if (keep.length > 0) {
      await db.vectors.bulkPut(
        keep.map(({ id, vector }) => ({ id, model: embedder.model, dims: vector.length, vector })),
      )
    }
    const rows = []
    for (const { from, into } of merges) {
      const target = await db.memories.get(into)
      if (!target) continue
      const absorbed = await db.memories.get(from)
      const row = {
        ...target,
        confirmations: target.confirmations + (absorbed?.confirmations ?? 1),
        confirmedAt: ctx.now,
      }
      await db.memories.put(row)
      await db.memories.delete(from)
      await db.vectors.delete(from)
      rows.push(row)
    }
    const changes: ChangeRow[] = [
      ...keep.map(({ id }) => ({ op: 'put' as const, id, at: ctx.now })),
      ...merges.map(({ from }) => ({ op: 'delete' as const, id: from, at: ctx.now })),
      ...rows.map((row) => ({ op: 'put' as const, id: row.id, at: ctx.now })),
    ]
    const seqs = changes.length > 0 ? await db.changes.bulkAdd(changes, { allKeys: true }) : []
    return { rows, seqs: seqs as number[] }
  })
  for (const { id, vector } of keep) indexes.putVector(id, vector)
  for (const { from } of merges) indexes.remove(from)
  for (const row of confirmed.rows) indexes.catalogue.set(row.id, row)
  return { seqs: confirmed.seqs }
}
