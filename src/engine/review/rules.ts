import {
  confidenceAt,
  confidenceValue,
  expiresAtOf,
  type LifecycleFields,
  tierOf,
} from '../../core/lifecycle'
import { DAY_MS, type LifecycleOptions } from '../../core/options'
import type { Tier } from '../../core/types'
import { TIERS } from '../../core/vocabulary'

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

/** A chunk of a page as review's rules read it. */
export type ReviewedChunk = LifecycleFields & {
  id: string
  archivedAt?: number
  needsReview?: boolean
}

/**
 * Review's rules for a page, whose chunks are curated together or not at all: the rules read
 * the page as one memory, used when any chunk was (the latest write, confirmation and recall,
 * the recalls summed, the highest confidence), archived or flagged only when every chunk is.
 * What the page comes to is then asked of each chunk not already there, so a page never ends up
 * part archived, part removed or part promoted.
 *
 * @example
 * pageReviewActions([chunk0, chunk1], now, DEFAULT_LIFECYCLE)
 * // => Map { '01J…0' => { archive: true }, '01J…1' => { archive: true } }
 */
export function pageReviewActions(
  chunks: readonly ReviewedChunk[],
  now: number,
  options: LifecycleOptions,
): Map<string, ReviewAction> {
  const actions = new Map<string, ReviewAction>()
  const first = chunks[0]
  if (!first) return actions
  const whole: ReviewedChunk = {
    ...first,
    confirmedAt: Math.max(...chunks.map((c) => c.confirmedAt)),
    confirmations: Math.max(...chunks.map((c) => c.confirmations)),
    recallCount: chunks.reduce((sum, c) => sum + c.recallCount, 0),
    lastRecalledAt: Math.max(...chunks.map((c) => c.lastRecalledAt ?? 0)),
    confidence: Math.max(...chunks.map((c) => confidenceValue(c.confidence))),
    needsReview: chunks.every((c) => c.needsReview === true),
  }
  if (chunks.some((c) => c.archivedAt === undefined)) delete whole.archivedAt
  // An end set on one chunk (feedback, an older engine) holds the page only once all have one.
  if (chunks.some((c) => c.expiresAt === undefined)) delete whole.expiresAt
  else whole.expiresAt = Math.max(...chunks.map((c) => c.expiresAt!))
  const page = reviewAction(whole, now, options)
  for (const chunk of chunks) {
    const action: ReviewAction = {}
    if (page.remove) action.remove = true
    if (page.archive && chunk.archivedAt === undefined) action.archive = true
    if (page.flag && !chunk.needsReview) action.flag = true
    if (page.promote && chunk.tier !== page.promote) action.promote = page.promote
    actions.set(chunk.id, action)
  }
  return actions
}
