import { describe, expect, it } from 'vitest'
import { DAY_MS, DEFAULT_BOOSTS } from '../../../../src/core/options'
import { boostFactor, computeBoosts } from '../../../../src/core/recall/boosts'

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
