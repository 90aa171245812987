import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sleb, uleb } from '../../../../src/core/vector/leb128.ts'
import { SEED } from './fixtures.ts'

/** A decoder written from the specification, to check the encoders against. */
function decode(bytes: number[], signed: boolean): number {
  let result = 0
  let shift = 0
  for (const byte of bytes) {
    result += (byte & 0x7f) * 2 ** shift
    shift += 7
    if ((byte & 0x80) === 0) {
      if (signed && byte & 0x40) result -= 2 ** shift
      return result
    }
  }
  throw new Error('unterminated')
}

describe('LEB128', () => {
  it('encodes the specification’s examples', () => {
    expect(uleb(0)).toEqual([0])
    expect(uleb(127)).toEqual([0x7f])
    expect(uleb(128)).toEqual([0x80, 0x01])
    expect(uleb(624_485)).toEqual([0xe5, 0x8e, 0x26])
    expect(sleb(63)).toEqual([0x3f])
    expect(sleb(64)).toEqual([0xc0, 0x00])
    expect(sleb(-1)).toEqual([0x7f])
    expect(sleb(-123_456)).toEqual([0xc0, 0xbb, 0x78])
  })

  it('round-trips every 32-bit value in the fewest bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer(), (u, s) => {
        const a = uleb(u)
        const b = sleb(s)
        expect(decode(a, false)).toBe(u)
        expect(decode(b, true)).toBe(s)
        expect(a.length).toBe(Math.max(1, Math.ceil(Math.log2(u + 1) / 7)))
        expect(b.length).toBeLessThanOrEqual(5)
        for (const byte of [...a, ...b]) expect(byte).toBeLessThan(256)
      }),
      { seed: SEED, numRuns: 500 },
    )
  })
})
