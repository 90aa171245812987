import { describe, expect, it } from 'vitest'
import { PlainBm25 } from '../../../scripts/eval/baseline.ts'

describe('PlainBm25 (the evaluation baseline)', () => {
  it('ranks by Okapi BM25 with lower-case alphanumeric tokens and no stemming', () => {
    const bm25 = new PlainBm25()
    bm25.add('a', 'The cat sat on the mat')
    bm25.add('b', 'Cats are independent')
    bm25.add('c', 'A CAT and another cat')
    bm25.add('d', 'Dogs bark')
    // "cats" matches only b: no stemming.
    expect(bm25.search('cats', 10)).toEqual(['b'])
    // Two occurrences of a rare term beat one; d shares nothing.
    expect(bm25.search('cat', 10)).toEqual(['c', 'a'])
    expect(bm25.search('zebra', 10)).toEqual([])
  })

  it('returns at most k ids and keeps insertion order on ties', () => {
    const bm25 = new PlainBm25()
    for (const id of ['x', 'y', 'z']) bm25.add(id, 'same words here')
    expect(bm25.search('words', 2)).toEqual(['x', 'y'])
  })
})
