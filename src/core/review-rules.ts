import { confidenceAt, expiresAtOf, type LifecycleFields, tierOf } from './lifecycle'
import { DAY_MS, type LifecycleOptions } from './options'
import type { Tier } from './types'
import { TIERS } from './vocabulary'

/** What review's rules say about one memory; every field absent: leave it be. */
export interface ReviewAction {
  /** Expired longer than the grace period: delete it. */
  remove?: true
  /** Expired, within the grace period, not yet archived: stamp `archivedAt`. */
  archive?: true
  /** Current confidence under `reviewBelow`, not yet flagged. */
  flag?: true
  /** Recalled often enough to move up to this tier. */
  promote?: Tier
}

/**
 * Review's rules for one memory at `now`. Removal wins over everything; an expired memory is
 * neither flagged nor promoted (it is on its way out).
 *
 * @example
 * reviewAction({ type: 'log', tier: 'working', recallCount: 3, ... }, now, DEFAULT_LIFECYCLE)
 * // => { promote: 'episodic' }
 */
export function reviewAction(
  memory: LifecycleFields & { archivedAt?: number; needsReview?: boolean },
  now: number,
  options: LifecycleOptions,
): ReviewAction {
  const expiresAt = expiresAtOf(memory, options)
  if (expiresAt <= now) {
    if (expiresAt + options.graceDays * DAY_MS <= now) return { remove: true }
    return memory.archivedAt === undefined ? { archive: true } : {}
  }
  const action: ReviewAction = {}
  if (!memory.needsReview && confidenceAt(memory, now, options).value < options.reviewBelow)
    action.flag = true
  const tier = tierOf(memory, options)
  const after = options.promoteAfter[tier]
  const next = TIERS[TIERS.indexOf(tier) + 1]
  if (after !== undefined && next !== undefined && memory.recallCount >= after)
    action.promote = next
  return action
}
