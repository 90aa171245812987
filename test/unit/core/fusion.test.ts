import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors'
import { combine, fuse, type RankedList, sharedRanks, smoothTies } from '../../../src/core/fusion'
import { DEFAULT_SCORE_SHARES } from '../../../src/core/options'
import { uniform } from '../../helpers/random.ts'

const items = (...pairs: [string, number][]) => pairs.map(([id, score]) => ({ id, score }))
const ids = (lists: RankedList[], k = 60, tieEpsilon?: number) =>
  fuse(lists, k, tieEpsilon === undefined ? {} : { tieEpsilon }).map((c) => c.id)

const rng = uniform

describe('fuse', () => {
  it('sums 1 / (k + rank) over the lists that found each id', () => {
    const fused = fuse(
      [
        { name: 'keyword', items: items(['a', 3], ['b', 2], ['c', 1]) },
        { name: 'vector', items: items(['b', 0.9], ['a', 0.5]) },
      ],
      60,
    )
    const byId = Object.fromEntries(fused.map((c) => [c.id, c.fused]))
    expect(byId.b).toBeCloseTo(1 / 62 + 1 / 61, 15)
    expect(byId.a).toBeCloseTo(1 / 61 + 1 / 62, 15)
    expect(byId.c).toBeCloseTo(1 / 63, 15)
    // a and b tie on fused, lists and best rank; b agrees better with the raw scores (2/3 + 1 > 1 + 5/9).
    expect(fused.map((c) => c.id)).toEqual(['b', 'a', 'c'])
  })

  it('records each list position, raw score and fusion rank', () => {
    const [first] = fuse(
      [
        { name: 'keyword', items: items(['x', 5], ['a', 3]) },
        { name: 'vector', items: items(['a', 0.7]) },
      ],
      60,
    )
    expect(first).toEqual({
      id: 'a',
      fused: 1 / 62 + 1 / 61,
      lists: { keyword: { rank: 2, score: 3 }, vector: { rank: 1, score: 0.7 } },
      fusionRanks: { keyword: 2, vector: 1 },
    })
  })

  it('multiplies each list contribution by its weight', () => {
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['a', 3], ['b', 2]), weight: 2 },
      { name: 'vector', items: items(['b', 0.9], ['a', 0.5]) },
    ]
    const fused = fuse(lists, 60)
    expect(fused.map((c) => c.id)).toEqual(['a', 'b'])
    expect(fused[0]?.fused).toBeCloseTo(2 / 61 + 1 / 62, 15)
    expect(fused[1]?.fused).toBeCloseTo(2 / 62 + 1 / 61, 15)
  })

  it('ignores a list of weight 0 entirely', () => {
    const fused = fuse(
      [
        { name: 'keyword', items: items(['a', 3], ['z', 2]), weight: 0 },
        { name: 'vector', items: items(['b', 0.9], ['a', 0.5]) },
      ],
      60,
    )
    expect(fused.map((c) => c.id)).toEqual(['b', 'a'])
    expect(fused[1]?.lists).toEqual({ vector: { rank: 2, score: 0.5 } })
  })

  it('returns nothing for no lists or empty lists', () => {
    expect(fuse([], 60)).toEqual([])
    expect(
      fuse(
        [
          { name: 'keyword', items: [] },
          { name: 'vector', items: [] },
        ],
        60,
      ),
    ).toEqual([])
  })

  it('keeps the order and plain RRF scores of a single list with distinct scores', () => {
    const fused = fuse([{ name: 'vector', items: items(['c', 0.9], ['a', 0.8], ['b', 0.1]) }], 60)
    expect(fused.map((c) => [c.id, c.fused])).toEqual([
      ['c', 1 / 61],
      ['a', 1 / 62],
      ['b', 1 / 63],
    ])
  })

  it('keeps a single keyword list in raw score order even where scores near-tie', () => {
    expect(
      ids([{ name: 'keyword', items: items(['p', 4.3], ['q', 4.25], ['r', 4.2], ['s', 1]) }]),
    ).toEqual(['p', 'q', 'r', 's'])
  })

  it('uses rrfK: k = 0 gives 1 / rank', () => {
    const fused = fuse([{ name: 'tag', items: items(['a', 2], ['b', 1]) }], 0)
    expect(fused.map((c) => c.fused)).toEqual([1, 0.5])
  })

  it('counts only the first occurrence of an id repeated in one list', () => {
    const fused = fuse([{ name: 'vector', items: items(['a', 0.9], ['b', 0.8], ['a', 0.1]) }], 60)
    expect(fused.map((c) => [c.id, c.lists.vector?.rank])).toEqual([
      ['a', 1],
      ['b', 2],
    ])
  })

  it('puts the candidate found by more lists first on equal fused scores', () => {
    const fused = fuse(
      [
        { name: 'keyword', items: items(['a', 1]), weight: 2 },
        { name: 'vector', items: items(['b', 0.5]) },
        { name: 'tag', items: items(['b', 1]) },
      ],
      60,
    )
    expect(fused[0]?.fused).toBe(fused[1]?.fused)
    expect(fused.map((c) => c.id)).toEqual(['b', 'a'])
  })

  it('falls back to the id when everything else is equal', () => {
    expect(
      ids([
        { name: 'keyword', items: items(['b', 1]) },
        { name: 'vector', items: items(['a', 1]) },
      ]),
    ).toEqual(['a', 'b'])
  })

  it('rejects a bad rrfK, weight, tie epsilon, duplicate list or NaN score', () => {
    const kw = { name: 'keyword' as const, items: items(['a', 1]) }
    expect(() => fuse([kw], -1)).toThrow(InvalidInputError)
    expect(() => fuse([kw], Number.NaN)).toThrow(InvalidInputError)
    expect(() => fuse([{ ...kw, weight: -1 }], 60)).toThrow(/weights.keyword/)
    expect(() => fuse([kw], 60, { tieEpsilon: 0.5 })).toThrow(/tieEpsilon/)
    expect(() => fuse([kw, kw], 60)).toThrow(/given twice/)
    expect(() => fuse([{ name: 'vector', items: items(['a', Number.NaN]) }], 60)).toThrow(/NaN/)
  })

  it('lets a clear vector preference decide between near-tied keyword scores', () => {
    // "Priya's brother is Arjun" / "Priya's sister is Meera": keyword scores differ only by length.
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['sister', 4.21], ['brother', 4.02], ['mother', 3.98]) },
      { name: 'vector', items: items(['brother', 0.83], ['sister', 0.81], ['mother', 0.78]) },
    ]
    expect(ids(lists)[0]).toBe('brother')
    // Plain RRF (exact ties only) lets the keyword list's arbitrary order win.
    expect(ids(lists, 60, 0)[0]).toBe('sister')
  })

  it('still lets a clear keyword winner beat the vector list favourite', () => {
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['brother', 8.4], ['sister', 4.2], ['mother', 4.1]) },
      { name: 'vector', items: items(['sister', 0.83], ['brother', 0.81], ['mother', 0.78]) },
    ]
    expect(ids(lists)[0]).toBe('brother')
  })

  it('recovers rank-1 accuracy on templated facts where plain RRF loses it', () => {
    // 24 queries over 6 facts of one template each. The keyword list scores every fact alike up
    // to length normalisation (0 or 1 extra token, ~6 %) in arbitrary order; the vector list
    // puts the right fact first by a small but real cosine margin.
    const random = rng(24)
    let tied = 0
    let plain = 0
    for (let q = 0; q < 24; q++) {
      const facts = Array.from({ length: 6 }, (_, i) => `q${q}f${i}`)
      const right = facts[q % 6] as string
      const keyword = facts
        .map((id) => ({ id, score: 4.2 * (random() < 0.5 ? 1 : 0.94), tieBreak: random() }))
        .sort((a, b) => b.score - a.score || a.tieBreak - b.tieBreak)
        .map(({ id, score }) => ({ id, score }))
      const vector = [right, ...facts.filter((f) => f !== right)].map((id, i) => ({
        id,
        score: i === 0 ? 0.84 : 0.8 - 0.01 * i,
      }))
      const lists: RankedList[] = [
        { name: 'keyword', items: keyword },
        { name: 'vector', items: vector },
      ]
      if (ids(lists)[0] === right) tied++
      if (ids(lists, 60, 0)[0] === right) plain++
    }
    expect(tied).toBe(24)
    expect(plain).toBeLessThan(20)
  })

  it('gives the same order whatever order the lists come in', () => {
    const list = (name: RankedList['name']) =>
      fc
        .uniqueArray(
          fc.record({
            id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
            score: fc.integer({ min: 0, max: 9 }),
          }),
          {
            selector: (item) => item.id,
            maxLength: 6,
          },
        )
        .map((xs) => ({ name, items: xs.sort((x, y) => y.score - x.score) }))
    fc.assert(
      fc.property(list('keyword'), list('vector'), list('tag'), (a, b, c) => {
        expect(ids([a, b, c])).toEqual(ids([c, a, b]))
        expect(new Set(ids([a, b, c])).size).toBe(ids([a, b, c]).length)
      }),
    )
  })
})

