import { describe, expect, it } from 'vitest'
import {
  adaptiveShares,
  DEFAULT_ADAPTIVE_POLICY,
  type ModelCalibration,
} from '../../../src/core/adaptive-fusion'
import { combine, type RankedList } from '../../../src/core/fusion'

// USE-lite's calibration, as the model table holds it (test/unit/embedder/model-table.test.ts).
const USE: ModelCalibration = { unrelated: 0.14, spread: 0.1, nearDuplicate: 0.95, vectorShare: 3 }
const flat: ModelCalibration = { unrelated: 0.1, spread: 0.1, nearDuplicate: 0.97, vectorShare: 2 }

describe('adaptiveShares', () => {
  it('decides as its documented example shows', () => {
    const d = adaptiveShares({ queryTerms: 2, topMatched: 1, cosines: [0.62, 0.41] }, USE)
    expect(d.shares.keyword).toBeCloseTo(0.5, 12)
    expect(d.shares.vector).toBeCloseTo(1.8, 12)
    expect(d.floors.vector).toBeCloseTo(0.04, 12)
    expect(d.trust.vector).toBeCloseTo(0.6, 12)
  })

  it('trusts the keyword list by the share of query terms its top hit matched', () => {
    const share = (topMatched: number) =>
      adaptiveShares({ queryTerms: 4, topMatched, cosines: [] }, flat).shares.keyword
    expect([0, 1, 2, 4].map(share)).toEqual([0, 0.25, 0.5, 1])
    // More matches than terms (compound joins) still count as full coverage.
    expect(share(6)).toBe(1)
    expect(adaptiveShares({ queryTerms: 0, topMatched: 0, cosines: [] }, flat).shares.keyword).toBe(
      0,
    )
  })

  it('gives the vector list no say when its top two cosines tie, full say past the peak gap', () => {
    const vector = (second: number) =>
      adaptiveShares({ queryTerms: 1, topMatched: 1, cosines: [0.9, second] }, flat).trust.vector
    expect(vector(0.9)).toBe(0)
    // Lift (0.9 - 0.1) / 0.1 = 8 spreads: full; the gap alone decides.
    expect(vector(0.9 - 0.025)).toBeCloseTo(0.5, 12)
    expect(vector(0.9 - 0.05)).toBeCloseTo(1, 12)
    expect(vector(0.2)).toBeCloseTo(1, 12)
  })

  it('scales vector trust with how far the top cosine stands above the unrelated level', () => {
    const trust = (top: number) =>
      adaptiveShares({ queryTerms: 1, topMatched: 1, cosines: [top, top - 0.3] }, flat).trust.vector
    expect(trust(0.05)).toBe(0)
    expect(trust(0.1)).toBe(0)
    expect(trust(0.5)).toBeCloseTo(0.5, 12)
    expect(trust(0.9)).toBeCloseTo(1, 12)
    expect(trust(0.99)).toBe(1)
  })

  it("multiplies vector trust by the model's share and floors cosines at its unrelated level", () => {
    const d = adaptiveShares({ queryTerms: 1, topMatched: 1, cosines: [0.9, 0.1] }, flat)
    expect(d.shares.vector).toBeCloseTo(2, 12)
    expect(d.floors.vector).toBeCloseTo(
      flat.unrelated + DEFAULT_ADAPTIVE_POLICY.floorSpreads * flat.spread,
      12,
    )
  })

  it('gives no vector share without a vector list', () => {
    expect(adaptiveShares({ queryTerms: 3, topMatched: 3, cosines: [] }, USE).shares.vector).toBe(0)
  })

  it('lets a peaked vector list overturn a BM25 winner that matched one term of four', () => {
    const lists: RankedList[] = [
      {
        name: 'keyword',
        items: [
          { id: 'wrong', score: 5 },
          { id: 'right', score: 1 },
        ],
      },
      {
        name: 'vector',
        items: [
          { id: 'right', score: 0.55 },
          { id: 'wrong', score: 0.2 },
        ],
      },
    ]
    const weak = adaptiveShares({ queryTerms: 4, topMatched: 1, cosines: [0.55, 0.2] }, USE)
    expect(combine(lists, weak)[0]!.id).toBe('right')
    // The same lists with a BM25 winner that matched every term: BM25 keeps it.
    const sure = adaptiveShares({ queryTerms: 4, topMatched: 4, cosines: [0.55, 0.54] }, USE)
    expect(combine(lists, sure)[0]!.id).toBe('wrong')
  })

  it('cuts the vector trust by leadTrust only when the top BM25 score leads by leadRatio', () => {
    const policy = { ...DEFAULT_ADAPTIVE_POLICY, leadRatio: 1.5, leadTrust: 0.25 }
    const evidence = { queryTerms: 2, topMatched: 2, cosines: [0.9, 0.5] }
    const plain = adaptiveShares(evidence, USE).trust.vector
    expect(plain).toBeGreaterThan(0)
    const clear = adaptiveShares({ ...evidence, keywordScores: [6, 3] }, USE, policy)
    expect(clear.trust.vector).toBeCloseTo(0.25 * plain, 12)
    const close = adaptiveShares({ ...evidence, keywordScores: [6, 5] }, USE, policy)
    expect(close.trust.vector).toBe(plain)
    // Off by default: the same clear lead under the default rule changes nothing.
    expect(adaptiveShares({ ...evidence, keywordScores: [6, 3] }, USE).trust.vector).toBe(plain)
  })
})
