import type { StoredPage } from '../../core/types.ts'
import { validateId } from '../../core/validate.ts'
import type { EngineContext } from '../engine-context.ts'
import { connected } from '../opening.ts'
import { groupPages, reassembleRows } from './page-rows.ts'

/** The page reassembled from its chunk rows as stored, or undefined when it has none. */
export async function getPage(
  ctx: EngineContext,
  pageId: unknown,
): Promise<StoredPage | undefined> {
  ctx.assertOpen()
  const id = validateId(pageId, 'pageId')
  await connected(ctx)
  const rows = await ctx.mapped(ctx.db.memories.where('pageId').equals(id).toArray())
  const chunks = groupPages(rows).get(id)
  if (!chunks) return undefined
  const first = chunks[0]!
  return {
    pageId: id,
    title: first.page.title,
    source: first.source,
    tags: first.tags,
    namespace: first.namespace,
    text: reassembleRows(chunks),
    chunks: chunks.length,
    createdAt: Math.min(...chunks.map((c) => c.createdAt)),
    updatedAt: Math.max(...chunks.map((c) => c.updatedAt)),
  }
}
