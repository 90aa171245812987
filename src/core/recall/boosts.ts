import { confidenceFactor, confidenceValue } from '../lifecycle'
import { type BoostOptions, DAY_MS } from '../options'
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
