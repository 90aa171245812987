import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quantiseQuery, quantiseRow, rowLayout } from '../../../../src/core/vector/quantise.ts'
import { Refiner } from '../../../../src/core/vector/refiner.ts'
import { dot, SEED, unitVectors } from './fixtures.ts'

/** `rows` quantised with `bits` planes, and what the refiner needs to score them. */
function quantised(rows: Float32Array[], bits: number) {
  const dims = rows[0]?.length ?? 1
  const layout = rowLayout(dims, bits)
  const codes = new Int8Array(rows.length * layout.stride)
  const residuals = new Uint32Array(rows.length * bits * layout.words)
  const steps = rows.map((v, r) => quantiseRow(v, layout, codes, residuals, r))
  return { layout, codes, residuals, steps }
}

/** Scores every row the way a search does: integer dot from the codes, then the refiner. */
function refinedScores(rows: Float32Array[], query: Float32Array, bits: number): number[] {
  const { layout, codes, residuals, steps } = quantised(rows, bits)
  const q = new Int16Array(layout.stride)
  const scale = quantiseQuery(query, q, layout.stride)
  const refiner = new Refiner(layout).prepare(query)
  return rows.map((_, r) => {
    let scanned = 0
    for (let i = 0; i < layout.dims; i++) {
      scanned += (codes[r * layout.stride + i] as number) * (q[i] as number)
    }
    return refiner.score(scanned, scale, r, residuals, steps[r] as number)
  })
}

describe('Refiner', () => {
  it('adds to the int8 part exactly Σ q × the bin centre of each residual, per row', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer(),
        (dims, bits, seed) => {
          const [query, ...rows] = unitVectors(4, dims, seed) as Float32Array[]
          const { layout, codes, residuals, steps } = quantised(rows, bits)
          const q = new Int16Array(layout.stride)
          const scale = quantiseQuery(query as Float32Array, q, layout.stride)
          const refiner = new Refiner(layout).prepare(query as Float32Array)
          rows.forEach((_, r) => {
            let scanned = 0
            let expected = 0
            for (let i = 0; i < dims; i++) {
              const code = codes[r * layout.stride + i] as number
              scanned += code * (q[i] as number)
              let level = 0
              for (let p = 0; p < bits; p++) {
                const word = residuals[(r * bits + p) * layout.words + (i >>> 5)] as number
                if ((word >>> (i & 31)) & 1) level |= 1 << p
              }
              const centre = bits === 0 ? 0 : (level + 0.5) / 2 ** bits - 0.5
              expected +=
                ((code * (q[i] as number)) / scale + centre * (query as Float32Array)[i]!) *
                steps[r]!
            }
            const score = refiner.score(scanned, scale, r, residuals, steps[r] as number)
            expect(score).toBeCloseTo(expected, 12)
          })
        },
      ),
      { seed: SEED, numRuns: 200 },
    )
  })

  it('halves its error, or near, with each further bit', () => {
    const [query, ...rows] = unitVectors(801, 384, 3) as Float32Array[]
    const exact = rows.map((v) => dot(query as Float32Array, v))
    const meanError = (bits: number) => {
      const scores = refinedScores(rows, query as Float32Array, bits)
      return scores.reduce((s, x, r) => s + Math.abs(x - (exact[r] as number)), 0) / rows.length
    }
    const errors = [0, 1, 2, 3, 4].map(meanError)
    for (let b = 1; b < errors.length; b++) {
      expect(errors[b]).toBeLessThan(0.6 * (errors[b - 1] as number))
    }
    // Three bits: about 3e-5 mean error on 384-dim unit vectors, far below neighbour gaps.
    expect(errors[3]).toBeLessThan(1e-4)
  })

  it('scores a zero query 0 for every row', () => {
    const rows = unitVectors(3, 40, 9)
    expect(refinedScores(rows, new Float32Array(40), 3)).toEqual([0, 0, 0])
  })
})