describe('sharedRanks', () => {
  const scored = (...scores: number[]) => scores.map((score, i) => ({ id: String(i), score }))

  it('gives plain positions to clearly separated scores', () => {
    expect(sharedRanks(scored(9, 5, 2, 1), 0.1)).toEqual([1, 2, 3, 4])
  })

  it('gives exact ties their average rank even with epsilon 0', () => {
    expect(sharedRanks(scored(3, 2, 2, 2, 1), 0)).toEqual([1, 3, 3, 3, 5])
  })

  it('treats scores within epsilon as tied', () => {
    expect(sharedRanks(scored(4.4, 4.2, 1), 0.1)).toEqual([1.5, 1.5, 3])
  })

  it('blends linearly between epsilon and twice epsilon', () => {
    // Gap 15 % of the larger score with epsilon 0.1: sureness 0.5, so 10 beats 8.5 with 0.75.
    const [a, b] = sharedRanks(scored(10, 8.5), 0.1)
    expect(a).toBeCloseTo(1.25, 12)
    expect(b).toBeCloseTo(1.75, 12)
  })

  it('keeps the sum of ranks of a plain ranking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { maxLength: 30 }),
        fc.double({ min: 0, max: 0.49, noNaN: true }),
        (scores, epsilon) => {
          const sorted = scores.sort((x, y) => y - x)
          const ranks = sharedRanks(scored(...sorted), epsilon)
          const n = sorted.length
          expect(ranks.reduce((s, r) => s + r, 0)).toBeCloseTo((n * (n + 1)) / 2, 6)
          for (let i = 1; i < n; i++)
            expect(ranks[i]).toBeGreaterThanOrEqual((ranks[i - 1] as number) - 1e-9)
        },
      ),
    )
  })

  it('ranks an unsorted list by its scores', () => {
    expect(sharedRanks(scored(1, 9, 5), 0)).toEqual([3, 1, 2])
  })
})

