import { describe, expect, it } from 'vitest'
import { estimateTokens, packToBudget } from '../../../src/core/token-budget.ts'

describe('estimateTokens', () => {
  it('counts a token per 4 ASCII characters and one per other code point', () => {
    expect(estimateTokens('The owner prefers metric units')).toBe(8)
    expect(estimateTokens('東京に住んでいる')).toBe(8)
    expect(estimateTokens('')).toBe(0)
  })
})

describe('packToBudget', () => {
  it('packs whole items, falls back to a summary, and skips one that fits neither for smaller ones after it', () => {
    const items = [
      { text: 'a'.repeat(40) },
      { text: 'b'.repeat(400), summary: 'short one' },
      { text: 'c'.repeat(400) },
      { text: 'd' },
    ]
    expect(packToBudget(items, 14)).toEqual([
      { index: 0, resolution: 'full', tokens: 10 },
      { index: 1, resolution: 'summary', tokens: 3 },
      { index: 3, resolution: 'full', tokens: 1 },
    ])
    expect(packToBudget(items, 5)).toEqual([
      { index: 1, resolution: 'summary', tokens: 3 },
      { index: 3, resolution: 'full', tokens: 1 },
    ])
    expect(packToBudget(items, 0)).toEqual([])
  })

  it('keeps rank order and never exceeds the budget', () => {
    const items = [30, 2, 50, 1, 8, 3].map((n) => ({ text: 'x'.repeat(4 * n) }))
    const packed = packToBudget(items, 12)
    expect(packed.map((p) => p.index)).toEqual([1, 3, 4])
    expect(packed.reduce((sum, p) => sum + p.tokens, 0)).toBeLessThanOrEqual(12)
  })
})
