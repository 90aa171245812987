import { DEFAULT_NAMESPACE } from '../../core/options.ts'
import type { PageInfo } from '../../core/types.ts'
import { expectOptions, validateName } from '../../core/validate.ts'
import type { EngineContext } from '../engine-context.ts'
import { connected } from '../opening.ts'
import { groupPages } from './page-rows.ts'

/**
 * The pages of a namespace, most recently updated first, read from the table (chunk rows are
 * the only ones with a `pageId`, an indexed field).
 *
 * @throws InvalidInputError `BAD_OPTION` for an unknown option or a bad namespace.
 */
export async function listPages(ctx: EngineContext, options: unknown): Promise<PageInfo[]> {
  ctx.assertOpen()
  const o = expectOptions(options, 'options', ['namespace'], '')
  const namespace = validateName(o.namespace ?? DEFAULT_NAMESPACE, 'namespace')
  await connected(ctx)
  const rows = await ctx.mapped(ctx.db.memories.orderBy('pageId').toArray())
  const pages: PageInfo[] = []
  for (const [pageId, chunks] of groupPages(rows, namespace)) {
    pages.push({
      pageId,
      title: chunks[0]!.page.title,
      source: chunks[0]!.source,
      chunks: chunks.length,
      updatedAt: Math.max(...chunks.map((c) => c.updatedAt)),
    })
  }
  return pages.sort((a, b) => b.updatedAt - a.updatedAt || (a.pageId < b.pageId ? -1 : 1))
}
