import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors'
import { explainHit, viaOf } from '../../../src/core/explain'

const kw = { rank: 2, score: 4.213 }
const vec = { rank: 1, score: 0.8102 }
const one = { rank: 1, score: 1 }

describe('viaOf', () => {
  it('says both when keyword and vector lists found the memory', () => {
    expect(viaOf({ keyword: kw, vector: vec })).toBe('both')
    expect(viaOf({ keyword: kw, vector: vec, alias: one, tag: one })).toBe('both')
  })

  it('prefers kw, then vec, then alias, then tag', () => {
    expect(viaOf({ keyword: kw, alias: one, tag: one })).toBe('kw')
    expect(viaOf({ vector: vec, alias: one })).toBe('vec')
    expect(viaOf({ alias: one, tag: one })).toBe('alias')
    expect(viaOf({ tag: one })).toBe('tag')
  })

  it('throws when no list found the memory', () => {
    expect(() => viaOf({})).toThrow(InvalidInputError)
  })
})

describe('explainHit', () => {
  it('writes the hybrid line with scores, fused score, boosts and rank', () => {
    const line = explainHit({
      terms: ['deploy', 'script'],
      lists: { keyword: kw, vector: vec },
      cosine: 0.8102,
      fused: 0.032522,
      boosts: [{ name: 'recency', factor: 1.2 }],
      rank: 1,
    })
    expect(line).toBe(
      'matched [deploy, script] (bm25 4.21 #2) + semantic 0.81 (#1) -> rrf 0.0325; boosts: recency x1.2 -> #1',
    )
  })

  it('says no boosts when there are none', () => {
    const line = explainHit({
      terms: ['priya'],
      lists: { keyword: { rank: 1, score: 7 } },
      fused: 0.016393,
      boosts: [],
      rank: 3,
    })
    expect(line).toBe('matched [priya] (bm25 7.00 #1) -> rrf 0.0164; no boosts -> #3')
  })

  it('lists several boosts in order with short factors', () => {
    const line = explainHit({
      terms: [],
      lists: { vector: { rank: 4, score: 0.5 } },
      cosine: 0.456,
      fused: 0.015625,
      boosts: [
        { name: 'recency', factor: 1.2 },
        { name: 'confidence', factor: 0.8 },
        { name: 'frequency', factor: 1.03 },
      ],
      rank: 2,
    })
    expect(line).toBe(
      'semantic 0.46 (#4) -> rrf 0.0156; boosts: recency x1.2, confidence x0.8, frequency x1.03 -> #2',
    )
  })

  it('uses the vector score when no cosine is given', () => {
    const line = explainHit({
      terms: [],
      lists: { vector: vec },
      fused: 0.0164,
      boosts: [],
      rank: 1,
    })
    expect(line).toBe('semantic 0.81 (#1) -> rrf 0.0164; no boosts -> #1')
  })

  it('names alias and tag evidence', () => {
    const line = explainHit({
      terms: ['fh-2291'],
      lists: { keyword: { rank: 1, score: 12.5 }, alias: one, tag: { rank: 3, score: 1 } },
      fused: 0.0489,
      boosts: [],
      rank: 1,
    })
    expect(line).toBe(
      'matched [fh-2291] (bm25 12.50 #1) + alias (#1) + tag (#3) -> rrf 0.0489; no boosts -> #1',
    )
  })

  it('says keyword when the matched terms are unknown', () => {
    const line = explainHit({
      terms: [],
      lists: { keyword: kw },
      fused: 0.0161,
      boosts: [],
      rank: 5,
    })
    expect(line).toBe('keyword (bm25 4.21 #2) -> rrf 0.0161; no boosts -> #5')
  })

  it('writes a tiny fused score in exponent form', () => {
    const line = explainHit({
      terms: [],
      lists: { tag: one },
      fused: 0.0000164,
      boosts: [],
      rank: 9,
    })
    expect(line).toBe('tag (#1) -> rrf 1.64e-5; no boosts -> #9')
  })
})

describe('explainHit names a boost by its detail', () => {
  it('prints the time window of a time boost without repeating its factor', () => {
    const line = explainHit({
      terms: ['ana'],
      lists: { keyword: { rank: 1, score: 3 } },
      fused: 0.0164,
      boosts: [
        { name: 'recency', factor: 1.2 },
        { name: 'time', factor: 1.3, detail: 'in window 2023-05-01..2023-05-31 ×1.3' },
        { name: 'time', factor: 1.25, detail: 'for "when": names a time ×1.25' },
      ],
      rank: 1,
    })
    expect(line).toBe(
      'matched [ana] (bm25 3.00 #1) -> rrf 0.0164; boosts: recency x1.2, ' +
        'time in window 2023-05-01..2023-05-31 x1.3, time for "when": names a time x1.25 -> #1',
    )
  })

  it('prints a detail that carries no factor whole, and the confidence reading over any detail', () => {
    const line = explainHit({
      terms: [],
      lists: { tag: one },
      fused: 0.5,
      confidence: 'confidence 0.62 (0.90 at write)',
      boosts: [
        { name: 'time', factor: 1.3, detail: 'in window 2024-03-04..2024-03-10' },
        { name: 'confidence', factor: 0.98, detail: 'ignored' },
      ],
      rank: 2,
    })
    expect(line).toBe(
      'tag (#1) -> rrf 0.5000; boosts: time in window 2024-03-04..2024-03-10 x1.3, ' +
        'confidence 0.62 (0.90 at write) x0.98 -> #2',
    )
  })
})

describe('explainHit for the score fusion', () => {
  it('names the fused score and shows a cosine computed outside the vector list', () => {
    const line = explainHit({
      method: 'score',
      terms: ['priya'],
      lists: { keyword: { rank: 1, score: 7 } },
      cosine: 0.3141,
      fused: 1.2345,
      boosts: [],
      rank: 1,
    })
    expect(line).toBe(
      'matched [priya] (bm25 7.00 #1) + cosine 0.31 (unranked) -> fused 1.2345; no boosts -> #1',
    )
  })
})
