import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TopK } from '../../../src/core/top-k'

describe('TopK', () => {
  it('keeps the k best scores, best first', () => {
    const top = new TopK(3)
    for (const [i, s] of [0.1, 0.9, 0.5, 0.3, 0.7].entries()) top.push(i, s)
    expect(top.drain()).toEqual([
      { index: 1, score: 0.9 },
      { index: 4, score: 0.7 },
      { index: 2, score: 0.5 },
    ])
  })

  it('breaks ties by the lower index whatever the push order', () => {
    const top = new TopK(2)
    top.push(5, 1)
    top.push(3, 1)
    top.push(9, 1)
    top.push(1, 1)
    expect(top.drain()).toEqual([
      { index: 1, score: 1 },
      { index: 3, score: 1 },
    ])
  })

  it('returns fewer than k entries when fewer were pushed', () => {
    const top = new TopK(5)
    top.push(2, -1)
    top.push(7, 3)
    expect(top.size).toBe(2)
    expect(top.drain()).toEqual([
      { index: 7, score: 3 },
      { index: 2, score: -1 },
    ])
  })

  it('reports the worst kept score as the threshold once full', () => {
    const top = new TopK(2)
    expect(top.threshold).toBe(Number.NEGATIVE_INFINITY)
    top.push(0, 4)
    top.push(1, 2)
    expect(top.threshold).toBe(2)
    top.push(2, 3)
    expect(top.threshold).toBe(3)
  })

  it('keeps nothing when k is 0', () => {
    const top = new TopK(0)
    top.push(0, 1)
    expect(top.threshold).toBe(Number.POSITIVE_INFINITY)
    expect(top.drain()).toEqual([])
  })

  it('ignores NaN scores', () => {
    const top = new TopK(2)
    top.push(0, Number.NaN)
    top.push(1, 1)
    expect(top.drain()).toEqual([{ index: 1, score: 1 }])
  })

  it('is empty and reusable after drain', () => {
    const top = new TopK(2)
    top.push(0, 1)
    top.drain()
    expect(top.size).toBe(0)
    top.push(4, 2)
    expect(top.drain()).toEqual([{ index: 4, score: 2 }])
  })

  it('rejects a negative or fractional k', () => {
    expect(() => new TopK(-1)).toThrow(RangeError)
    expect(() => new TopK(1.5)).toThrow(RangeError)
  })

  it('matches a full sort on any input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 30 }),
        (scores, k) => {
          const top = new TopK(k)
          for (const [i, s] of scores.entries()) top.push(i, s)
          const expected = scores
            .map((score, index) => ({ index, score }))
            .sort((a, b) => b.score - a.score || a.index - b.index)
            .slice(0, k)
          expect(top.drain()).toEqual(expected)
        },
      ),
    )
  })
})
