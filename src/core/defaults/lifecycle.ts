/**
 * Defaults of how memories age and are reviewed: tiers' lifetimes, confidence at write and its
 * decay, the review's pace. Gathered with the other defaults by `core/options.ts`.
 */

import type { Tier, TrustLevel } from '../contract/memory.ts'

/**
 * How memories age (DESIGN §6a). Confidence is computed at read time from stored timestamps:
 * `start × decay + reinforcement`, where decay halves the confidence over one TTL of disuse and
 * each use (a recall into a result, a confirming duplicate) closes `reinforcement` of the gap to 1.
 *
 * @example
 * // An episodic memory written at 0.90, unused for 15 of its 30 days, never recalled:
 * confidenceAt(memory, now, DEFAULT_LIFECYCLE).value
 * // => 0.64
 */
export interface LifecycleOptions {
  /**
   * Time to live of each tier, in days, counted from the memory's last use (its write, a
   * confirming duplicate, a recall into a result). Past it the memory is expired: left out of
   * recall unless `includeExpired`, removed by `review()` after `graceDays`. Each > 0.
   * @default { working: 1, episodic: 30, semantic: 90, procedural: 365 }
   */
  ttlDays: Record<Tier, number>
  /**
   * The tier a memory of a type gets when the write names none; other types get `defaultTier`.
   * @default { log: 'episodic', fact: 'semantic', page: 'semantic', skill: 'procedural' }
   */
  tierByType: Record<string, Tier>
  /** @default 'semantic' */
  defaultTier: Tier
  /**
   * Confidence at write for a source, when the write gives none: the user's own word counts
   * more than an agent's inference, an import or anything else less. 0..1.
   * @default { user: 0.8, agent: 0.6, import: 0.5 }
   */
  sourceConfidence: Record<string, number>
  /** Confidence at write for a source not in `sourceConfidence`. 0..1. @default 0.5 */
  otherSourceConfidence: number
  /** Confidence a memory stored `untrusted` starts from at most. 0..1. @default 0.4 */
  untrustedCeiling: number
  /** Share of the gap to 1 each use closes. 0..1. @default 0.05 */
  reinforcement: number
  /** Days an expired memory is kept (listed, exportable) before review removes it. @default 7 */
  graceDays: number
  /** Current confidence under which review flags a memory `needsReview`. 0..1. @default 0.3 */
  reviewBelow: number
  /**
   * Recalls after which review moves a memory of a tier up one (working → episodic →
   * semantic); tiers left out are never promoted. @default { working: 3, episodic: 10 }
   */
  promoteAfter: Partial<Record<Tier, number>>
}

/** What the `'low'` / `'medium'` / `'high'` inputs of a write mean as numbers. */
export const CONFIDENCE_VALUES: Readonly<Record<'low' | 'medium' | 'high', number>> = Object.freeze(
  { low: 0.3, medium: 0.6, high: 0.9 },
)

/**
 * The confidence at which the boost is neutral (x1): `medium`. The factor runs linearly through
 * it, reaching `BoostOptions.highConfidence` at `CONFIDENCE_VALUES.high` and `lowConfidence` at
 * `CONFIDENCE_VALUES.low`, so the level inputs boost exactly as they did.
 */
export const NEUTRAL_CONFIDENCE = CONFIDENCE_VALUES.medium

export const DEFAULT_LIFECYCLE: Readonly<LifecycleOptions> = Object.freeze({
  ttlDays: Object.freeze({ working: 1, episodic: 30, semantic: 90, procedural: 365 }),
  tierByType: Object.freeze({
    log: 'episodic',
    fact: 'semantic',
    page: 'semantic',
    skill: 'procedural',
  }) as Record<string, Tier>,
  defaultTier: 'semantic',
  sourceConfidence: Object.freeze({ user: 0.8, agent: 0.6, import: 0.5 }) as Record<string, number>,
  otherSourceConfidence: 0.5,
  untrustedCeiling: 0.4,
  reinforcement: 0.05,
  graceDays: 7,
  reviewBelow: 0.3,
  promoteAfter: Object.freeze({ working: 3, episodic: 10 }),
})

/** Memories one review step looks at, in one transaction under the write lock. */
export const REVIEW_CHUNK = 500

/** How long the judge may take per call when `judgeTimeoutMs` is not given. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 10_000

/** The automatic review runs at most this often per database. */
export const AUTO_REVIEW_EVERY_MS = 86_400_000

/** Trust levels whose confidence at write is capped (see `LifecycleOptions.untrustedCeiling`). */
export const CAPPED_TRUST: readonly TrustLevel[] = Object.freeze(['untrusted'])

export const DAY_MS = 86_400_000
