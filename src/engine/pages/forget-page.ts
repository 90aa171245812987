import { MemoryNotFoundError } from '../../core/errors.ts'
import { validateId } from '../../core/validate.ts'
import { storedKeys } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { dropEdges } from '../relations.ts'
import { runWrite } from '../write/index.ts'

/**
 * Removes every chunk of the page, their vectors and edges, in one transaction, then their
 * index entries. The chunks are read inside the transaction, so one another tab added goes too.
 *
 * @throws MemoryNotFoundError when the page has no chunk.
 */
export async function forgetPage(ctx: EngineContext, pageId: unknown): Promise<void> {
  ctx.assertOpen()
  const id = validateId(pageId, 'pageId')
  await runWrite(ctx, {
    commit: async () => {
      const { db } = ctx
      const now = ctx.clock()
      // Stored keys, so chunks encryption at rest refuses (they do not open) go with the page.
      const chunks = () => db.memories.where('pageId').equals(id)
      const ids = (await storedKeys(db, db.memories, chunks)) as string[]
      if (ids.length === 0) throw new MemoryNotFoundError(id)
      await db.memories.bulkDelete(ids)
      await db.vectors.bulkDelete(ids)
      await dropEdges(db, ids)
      const changes = ids.map((one) => ({ op: 'delete' as const, id: one, at: now }))
      const seqs = (await db.changes.bulkAdd(changes, { allKeys: true })) as number[]
      return { result: undefined, seqs, removed: ids }
    },
  })
}
