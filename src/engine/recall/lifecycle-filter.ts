import { type ExpiryFields, isExpired } from '../../core/lifecycle.ts'
import type { LifecycleOptions } from '../../core/options.ts'
import { overlapsTime } from '../../core/recall/boosts.ts'
import type { Memory, Tier } from '../../core/types.ts'
import { Catalogue } from '../index/catalogue.ts'

/** What the lifecycle filter reads of a recall: its switch, and the time it names. */
export interface LifecycleScope {
  /** Keep expired memories too. @default false */
  includeExpired?: boolean
  /** The recall's hard filters, epoch ms (`since` inclusive, `until` exclusive). */
  since?: number
  until?: number
  /** The windows the query's time words name (`AnalyzedQuery.windows`); `[]` or absent: none. */
  windows?: readonly { start: number; end: number }[]
}

/**
 * The lifecycle's part of a recall's scope at time `now`: a memory past its TTL or `expiresAt`
 * is left out unless `includeExpired`. Read from the catalogue, whose rows carry the latest
 * `lastRecalledAt`, so a memory in use never drops out.
 *
 * A recall that names a time looks past the TTL for what happened then: a memory expired only
 * by its tier's TTL (not by its own `expiresAt`) is kept when its time overlaps `since`/`until`
 * or one of `windows`. The TTL measures disuse, and a question about that time is the use that
 * should find it ("in May 2023" finds the undated note written then, a year unused); an
 * `expiresAt` is a date someone chose, and holds. See {@link keptByTime}.
 */
export function lifecycleFilter(
  catalogue: ReadonlyMap<string, Memory>,
  o: LifecycleScope,
  now: number,
  lifecycle: LifecycleOptions,
): (id: string) => boolean {
  if (o.includeExpired) return () => true
  if (catalogue instanceof Catalogue) {
    // The columns expiry reads, not a whole row: every candidate of every list is asked.
    return (id) => {
      const slot = catalogue.slotOf(id)
      if (slot === undefined) return false
      if (!isExpired(expiryAt(catalogue, slot), now, lifecycle)) return true
      return keptByTime(catalogue.get(id) as Memory, o, now)
    }
  }
  return (id) => {
    const m = catalogue.get(id)
    return m !== undefined && (!isExpired(m, now, lifecycle) || keptByTime(m, o, now))
  }
}

/**
 * Whether an expired memory stays in a recall because the recall names its time: its own
 * `expiresAt` has not passed (so only the TTL expired it) and its time overlaps the hard
 * `since`/`until` window or a window of the query's time words.
 *
 * @example
 * keptByTime({ createdAt: Date.UTC(2023, 4, 9), … }, { windows: findTimeWindows('in May 2023', now) }, now)
 * // => true
 */
export function keptByTime(
  m: Pick<Memory, 'createdAt' | 'happenedAt' | 'happenedUntil' | 'expiresAt'>,
  o: LifecycleScope,
  now: number,
): boolean {
  if (m.expiresAt !== undefined && m.expiresAt <= now) return false
  const hard = o.since !== undefined || o.until !== undefined
  if (hard && overlapsTime(m, o.since, o.until)) return true
  return (o.windows ?? []).some((w) => overlapsTime(m, w.start, w.end))
}

/** A catalogue row's expiry fields, read from its columns. */
function expiryAt(catalogue: Catalogue, slot: number): ExpiryFields {
  return {
    type: catalogue.stringAt(slot, 'type') as string,
    tier: catalogue.stringAt(slot, 'tier') as Tier | undefined,
    confirmedAt: catalogue.numberAt(slot, 'confirmedAt') as number,
    lastRecalledAt: catalogue.numberAt(slot, 'lastRecalledAt'),
    expiresAt: catalogue.numberAt(slot, 'expiresAt'),
  }
}
