import { InvalidInputError } from '../core/errors.ts'
import type { CountFilter, ListOptions, ListPage, Memory } from '../core/types.ts'
import { validateId } from '../core/validate.ts'
import type { EngineContext } from './engine-context.ts'
import { connected } from './lifecycle.ts'

/**
 * One page of memories, newest first, straight from the table (not the indexes), so it shows
 * exactly what is stored. `cursor` is the last id of the previous page.
 */
export async function listMemories(ctx: EngineContext, options: ListOptions): Promise<ListPage> {
  ctx.assertOpen()
  if (!options || typeof options !== 'object') {
    throw new InvalidInputError('BAD_OPTION', 'options', 'expected an object')
  }
  if (options.cursor !== undefined) validateId(options.cursor, 'cursor')
  const limit = options.limit ?? 50
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new InvalidInputError('BAD_OPTION', 'limit', `expected an integer 1..1000, got ${limit}`)
  }
  const { namespace, type, tag, cursor } = options
  const wanted = (m: Memory) =>
    (namespace === undefined || m.namespace === namespace) &&
    (type === undefined || m.type === type) &&
    (tag === undefined || m.tags.some((t) => t.toLowerCase() === tag.toLowerCase()))
  await connected(ctx)
  const collection = cursor
    ? ctx.db.memories.where('id').below(cursor).reverse()
    : ctx.db.memories.orderBy('id').reverse()
  const items = await ctx.mapped(
    collection
      .filter(wanted)
      .limit(limit + 1)
      .toArray(),
  )
  const page: ListPage = { items: items.slice(0, limit) }
  if (items.length > limit) page.cursor = page.items[page.items.length - 1]!.id
  return page
}

/** Stored memories matching `filter`, counted through the narrowest table index available. */
export async function countMemories(ctx: EngineContext, filter: CountFilter): Promise<number> {
  ctx.assertOpen()
  if (!filter || typeof filter !== 'object') {
    throw new InvalidInputError('BAD_OPTION', 'filter', 'expected an object')
  }
  await connected(ctx)
  const { namespace, type } = filter
  const table = ctx.db.memories
  const query =
    namespace !== undefined && type !== undefined
      ? table.where('[namespace+type]').equals([namespace, type]).count()
      : namespace !== undefined
        ? table.where('namespace').equals(namespace).count()
        : type !== undefined
          ? table.filter((m) => m.type === type).count()
          : table.count()
  return ctx.mapped(query)
}
