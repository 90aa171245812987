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
  it('packs whole items, falls back to a summary, and stops at the first that fits neither', () => {
    const items = [
      { text: 'a'.repeat(40) },
      { text: 'b'.repeat(400), summary: 'short one' },
      { text: 'c'.repeat(400) },
      { text: 'd' },
    ]
    expect(packToBudget(items, 14)).toEqual([
      { index: 0, resolution: 'full', tokens: 10 },
      { index: 1, resolution: 'summary', tokens: 3 },
    ])
    expect(packToBudget(items, 5)).toEqual([])
  })
})
