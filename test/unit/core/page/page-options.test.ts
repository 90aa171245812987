import { describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../../../src/core/options.ts'
import {
  DEFAULT_PAGE_CHUNKING,
  resolvePageChunking,
} from '../../../../src/core/page/page-options.ts'

describe('resolvePageChunking', () => {
  it('fills in the defaults, which fit within a fact', () => {
    expect(resolvePageChunking()).toEqual(DEFAULT_PAGE_CHUNKING)
    expect(resolvePageChunking({ targetBytes: 800 }).targetBytes).toBe(800)
    expect(DEFAULT_PAGE_CHUNKING.maxBytes).toBeLessThanOrEqual(DEFAULT_LIMITS.maxTextBytes)
  })

  it('rejects sizes out of range and unknown names', () => {
    for (const options of [
      { targetBytes: 100 },
      { maxBytes: 8193 },
      { targetBytes: 4097 },
      { overlapBytes: 601 },
      { maxPageBytes: 0 },
      { targetBytes: 1.5 },
      { size: 3 },
    ]) {
      expect(() => resolvePageChunking(options as never)).toThrow(
        expect.objectContaining({ code: 'BAD_OPTION' }),
      )
    }
  })
})
