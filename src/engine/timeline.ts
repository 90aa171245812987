/** `timeline`: what happened in a window, newest first, without keywords. */

import { DEFAULT_TIMELINE, MAX_TYPES } from '../core/defaults/time.ts'
import { isExpired } from '../core/lifecycle.ts'
import type { LimitOptions } from '../core/options.ts'
import { happenedSpan, overlapsTime } from '../core/recall/boosts.ts'
import type { ListPage, Memory, TimelineOptions } from '../core/types.ts'
import {
  badOption,
  booleanOr,
  expectOptions,
  integerIn,
  validateInstant,
  validateName,
  validateNames,
  validateTags,
} from '../core/validate.ts'
import type { EngineContext } from './engine-context.ts'
import { connected } from './opening.ts'

const TIMELINE_OPTIONS: Record<keyof TimelineOptions, true> = {
  namespace: true,
  since: true,
  until: true,
  types: true,
  tags: true,
  includeExpired: true,
  limit: true,
  cursor: true,
}

/** Timeline options checked, instants as epoch ms, the cursor taken apart. */
export interface CheckedTimeline {
  namespace?: string
  since?: number
  until?: number
  types?: string[]
  tags?: string[]
  includeExpired: boolean
  limit: number
  /** The last item of the previous page: its time and id. */
  after?: { time: number; id: string }
}

// A cursor is the last item's time and id: `<ms>_<id>`, so a page starts after it in
// (time, id) order even when many memories share one instant.
const CURSOR = /^(-?\d{1,16})_([0-9A-Za-z_-]{1,64})$/

/**
 * Checks `timeline` options before storage is touched.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an object, an unknown name, a bad instant, `since`
 *   not before `until`, `limit` not an integer 1..1000, a cursor this method did not give) and
 *   what the name and tag checks throw.
 */
export function checkTimelineOptions(options: unknown, limits: LimitOptions): CheckedTimeline {
  const o = expectOptions(options, 'options', Object.keys(TIMELINE_OPTIONS), '') as TimelineOptions
  const { limit: fallback, maxLimit } = DEFAULT_TIMELINE
  const checked: CheckedTimeline = {
    includeExpired: booleanOr(o.includeExpired, false, 'includeExpired'),
    limit: o.limit === undefined ? fallback : integerIn(o.limit, 'limit', 1, maxLimit),
  }
  if (o.namespace !== undefined) checked.namespace = validateName(o.namespace, 'namespace')
  if (o.since !== undefined) checked.since = validateInstant(o.since, 'since')
  if (o.until !== undefined) checked.until = validateInstant(o.until, 'until')
  if (checked.since !== undefined && checked.until !== undefined && checked.since >= checked.until)
    throw badOption('until', `an instant after since (${checked.since})`, checked.until)
  if (o.types !== undefined) checked.types = validateNames(o.types, 'types', MAX_TYPES)
  if (o.tags !== undefined)
    checked.tags = validateTags(o.tags, 'tags', limits.maxTags, limits.maxTagLength)
  if (o.cursor !== undefined) {
    const m = typeof o.cursor === 'string' ? CURSOR.exec(o.cursor) : null
    if (!m) throw badOption('cursor', 'the cursor of a previous timeline page', o.cursor)
    checked.after = { time: Number(m[1]), id: m[2]! }
  }
  return checked
}

/** A memory's place in the timeline: its time (`happenedAt ?? createdAt`), then its id. */
const timeOf = (m: Memory) => happenedSpan(m)[0]

/**
 * One page of the timeline, read from the table (as `list` reads it: what is stored, not the
 * indexes), newest first by time and then id. No table index holds `happenedAt`, so every row of
 * the namespace is read; but only the page (and one more, to know a next page exists) is kept
 * and ordered as the rows stream past, not every match collected and sorted.
 */
export async function timelineMemories(
  ctx: EngineContext,
  options: TimelineOptions,
): Promise<ListPage> {
  ctx.assertOpen()
  const o = checkTimelineOptions(options, ctx.limits)
  const now = ctx.clock()
  const wanted = (m: Memory) =>
    (o.types === undefined || o.types.includes(m.type)) &&
    (o.tags === undefined ||
      o.tags.every((t) => m.tags.some((have) => have.toLowerCase() === t))) &&
    overlapsTime(m, o.since, o.until) &&
    (o.includeExpired || (m.archivedAt === undefined && !isExpired(m, now, ctx.lifecycle))) &&
    (o.after === undefined || before(m, o.after))
  await connected(ctx)
  const table = ctx.db.memories
  const rows =
    o.namespace === undefined ? table.toCollection() : table.where('namespace').equals(o.namespace)
  const top = new NewestFirst(o.limit + 1)
  await ctx.mapped(rows.filter(wanted).each((m) => top.offer(m)))
  const items = top.items()
  const page: ListPage = { items: items.slice(0, o.limit) }
  if (items.length > o.limit) {
    const last = page.items[page.items.length - 1]!
    page.cursor = `${timeOf(last)}_${last.id}`
  }
  return page
}

/** Newest-first order of the timeline: time descending, then id descending. */
function newer(a: Memory, b: Memory): number {
  return timeOf(b) - timeOf(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

/**
 * The `size` newest memories offered, in timeline order: a sorted array with binary insertion,
 * so a page of `size` out of `n` rows costs about n·log(size) comparisons and `size` rows held.
 */
export class NewestFirst {
  readonly #kept: Memory[] = []
  constructor(readonly size: number) {}

  offer(m: Memory): void {
    const kept = this.#kept
    if (kept.length === this.size && newer(m, kept[kept.length - 1]!) >= 0) return
    let lo = 0
    let hi = kept.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (newer(kept[mid]!, m) <= 0) lo = mid + 1
      else hi = mid
    }
    kept.splice(lo, 0, m)
    if (kept.length > this.size) kept.pop()
  }

  items(): Memory[] {
    return [...this.#kept]
  }
}

/** Whether `m` comes after the cursor's item in newest-first order. */
function before(m: Memory, after: { time: number; id: string }): boolean {
  const time = timeOf(m)
  return time < after.time || (time === after.time && m.id < after.id)
}
