import { describe, expect, it } from 'vitest'
import { estimateTokens } from '../../../src/agent/token-estimate.ts'

describe('estimateTokens', () => {
  it('counts a token per four ASCII characters, rounding up', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('abc')).toBe(1)
    expect(estimateTokens('abcd')).toBe(1)
    expect(estimateTokens('abcde')).toBe(2)
    expect(estimateTokens('The owner prefers metric units')).toBe(8)
  })

  it('counts every non-ASCII code point as a token of its own', () => {
    expect(estimateTokens('東京に住んでいる')).toBe(8)
    // One emoji is one code point (two UTF-16 units) and one token.
    expect(estimateTokens('🙂')).toBe(1)
    expect(estimateTokens('café')).toBe(2)
  })
})
