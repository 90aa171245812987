import { describe, expect, it } from 'vitest'
import type { RankedList } from '../../../../src/core/fusion.ts'
import { DEFAULT_RETRIEVAL } from '../../../../src/core/options.ts'
import { fuseLists, fusionOf } from '../../../../src/engine/recall/fuse.ts'

const keyword: RankedList = {
  name: 'keyword',
  items: [
    { id: 'a', score: 9 },
    { id: 'b', score: 4 },
  ],
}
const vectorList: RankedList = { name: 'vector', items: [{ id: 'b', score: 0.8 }] }

describe('fuseLists', () => {
  it('fuses by score by default, scoring a keyword candidate the vector list left out by its cosine', () => {
    const vector = {
      list: vectorList,
      cosines: new Map([
        ['a', 0.6],
        ['b', 0.8],
      ]),
    }
    const withCosine = fuseLists([keyword, vectorList], vector, DEFAULT_RETRIEVAL)
    const without = fuseLists(
      [keyword, vectorList],
      { list: vectorList, cosines: new Map([['b', 0.8]]) },
      DEFAULT_RETRIEVAL,
    )
    expect(withCosine.method).toBe('score')
    const fusedA = (f: typeof withCosine) => f.candidates.find((c) => c.id === 'a')!.fused
    expect(fusedA(withCosine)).toBeGreaterThan(fusedA(without))
  })

  it('bounds a candidate the deep read left out by the read’s last cosine', () => {
    const vector = { list: vectorList, cosines: new Map([['b', 0.8]]), cosineBound: 0.5 }
    const bounded = fuseLists([keyword, vectorList], vector, DEFAULT_RETRIEVAL)
    const unbounded = fuseLists(
      [keyword, vectorList],
      { ...vector, cosineBound: undefined },
      DEFAULT_RETRIEVAL,
    )
    const fusedA = (f: typeof bounded) => f.candidates.find((c) => c.id === 'a')!.fused
    expect(fusedA(bounded)).toBeGreaterThan(fusedA(unbounded))
  })

  it('uses reciprocal rank fusion when asked', () => {
    const fused = fuseLists([keyword, vectorList], undefined, {
      ...DEFAULT_RETRIEVAL,
      fusion: 'rrf',
    })
    expect(fused.method).toBe('rrf')
    expect(fused.candidates.map((c) => [c.id, c.fused.toFixed(4)])).toEqual([
      ['b', '0.0325'],
      ['a', '0.0164'],
    ])
  })

  it('leaves BM25 near-ties alone when there is no vector list to settle them', () => {
    const near: RankedList = {
      name: 'keyword',
      items: [
        { id: 'x', score: 4.2 },
        { id: 'y', score: 4.0 },
      ],
    }
    const fused = fuseLists([near], undefined, DEFAULT_RETRIEVAL)
    expect(fused.candidates[0]!.fused).toBeGreaterThan(fused.candidates[1]!.fused)
  })
})

describe('fusionOf', () => {
  it('fills in the default fusion and keeps a given tie epsilon', () => {
    expect(fusionOf({})).toEqual({ fusion: 'score' })
    expect(fusionOf({ fusion: 'rrf', tieEpsilon: 0.2 })).toEqual({ fusion: 'rrf', tieEpsilon: 0.2 })
  })
})
