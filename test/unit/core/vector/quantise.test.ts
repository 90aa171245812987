import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CODE_MAX,
  quantiseQuery,
  quantiseRow,
  queryMax,
  rowLayout,
  strideFor,
} from '../../../../src/core/vector/quantise.ts'
import { SEED, unitVectors } from './fixtures.ts'

/** Component i as the refiner reads it back: code + bin centre of its residual level. */
function reconstruct(
  layout: ReturnType<typeof rowLayout>,
  codes: Int8Array,
  residuals: Uint32Array,
  step: number,
): number[] {
  const { dims, words, bits } = layout
  return Array.from({ length: dims }, (_, i) => {
    let level = 0
    for (let p = 0; p < bits; p++) {
      if (((residuals[p * words + (i >>> 5)] as number) >>> (i & 31)) & 1) level |= 1 << p
    }
    const centre = bits === 0 ? 0 : (level + 0.5) / 2 ** bits - 0.5
    return ((codes[i] as number) + centre) * step
  })
}

describe('quantise', () => {
  it('pads rows to whole SIMD blocks and unrolled chunks', () => {
    expect([1, 16, 100, 384, 768, 1000, 1536].map(strideFor)).toEqual([
      16, 16, 112, 384, 768, 1024, 1536,
    ])
  })

  it('reads every component back within half a residual bin, for 0..8 bits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer(),
        (dims, bits, seed) => {
          const layout = rowLayout(dims, bits)
          const vector = unitVectors(1, dims, seed)[0] as Float32Array
          const codes = new Int8Array(layout.stride)
          const residuals = new Uint32Array(bits * layout.words)
          const step = quantiseRow(vector, layout, codes, residuals, 0)
          const max = Math.max(...vector.map(Math.abs))
          expect(step).toBeCloseTo(max / CODE_MAX, 9)
          const back = reconstruct(layout, codes, residuals, step)
          for (let i = 0; i < dims; i++) {
            expect(Math.abs(codes[i] as number)).toBeLessThanOrEqual(CODE_MAX)
            const error = Math.abs((back[i] as number) - (vector[i] as number))
            expect(error).toBeLessThanOrEqual(step / 2 ** (bits + 1) + 1e-9)
          }
        },
      ),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('zeroes the padding and the old residual bits of a reused row, leaving other rows alone', () => {
    const layout = rowLayout(20, 3)
    const planes = 3 * layout.words
    const vector = unitVectors(1, 20, 5)[0] as Float32Array
    const codes = new Int8Array(2 * layout.stride).fill(-7)
    const residuals = new Uint32Array(2 * planes).fill(0xffffffff)
    quantiseRow(vector, layout, codes, residuals, 1)
    const clean = new Uint32Array(2 * planes)
    quantiseRow(vector, layout, new Int8Array(2 * layout.stride), clean, 1)
    expect([...codes.subarray(layout.stride + 20, 2 * layout.stride)]).toEqual(
      new Array(layout.stride - 20).fill(0),
    )
    expect([...residuals.subarray(planes)]).toEqual([...clean.subarray(planes)])
    expect(codes[0]).toBe(-7)
    expect(residuals[0]).toBe(0xffffffff)
  })

  it('stores a zero vector as zero codes with step 0', () => {
    const layout = rowLayout(8, 2)
    const codes = new Int8Array(layout.stride).fill(3)
    const step = quantiseRow(new Float32Array(8), layout, codes, new Uint32Array(2), 0)
    expect(step).toBe(0)
    expect([...codes]).toEqual(new Array(layout.stride).fill(0))
  })

  it('quantises a query to int16 with its largest component at the int32-safe maximum', () => {
    const query = Float32Array.of(0.5, -0.25, 0, 0.125)
    const out = new Int16Array(4)
    const scale = quantiseQuery(query, out, 16)
    expect(scale).toBe(queryMax(16) / 0.5)
    // JavaScript rounds halves up: -0.25 × 65534 = -16383.5 becomes -16383.
    expect([...out]).toEqual([32_767, -16_383, 0, 8192])
    expect(queryMax(16_384)).toBe(Math.floor(0x7fffffff / (16_384 * CODE_MAX)))
    expect(quantiseQuery(new Float32Array(4), out, 16)).toBe(0)
  })
})
