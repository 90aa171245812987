import { describe, expect, it } from 'vitest'
import { DAY_MS, DEFAULT_BOOSTS } from '../../../../src/core/options'
import {
  boostFactor,
  computeBoosts,
  happenedSpan,
  overlapsTime,
  timeBoost,
  whenBoost,
} from '../../../../src/core/recall/boosts'
import { formatWindow } from '../../../../src/core/time/index.ts'

const now = Date.UTC(2026, 0, 31)
const plain = { confirmedAt: now - 365 * DAY_MS, confidence: 'medium' as const, recallCount: 0 }

describe('computeBoosts', () => {
  it('gives no boost to an old, medium-confidence, never recalled memory', () => {
    expect(computeBoosts(plain, now, DEFAULT_BOOSTS)).toEqual([])
  })

  it('boosts a memory confirmed within the recency window, the boundary included', () => {
    const recent = { ...plain, confirmedAt: now - DAY_MS }
    expect(computeBoosts(recent, now, DEFAULT_BOOSTS)).toEqual([{ name: 'recency', factor: 1.2 }])
    const edge = { ...plain, confirmedAt: now - 30 * DAY_MS }
    expect(computeBoosts(edge, now, DEFAULT_BOOSTS)).toEqual([{ name: 'recency', factor: 1.2 }])
    const outside = { ...plain, confirmedAt: now - 30 * DAY_MS - 1 }
    expect(computeBoosts(outside, now, DEFAULT_BOOSTS)).toEqual([])
  })

  it('counts a confirmation in the future (clock skew) as recent', () => {
    const skewed = { ...plain, confirmedAt: now + 5000 }
    expect(computeBoosts(skewed, now, DEFAULT_BOOSTS)).toEqual([{ name: 'recency', factor: 1.2 }])
  })

  it('boosts high confidence and damps low confidence', () => {
    expect(computeBoosts({ ...plain, confidence: 'high' }, now, DEFAULT_BOOSTS)).toEqual([
      { name: 'confidence', factor: 1.2 },
    ])
    expect(computeBoosts({ ...plain, confidence: 'low' }, now, DEFAULT_BOOSTS)).toEqual([
      { name: 'confidence', factor: 0.8 },
    ])
  })

  it('grows the frequency boost per recall up to its cap', () => {
    expect(computeBoosts({ ...plain, recallCount: 3 }, now, DEFAULT_BOOSTS)).toEqual([
      { name: 'frequency', factor: 1.03 },
    ])
    expect(computeBoosts({ ...plain, recallCount: 500 }, now, DEFAULT_BOOSTS)).toEqual([
      { name: 'frequency', factor: 1.1 },
    ])
  })

  it('lists every boost in order: recency, confidence, frequency', () => {
    const all = { confirmedAt: now, confidence: 'high' as const, recallCount: 1 }
    expect(computeBoosts(all, now, DEFAULT_BOOSTS).map((b) => b.name)).toEqual([
      'recency',
      'confidence',
      'frequency',
    ])
  })

  it('leaves out boosts whose factor is exactly 1', () => {
    const options = { ...DEFAULT_BOOSTS, recency: 1, highConfidence: 1 }
    const memory = { confirmedAt: now, confidence: 'high' as const, recallCount: 0 }
    expect(computeBoosts(memory, now, options)).toEqual([])
  })
})

describe('boostFactor', () => {
  it('is 1 without boosts', () => {
    expect(boostFactor([])).toBe(1)
  })

  it('multiplies the factors', () => {
    expect(
      boostFactor([
        { name: 'recency', factor: 1.2 },
        { name: 'confidence', factor: 0.8 },
      ]),
    ).toBeCloseTo(0.96, 12)
  })
})

describe('the time of a memory', () => {
  const stored = { createdAt: 100 }
  it('is its createdAt, its happenedAt, or its interval', () => {
    expect(happenedSpan(stored)).toEqual([100, 100])
    expect(happenedSpan({ ...stored, happenedAt: 10 })).toEqual([10, 10])
    expect(happenedSpan({ ...stored, happenedAt: 10, happenedUntil: 20 })).toEqual([10, 20])
    // An end without a start is not an interval (writes refuse it; an old row is read as stored).
    expect(happenedSpan({ ...stored, happenedUntil: 20 })).toEqual([100, 100])
  })

  it('overlaps a window with the start inside and the end outside', () => {
    const stay = { ...stored, happenedAt: 10, happenedUntil: 20 }
    expect(overlapsTime(stay, 20, 30)).toBe(true)
    expect(overlapsTime(stay, 21, 30)).toBe(false)
    expect(overlapsTime(stay, 0, 10)).toBe(false)
    expect(overlapsTime(stay, 0, 11)).toBe(true)
    expect(overlapsTime(stay, undefined, undefined)).toBe(true)
    expect(overlapsTime(stored, 101, undefined)).toBe(false)
  })

  it('earns the time boost in the first window it overlaps, named by its days', () => {
    const may = { start: Date.UTC(2023, 4, 1), end: Date.UTC(2023, 5, 1) }
    const june = { start: Date.UTC(2023, 5, 1), end: Date.UTC(2023, 6, 1) }
    const memory = { createdAt: 0, happenedAt: Date.UTC(2023, 5, 3) }
    expect(timeBoost(memory, [may, june], 1.3, formatWindow)).toEqual({
      name: 'time',
      factor: 1.3,
      detail: 'in window 2023-06-01..2023-06-30 ×1.3',
    })
    expect(timeBoost(memory, [may], 1.3, formatWindow)).toBeUndefined()
    expect(timeBoost(memory, [june], 1, formatWindow)).toBeUndefined()
  })
})

describe('whenBoost', () => {
  it('boosts a text that names a time, read against its own time, and not one that names none', () => {
    const at = { createdAt: now }
    expect(whenBoost({ ...at, text: 'We moved to Porto last May' }, 1.3)).toEqual({
      name: 'time',
      factor: 1.3,
      detail: 'for "when": names a time ×1.3',
    })
    expect(whenBoost({ ...at, text: 'We moved to Porto with the kids' }, 1.3)).toBeUndefined()
    expect(whenBoost({ ...at, text: 'You may move to Porto' }, 1.3)).toBeUndefined()
    expect(whenBoost({ ...at, text: 'We moved yesterday' }, 1)).toBeUndefined()
  })
})
