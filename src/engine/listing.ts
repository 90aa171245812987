import { isExpired, tierOf } from '../core/lifecycle.ts'
import type { LifecycleOptions, LimitOptions } from '../core/options.ts'
import type { CountFilter, ListOptions, ListPage, Memory, Tier } from '../core/types.ts'
import {
  booleanOr,
  expectOptions,
  integerIn,
  oneOf,
  validateId,
  validateName,
  validateTag,
} from '../core/validate.ts'
import { TIERS } from '../core/vocabulary.ts'
import type { EngineContext } from './engine-context.ts'
import { connected } from './opening.ts'

const LIST_OPTIONS: Record<keyof ListOptions, true> = {
  namespace: true,
  type: true,
  tag: true,
  tier: true,
  expired: true,
  needsReview: true,
  limit: true,
  cursor: true,
}
const COUNT_FILTER: Record<keyof CountFilter, true> = { namespace: true, type: true }

/** Largest page `list` returns. */
const MAX_LIST_LIMIT = 1000
const DEFAULT_LIST_LIMIT = 50

/** List options with defaults applied, filters normalised as the write stored them. */
export interface CheckedListOptions {
  namespace?: string
  type?: string
  tag?: string
  tier?: Tier
  expired?: boolean
  needsReview?: boolean
  limit: number
  cursor?: string
}

/**
 * Checks `list` options before any storage is touched, so a wrong type is `BAD_OPTION` rather
 * than a `StorageError` from an index asked to compare a number with strings.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown name, a filter not a string,
 *   `limit` not an integer 1..1000), `BAD_ID` (`cursor`), and the character codes.
 */
export function checkListOptions(options: unknown, limits: LimitOptions): CheckedListOptions {
  const o = expectOptions(options, 'options', Object.keys(LIST_OPTIONS), '')
  const limit =
    o.limit === undefined ? DEFAULT_LIST_LIMIT : integerIn(o.limit, 'limit', 1, MAX_LIST_LIMIT)
  const checked: CheckedListOptions = { ...checkFilter(o), limit }
  if (o.tag !== undefined) checked.tag = validateTag(o.tag, 'tag', limits.maxTagLength)
  if (o.cursor !== undefined) checked.cursor = validateId(o.cursor, 'cursor')
  if (o.tier !== undefined) checked.tier = oneOf(o.tier, TIERS, 'tier')
  if (o.expired !== undefined) checked.expired = booleanOr(o.expired, false, 'expired')
  if (o.needsReview !== undefined)
    checked.needsReview = booleanOr(o.needsReview, false, 'needsReview')
  return checked
}

/**
 * Checks a `count` filter.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown name, a filter not a
 *   non-empty string) and the character codes.
 */
export function checkCountFilter(filter: unknown): { namespace?: string; type?: string } {
  return checkFilter(expectOptions(filter, 'filter', Object.keys(COUNT_FILTER), ''))
}

function checkFilter(o: Record<string, unknown>): { namespace?: string; type?: string } {
  const checked: { namespace?: string; type?: string } = {}
  if (o.namespace !== undefined) checked.namespace = validateName(o.namespace, 'namespace')
  if (o.type !== undefined) checked.type = validateName(o.type, 'type')
  return checked
}

/**
 * One page of memories, newest first, straight from the table (not the indexes), so it shows
 * exactly what is stored. `cursor` is the last id of the previous page.
 */
export async function listMemories(ctx: EngineContext, options: ListOptions): Promise<ListPage> {
  ctx.assertOpen()
  const checked = checkListOptions(options, ctx.limits)
  const { namespace, type, tag, limit, cursor } = checked
  const lifecycle = lifecycleWanted(checked, ctx.clock(), ctx.lifecycle)
  const wanted = (m: Memory) =>
    (namespace === undefined || m.namespace === namespace) &&
    (type === undefined || m.type === type) &&
    (tag === undefined || m.tags.some((t) => t.toLowerCase() === tag)) &&
    lifecycle(m)
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

/** The lifecycle filters of a listing: tier, expired or not at `now`, flagged for review. */
function lifecycleWanted(
  o: Pick<CheckedListOptions, 'tier' | 'expired' | 'needsReview'>,
  now: number,
  lifecycle: LifecycleOptions,
): (m: Memory) => boolean {
  return (m) =>
    (o.tier === undefined || tierOf(m, lifecycle) === o.tier) &&
    (o.expired === undefined || isExpired(m, now, lifecycle) === o.expired) &&
    (o.needsReview === undefined || (m.needsReview === true) === o.needsReview)
}

/** Stored memories matching `filter`, counted through the narrowest table index available. */
export async function countMemories(ctx: EngineContext, filter: CountFilter): Promise<number> {
  ctx.assertOpen()
  const { namespace, type } = checkCountFilter(filter)
  await connected(ctx)
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
