import { describe, expect, it } from 'vitest'
import {
  encodeTerm,
  FieldPostings,
  TermPostings,
  Words,
  wordsOf,
} from '../../../../src/engine/index/postings.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'

/** A field's postings as encoded pairs, in the order given. */
function encoded(pairs: [number, number][]): FieldPostings {
  const codes = new Uint32Array(pairs.flat())
  return FieldPostings.of(codes, 0, pairs.length)
}

/** Everything a caller can read of a `Map`: its pairs in order and its size. */
const state = (map: Map<number, number>) => ({
  size: map.size,
  entries: [...map],
  keys: [...map.keys()],
  values: [...map.values()],
})

describe('encoded postings', () => {
  it('read and change like a Map holding the same pairs, through seeded operations', () => {
    const next = uniform(TEST_SEED)
    for (let round = 0; round < 40; round++) {
      // Ascending short ids with gaps, as MiniSearch numbers documents.
      const pairs: [number, number][] = []
      for (let doc = 0, n = 1 + Math.floor(next() * 30); pairs.length < n; ) {
        doc += 1 + Math.floor(next() * 4)
        pairs.push([doc, 1 + Math.floor(next() * 5)])
      }
      const plain = new Map(pairs)
      const postings = encoded(pairs)
      const top = pairs.at(-1)![0]
      for (let op = 0; op < 60; op++) {
        const doc = Math.floor(next() * (top + 6))
        const pick = next()
        if (pick < 0.3) {
          const freq = 1 + Math.floor(next() * 9)
          expect(postings.set(doc, freq)).toBe(postings)
          plain.set(doc, freq)
        } else if (pick < 0.5) expect(postings.delete(doc)).toBe(plain.delete(doc))
        else if (pick < 0.75) expect(postings.get(doc)).toBe(plain.get(doc))
        else expect(postings.has(doc)).toBe(plain.has(doc))
        expect(postings.size).toBe(plain.size)
      }
      expect(state(postings)).toEqual(state(plain))
    }
  })

  it("keep a Map's order: a pair set again stays in place, one deleted and set comes last", () => {
    const postings = encoded([
      [3, 1],
      [7, 2],
      [9, 1],
    ])
    postings.set(12, 4)
    postings.set(15, 1)
    postings.set(12, 5)
    postings.set(7, 6)
    postings.delete(3)
    postings.set(3, 2)
    const seen: number[] = []
    postings.forEach((freq, doc) => {
      seen.push(doc * 10 + freq)
    })
    expect(seen).toEqual([76, 91, 125, 151, 32])
  })

  it('skip a pair deleted while they are iterated and yield one set again once, as a Map does', () => {
    const postings = encoded([
      [1, 1],
      [2, 1],
      [4, 1],
      [8, 1],
    ])
    const seen: number[] = []
    for (const doc of postings.keys()) {
      seen.push(doc)
      if (doc === 2) {
        postings.delete(2)
        postings.delete(8)
      }
      if (doc === 1) postings.set(1, 3)
    }
    expect(seen).toEqual([1, 2, 4])
    expect(state(postings)).toEqual(
      state(
        new Map([
          [1, 3],
          [4, 1],
        ]),
      ),
    )
  })

  it('answer rightly over stored pairs out of order, which binary search cannot read', () => {
    const pairs: [number, number][] = [
      [9, 1],
      [2, 3],
      [5, 2],
    ]
    const postings = encoded(pairs)
    expect(postings.get(2)).toBe(3)
    expect(postings.has(7)).toBe(false)
    postings.set(1, 1)
    expect(state(postings)).toEqual(state(new Map([...pairs, [1, 1]])))
  })

  it('encode a touched term to the pairs it holds, stored ones copied and new ones after', () => {
    const words = new Words()
    const field = [
      [4, 2],
      [6, 1],
    ]
    // A term of two fields: 0 with pairs (4,2) (6,1), 2 with (5,1).
    words.push(2)
    words.push(0)
    words.push(2)
    for (const w of field.flat()) words.push(w)
    words.push(2)
    words.push(1)
    words.push(5)
    words.push(1)
    const term = TermPostings.of(words.done(), 0)
    term.get(0)!.set(10, 3)
    term.get(0)!.delete(4)
    term.set(1, new Map([[11, 1]]))
    const out = new Words()
    encodeTerm(term, out)
    expect([...out.done()]).toEqual([3, 0, 2, 6, 1, 10, 3, 2, 1, 5, 1, 1, 1, 11, 1])
    // The size a compaction allocates before encoding is what encoding writes, touched or not.
    expect(wordsOf(term)).toBe(out.length)
    const untouched = TermPostings.of(out.done(), 0)
    const again = new Words(wordsOf(untouched))
    encodeTerm(untouched, again)
    expect(again.length).toBe(again.array.length)
    expect(again.done()).toBe(again.array)
  })
})
