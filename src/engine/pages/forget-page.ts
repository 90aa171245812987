import { MemoryNotFoundError } from '../../core/errors.ts'
import { validateId } from '../../core/validate.ts'
import { storedKeys } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { locked } from '../opening.ts'
import { dropEdges } from '../relations.ts'

/**
 * Removes every chunk of the page, their vectors and edges, in one transaction, then their
 * index entries. The chunks are read inside the transaction, so one another tab added goes too.
 *
 * @throws MemoryNotFoundError when the page has no chunk.
 */
export async function forgetPage(ctx: EngineContext, pageId: unknown): Promise<void> {
  ctx.assertOpen()
  const id = validateId(pageId, 'pageId')
  await ctx.queue.run(() =>
    locked(ctx, async () => {
      const { db } = ctx
      const now = ctx.clock()
      const { ids, seqs } = await ctx.transact(async () => {
        // Stored keys, so chunks encryption at rest refuses (they do not open) go with the page.
        const chunks = () => db.memories.where('pageId').equals(id)
        const ids = (await storedKeys(db, db.memories, chunks)) as string[]
        if (ids.length === 0) throw new MemoryNotFoundError(id)
        await db.memories.bulkDelete(ids)
        await db.vectors.bulkDelete(ids)
        await dropEdges(db, ids)
        const changes = ids.map((one) => ({ op: 'delete' as const, id: one, at: now }))
        return { ids, seqs: (await db.changes.bulkAdd(changes, { allKeys: true })) as number[] }
      })
      for (const one of ids) ctx.indexes.remove(one)
      ctx.upkeep.recordWrites(seqs)
    }),
  )
}
