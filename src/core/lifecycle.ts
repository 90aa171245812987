import {
  CAPPED_TRUST,
  CONFIDENCE_VALUES,
  DAY_MS,
  type LifecycleOptions,
  NEUTRAL_CONFIDENCE,
} from './options'
import type { Confidence, Memory, Tier, TrustLevel } from './types'

/** The fields of a memory its lifecycle is computed from. */
export type LifecycleFields = Pick<
  Memory,
  'type' | 'confirmedAt' | 'confirmations' | 'recallCount' | 'expiresAt'
> & {
  tier?: Tier
  lastRecalledAt?: number
  /** A number 0..1; a level word from rows written before confidence became a number. */
  confidence: number | Confidence
}

/** A memory's confidence now, and what it was computed from (explanations show it). */
export interface ConfidenceReading {
  /** Current confidence, 0..1. */
  value: number
  /** Confidence at write. */
  start: number
  tier: Tier
  /** Whole days since last use. */
  idleDays: number
  ttlDays: number
  /** Recalls into a result. */
  recalls: number
  /** Confirming duplicate writes (not counting the first write). */
  confirmations: number
}

/**
 * The tier a memory belongs to: its own, else its type's default.
 *
 * @example
 * tierOf({ type: 'log' }, DEFAULT_LIFECYCLE)
 * // => 'episodic'
 */
export function tierOf(memory: { type: string; tier?: Tier }, options: LifecycleOptions): Tier {
  return memory.tier ?? options.tierByType[memory.type] ?? options.defaultTier
}

/** A confidence given as a level or a number, as a number 0..1. */
export function confidenceValue(confidence: number | Confidence): number {
  return typeof confidence === 'number' ? confidence : CONFIDENCE_VALUES[confidence]
}

/**
 * Confidence at write: the writer's own word when given (a level maps through
 * `CONFIDENCE_VALUES`), else the source's (`sourceConfidence`), capped for untrusted writes.
 *
 * @example
 * startConfidence(undefined, 'user', 'unverified', DEFAULT_LIFECYCLE)
 * // => 0.8
 */
export function startConfidence(
  given: number | Confidence | undefined,
  source: string,
  trust: TrustLevel,
  options: LifecycleOptions,
): number {
  const value =
    given !== undefined
      ? confidenceValue(given)
      : (options.sourceConfidence[source] ?? options.otherSourceConfidence)
  return CAPPED_TRUST.includes(trust) ? Math.min(value, options.untrustedCeiling) : value
}

/** When the memory was last used: written, confirmed by a duplicate, or recalled into a result. */
export function lastUsedAt(
  memory: Pick<LifecycleFields, 'confirmedAt' | 'lastRecalledAt'>,
): number {
  return Math.max(memory.confirmedAt, memory.lastRecalledAt ?? 0)
}

/** What a memory's expiry is read from. */
export type ExpiryFields = Pick<
  LifecycleFields,
  'type' | 'tier' | 'confirmedAt' | 'lastRecalledAt' | 'expiresAt'
>

/** The instant a memory expires: its explicit `expiresAt`, else one TTL after its last use. */
export function expiresAtOf(memory: ExpiryFields, options: LifecycleOptions): number {
  const byTtl = lastUsedAt(memory) + options.ttlDays[tierOf(memory, options)] * DAY_MS
  return memory.expiresAt !== undefined ? Math.min(memory.expiresAt, byTtl) : byTtl
}

/** Whether the memory has expired at `now` (see {@link expiresAtOf}). */
export function isExpired(memory: ExpiryFields, now: number, options: LifecycleOptions): boolean {
  return expiresAtOf(memory, options) <= now
}

/**
 * The memory's confidence at `now`: its confidence at write, reinforced by each use (a recall
 * or a confirming duplicate closes `reinforcement` of the gap to 1), halved over each TTL of
 * its tier since last use. Nothing is stored: the value follows from the row's timestamps.
 * A last use in the future (clock skew) counts as now.
 *
 * @example
 * // episodic, written at 0.9, unused for 15 days, never recalled
 * confidenceAt(memory, memory.confirmedAt + 15 * DAY_MS, DEFAULT_LIFECYCLE).value
 * // => 0.6363961030678928
 */
