import { confidenceFactor, confidenceValue } from '../lifecycle'
import { type BoostOptions, DAY_MS } from '../options'
import { findTimeWindows } from '../time/index.ts'
import type { Boost, Confidence, Memory } from '../types'

/**
 * The multiplicative boosts a memory earns at recall time `now` (epoch ms): recency when it was
 * confirmed within `recencyDays` (a `confirmedAt` in the future, from clock skew, counts as
 * recent), confidence away from `medium` (`current`, the lifecycle's reading at `now`, else the
 * confidence at write; see `confidenceFactor`), and frequency for past recalls,
 * `min(frequencyCap, 1 + frequencyStep × recallCount)`. Factors of exactly 1 are left out, so
 * an empty array means no boost. Order: recency, confidence, frequency.
 *
 * @example
 * computeBoosts({ confirmedAt: now - DAY_MS, confidence: 'high', recallCount: 3 }, now, DEFAULT_BOOSTS)
 * // => [{ name: 'recency', factor: 1.2 }, { name: 'confidence', factor: 1.2 }, { name: 'frequency', factor: 1.03 }]
 */
export function computeBoosts(
  memory: Pick<Memory, 'confirmedAt' | 'recallCount'> & { confidence: number | Confidence },
  now: number,
  options: BoostOptions,
  current?: number,
): Boost[] {
  const boosts: Boost[] = []
  const add = (name: Boost['name'], factor: number) => {
    if (factor !== 1) boosts.push({ name, factor })
  }
  if (now - memory.confirmedAt <= options.recencyDays * DAY_MS) add('recency', options.recency)
  const confidence = current ?? confidenceValue(memory.confidence)
  add('confidence', confidenceFactor(confidence, options.highConfidence, options.lowConfidence))
  if (memory.recallCount > 0) {
    // Rounded so 1 + 0.01 × 3 reads 1.03 rather than 1.0300000000000002 in explanations.
    const factor = Math.min(options.frequencyCap, 1 + options.frequencyStep * memory.recallCount)
    add('frequency', Math.round(factor * 1e9) / 1e9)
  }
  return boosts
}

/**
 * The combined factor of a set of boosts: their product, 1 when there are none.
 *
 * @example
 * boostFactor([{ name: 'recency', factor: 1.2 }, { name: 'confidence', factor: 0.8 }])
 * // => 0.96
 */
export function boostFactor(boosts: readonly Boost[]): number {
  let factor = 1
  for (const boost of boosts) factor *= boost.factor
  return factor
}

/**
 * The span of time a memory tells of, epoch ms, both ends inclusive: `[happenedAt,
 * happenedUntil]`, an instant `happenedAt` alone, else its `createdAt`.
 *
 * @example
 * happenedSpan({ createdAt: 9, happenedAt: 3, happenedUntil: 5 })
 * // => [3, 5]
 */
export function happenedSpan(
  memory: Pick<Memory, 'createdAt' | 'happenedAt' | 'happenedUntil'>,
): [first: number, last: number] {
  const first = memory.happenedAt ?? memory.createdAt
  return [first, memory.happenedAt === undefined ? first : (memory.happenedUntil ?? first)]
}

/**
 * Whether a memory's time ({@link happenedSpan}) overlaps `[start, end)`; either bound may be
 * absent (no bound on that side). The one rule of the time boost, `since`/`until` and
 * `timeline`.
 *
 * @example
 * overlapsTime({ createdAt: 9, happenedAt: 3, happenedUntil: 5 }, 5, 10)
 * // => true
 */
export function overlapsTime(
  memory: Pick<Memory, 'createdAt' | 'happenedAt' | 'happenedUntil'>,
  start: number | undefined,
  end: number | undefined,
): boolean {
  const [first, last] = happenedSpan(memory)
  return (start === undefined || last >= start) && (end === undefined || first < end)
}

/**
 * The time boost: `factor` when the memory's time overlaps one of `windows` (the first it
 * overlaps names it), else none. `label` writes a window as its days (`formatWindow`).
 *
 * @example
 * timeBoost(memory, findTimeWindows('in May 2023', now), 1.3, formatWindow)
 * // => { name: 'time', factor: 1.3, detail: 'in window 2023-05-01..2023-05-31 ×1.3' }
 */
export function timeBoost(
  memory: Pick<Memory, 'createdAt' | 'happenedAt' | 'happenedUntil'>,
  windows: readonly { start: number; end: number }[],
  factor: number,
  label: (window: { start: number; end: number }) => string,
): Boost | undefined {
  if (factor === 1) return undefined
  const window = windows.find((w) => overlapsTime(memory, w.start, w.end))
  if (!window) return undefined
  return { name: 'time', factor, detail: `in window ${label(window)} ×${factor}` }
}

/**
 * The "when" boost: a question that asks when ("When did Ana move?", see `asksWhen`) names no
 * window, but the memory that answers it usually names a time ("we moved last May"), so a
 * memory whose text holds a time expression (read against its own time) earns `factor`. On
 * LoCoMo's temporal questions it lifted semantic hit@5 +0.11 to +0.22 and hybrid hit@1 on the
 * held-out conversations 0.576 → 0.636, losing nothing over all questions
 * (`scripts/eval/temporal.ts`, `mentioned+when`). `named` answers whether the memory names a
 * time ({@link namesTime} unless the caller keeps the answers).
 *
 * @example
 * whenBoost({ text: 'We moved to Porto last May', createdAt: now }, 1.3)
 * // => { name: 'time', factor: 1.3, detail: 'for "when": names a time ×1.3' }
 */
export function whenBoost<M extends Pick<Memory, 'text' | 'createdAt' | 'happenedAt'>>(
  memory: M,
  factor: number,
  named: (memory: M) => boolean = namesTime,
): Boost | undefined {
  if (factor === 1 || !named(memory)) return undefined
  return { name: 'time', factor, detail: `for "when": names a time ×${factor}` }
}

/** Whether the memory's text names a time, read against its own time (what {@link whenBoost} asks). */
export function namesTime(memory: Pick<Memory, 'text' | 'createdAt' | 'happenedAt'>): boolean {
  return findTimeWindows(memory.text, memory.happenedAt ?? memory.createdAt).length > 0
}