describe('combine', () => {
  const order = (lists: RankedList[], options = {}) => combine(lists, options).map((c) => c.id)

  it('sums weight × share × normalised score, BM25 over [0, top] and cosine over [-1, top]', () => {
    const fused = combine([
      { name: 'keyword', items: items(['a', 9], ['b', 4]) },
      { name: 'vector', items: items(['b', 0.8], ['a', 0.6]) },
    ])
    const share = DEFAULT_SCORE_SHARES.vector
    expect(fused.map((c) => c.id)).toEqual(['a', 'b'])
    expect(fused[0]!.fused).toBeCloseTo(1 + share * (1.6 / 1.8))
    expect(fused[1]!.fused).toBeCloseTo(4 / 9 + share)
    expect(fused[1]!.lists).toEqual({
      keyword: { rank: 2, score: 4 },
      vector: { rank: 1, score: 0.8 },
    })
  })

  it('regression: combine overflowed the call stack on a list longer than the argument-spread limit', () => {
    // Math.max(...scores) threw RangeError from about 130k arguments in Node; 200k is past it.
    const n = 200_000
    const long = Array.from({ length: n }, (_, i) => ({ id: `v${i}`, score: 1 - i / n }))
    const fused = combine([{ name: 'vector', items: long }])
    expect(fused).toHaveLength(n)
    expect(fused[0]!.id).toBe('v0')
    expect(fused[0]!.fused).toBeCloseTo(DEFAULT_SCORE_SHARES.vector)
  })

  it('lets the vector list decide between near-tied BM25 scores (templated facts)', () => {
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['sister', 4.2], ['brother', 4.1], ['mother', 4.0]) },
      { name: 'vector', items: items(['brother', 0.84], ['sister', 0.78], ['mother', 0.77]) },
    ]
    expect(order(lists)[0]).toBe('brother')
  })

  it('keeps a clear BM25 winner first against a mild vector preference', () => {
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['brother', 8.4], ['sister', 4.2], ['mother', 4.1]) },
      { name: 'vector', items: items(['sister', 0.83], ['brother', 0.81], ['mother', 0.78]) },
    ]
    expect(order(lists)[0]).toBe('brother')
  })

  it('gives a list whose scores are all alike almost no say in the order', () => {
    const keyword = items(['a', 5], ['b', 4], ['c', 3])
    const flat = items(['c', 0.31], ['b', 0.305], ['a', 0.3])
    expect(
      order([
        { name: 'keyword', items: keyword },
        { name: 'vector', items: flat },
      ]),
    ).toEqual(['a', 'b', 'c'])
  })

  it('takes alias and tag scores as they are, on [0, 1]', () => {
    const fused = combine([
      { name: 'keyword', items: items(['a', 2]) },
      { name: 'tag', items: items(['b', 0.25]) },
    ])
    expect(fused.find((c) => c.id === 'b')!.fused).toBeCloseTo(0.25)
  })

  it('scores candidates a list did not return through `outside`', () => {
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['a', 5], ['b', 5]) },
      { name: 'vector', items: items(['c', 0.5]) },
    ]
    const cosines: Record<string, number> = { a: 0.1, b: 0.4 }
    const fused = combine(lists, { outside: { vector: (id: string) => cosines[id] } })
    expect(fused.map((c) => c.id)).toEqual(['b', 'a', 'c'])
    expect(fused[0]!.lists.vector).toBeUndefined()
    expect(fused[0]!.fused).toBeCloseTo(1 + DEFAULT_SCORE_SHARES.vector * (1.4 / 1.5))
  })

  it('multiplies shares by weights and skips lists of weight or share 0', () => {
    const lists: RankedList[] = [
      { name: 'keyword', items: items(['a', 9], ['b', 1]), weight: 1 },
      { name: 'vector', items: items(['b', 0.9], ['a', -0.5]), weight: 10 },
    ]
    expect(order(lists)[0]).toBe('b')
    expect(order(lists, { shares: { vector: 0 } })).toEqual(['a', 'b'])
    expect(combine([{ name: 'keyword', items: items(['a', 1]), weight: 0 }])).toEqual([])
  })

  it('rejects a bad weight, a duplicate list or a NaN score', () => {
    const keyword = { name: 'keyword' as const, items: items(['a', 1]) }
    expect(() => combine([{ ...keyword, weight: -1 }])).toThrow(InvalidInputError)
    expect(() => combine([keyword, keyword])).toThrow(InvalidInputError)
    expect(() => combine([{ name: 'vector', items: items(['a', Number.NaN]) }])).toThrow(
      InvalidInputError,
    )
  })

  it('gives the same order whatever order the lists come in', () => {
    const keyword: RankedList = { name: 'keyword', items: items(['a', 3], ['b', 2], ['c', 1]) }
    const vector: RankedList = { name: 'vector', items: items(['c', 0.9], ['a', 0.2]) }
    expect(order([keyword, vector])).toEqual(order([vector, keyword]))
  })
})