export function confidenceAt(
  memory: LifecycleFields,
  now: number,
  options: LifecycleOptions,
): ConfidenceReading {
  const start = confidenceValue(memory.confidence)
  const tier = tierOf(memory, options)
  const ttlDays = options.ttlDays[tier]
  const idle = Math.max(0, now - lastUsedAt(memory))
  const confirmations = Math.max(0, memory.confirmations - 1)
  const uses = memory.recallCount + confirmations
  const reinforced = 1 - (1 - start) * (1 - options.reinforcement) ** uses
  const value = reinforced * 0.5 ** (idle / (ttlDays * DAY_MS))
  return {
    value,
    start,
    tier,
    idleDays: Math.floor(idle / DAY_MS),
    ttlDays,
    recalls: memory.recallCount,
    confirmations,
  }
}

/**
 * The confidence reading as explanations show it (labelling the confidence boost).
 *
 * @example
 * describeConfidence({ value: 0.62, start: 0.9, tier: 'episodic', idleDays: 15, ttlDays: 30,
 *   recalls: 3, confirmations: 0 })
 * // => 'confidence 0.62 (0.90 at write; episodic, 15 of 30 days; recalled 3 times)'
 */
export function describeConfidence(r: ConfidenceReading): string {
  const uses = [`${r.tier}, ${r.idleDays} of ${r.ttlDays} days`]
  if (r.recalls > 0) uses.push(`recalled ${r.recalls} ${r.recalls === 1 ? 'time' : 'times'}`)
  if (r.confirmations > 0)
    uses.push(`confirmed ${r.confirmations} ${r.confirmations === 1 ? 'time' : 'times'}`)
  return `confidence ${r.value.toFixed(2)} (${r.start.toFixed(2)} at write; ${uses.join('; ')})`
}

/**
 * The ranking factor of a confidence: 1 at `NEUTRAL_CONFIDENCE` (`medium`), linear through
 * `high` → `highFactor` and `low` → `lowFactor`, so the level words boost as they always did.
 *
 * @example
 * confidenceFactor(0.9, 1.2, 0.8)
 * // => 1.2
 */
export function confidenceFactor(value: number, highFactor: number, lowFactor: number): number {
  const factor =
    value >= NEUTRAL_CONFIDENCE
      ? 1 +
        ((value - NEUTRAL_CONFIDENCE) / (CONFIDENCE_VALUES.high - NEUTRAL_CONFIDENCE)) *
          (highFactor - 1)
      : 1 -
        ((NEUTRAL_CONFIDENCE - value) / (NEUTRAL_CONFIDENCE - CONFIDENCE_VALUES.low)) *
          (1 - lowFactor)
  // Rounded to 3 places: explanations read 1.2, not 1.2000000000000002, and the few hours a
  // fresh memory has aged leave it neutral (x1) rather than x0.9998.
  return Math.round(factor * 1e3) / 1e3
}

/** Share of the gap to 1 a `useful` verdict closes, and what a `wrong` one keeps. */
const USEFUL_GAIN = 0.25
const WRONG_KEEP = 0.5

/**
 * The fields a feedback verdict changes on a memory at `now`: `useful` re-bases the confidence
 * at write on the current value raised by a quarter of its gap to 1, and counts as a use
 * (`confirmedAt`); `wrong` halves the current value and flags `needsReview`; `outdated` sets
 * `expiresAt` to now. Pure.
 *
 * @example
 * feedbackFields(memory, 'wrong', now, DEFAULT_LIFECYCLE) // memory at 0.8, used just now
 * // => { confidence: 0.4, needsReview: true }
 */
export function feedbackFields(
  memory: LifecycleFields,
  verdict: 'useful' | 'wrong' | 'outdated',
  now: number,
  options: LifecycleOptions,
): Partial<Pick<Memory, 'confidence' | 'confirmedAt' | 'needsReview' | 'expiresAt'>> {
  const current = confidenceAt(memory, now, options).value
  if (verdict === 'outdated') return { expiresAt: now }
  if (verdict === 'wrong') return { confidence: current * WRONG_KEEP, needsReview: true }
  return { confidence: current + (1 - current) * USEFUL_GAIN, confirmedAt: now }
}