describe('smoothTies', () => {
  it('averages scores within epsilon of each other and leaves clear gaps alone', () => {
    const smoothed = smoothTies(items(['a', 4.2], ['b', 4.1], ['c', 4.0], ['d', 2]), 0.1)
    expect(smoothed[0]).toBeCloseTo(4.1)
    expect(smoothed[1]).toBeCloseTo(4.1)
    expect(smoothed[2]).toBeCloseTo(4.1)
    expect(smoothed[3]).toBe(2)
  })

  it('only smooths within a tie group', () => {
    const smoothed = smoothTies(
      [
        { id: 'a', score: 4.2, tieGroup: 'priya brother' },
        { id: 'b', score: 4.1, tieGroup: 'priya sister' },
        { id: 'c', score: 4.0, tieGroup: 'priya brother' },
      ],
      0.1,
    )
    expect(smoothed[0]).toBeCloseTo(4.1)
    expect(smoothed[1]).toBe(4.1)
    expect(smoothed[2]).toBeCloseTo(4.1)
    expect(smoothTies(items(['a', 4.2], ['b', 4.1]), 0)).toEqual([4.2, 4.1])
  })

  it('keeps a keyword preference for a different matched term in combine', () => {
    const lists: RankedList[] = [
      {
        name: 'keyword',
        items: [
          { id: 'car', score: 20.8, tieGroup: 'car john' },
          { id: 'flood', score: 19.8, tieGroup: 'damag john' },
        ],
      },
      { name: 'vector', items: items(['flood', 0.32], ['car', 0.31]) },
    ]
    expect(combine(lists).map((c) => c.id)).toEqual(['car', 'flood'])
  })
})
