import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { compactPostings, type KeywordImage } from '../../../../src/engine/index/keyword-image.ts'
import { KeywordIndex } from '../../../../src/engine/index/keyword-index.ts'
import { TermPostings } from '../../../../src/engine/index/postings.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'

const WORDS = [
  'deploy',
  'deploys',
  'script',
  'ship',
  'smoke',
  'tests',
  'owner',
  'prefers',
  'metric',
  'units',
  'ticket',
  'flaky',
  'upload',
  'sister',
  'pune',
  'auth_handler.ts',
  'parseJSONFile',
  'ECONNRESET',
  'running',
  'cities',
  'garden',
  'tomatoes',
  'hiking',
  'trail',
]

/** `count` seeded memories of 3 to 12 words, some with aliases and tags. */
function memories(count: number, next: () => number) {
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!
  return Array.from({ length: count }, (_, i) => ({
    id: `m${String(i).padStart(5, '0')}`,
    text: Array.from({ length: 3 + Math.floor(next() * 10) }, pick).join(' '),
    aliases: next() < 0.2 ? [pick()] : [],
    tags: next() < 0.3 ? [pick(), pick()] : [],
  }))
}

const QUERIES = [
  'deploy script',
  'metric units owner',
  'flaky upload ticket',
  'pars',
  'hikng trail',
]

/** Every query's hits (ids, scores, terms) on `index`: what a stub would not reproduce. */
const answers = (index: KeywordIndex) => QUERIES.map((q) => index.search(q, 20))

describe('the keyword image', () => {
  it('loads to an index that answers every query with the same hits and scores', () => {
    const next = uniform(TEST_SEED)
    const original = new KeywordIndex()
    original.putAll(memories(500, next))
    const loaded = new KeywordIndex({}, structuredClone(original.toImage()))
    expect(loaded.size).toBe(500)
    expect(answers(loaded)).toEqual(answers(original))
    expect(answers(original)[0]!.length).toBeGreaterThan(0)
    expect(loaded.idsWithTerm('metric').sort()).toEqual(original.idsWithTerm('metric').sort())
  })

  it('keeps answering like the original through writes, replacements and removals', () => {
    const next = uniform(TEST_SEED + 1)
    const rows = memories(400, next)
    const original = new KeywordIndex()
    original.putAll(rows)
    const loaded = new KeywordIndex({}, original.toImage())
    const more = memories(60, next).map((m, i) => ({ ...m, id: `n${i}` }))
    for (const index of [original, loaded]) {
      index.putAll(more)
      for (let i = 0; i < 50; i++) index.put({ ...rows[i * 3]!, text: `changed ${rows[i]!.text}` })
      for (let i = 0; i < 40; i++) index.remove(rows[i * 7 + 1]!.id)
    }
    expect(loaded.size).toBe(original.size)
    expect(answers(loaded)).toEqual(answers(original))
    const changed = loaded.search('changed', 100).map((h) => h.id)
    expect(changed).toEqual(original.search('changed', 100).map((h) => h.id))
    expect(changed.length).toBeGreaterThan(40)
  })

  it('saves a partly searched index again, untouched terms as they were, to the same answers', () => {
    const next = uniform(TEST_SEED + 2)
    const original = new KeywordIndex()
    original.putAll(memories(300, next))
    const loaded = new KeywordIndex({}, original.toImage())
    loaded.search('deploy', 5)
    loaded.remove('m00010')
    original.remove('m00010')
    const again = new KeywordIndex({}, structuredClone(loaded.toImage()))
    expect(again.size).toBe(299)
    expect(again.has('m00010')).toBe(false)
    expect(answers(again)).toEqual(answers(original))
  })

  it('is refused when any part of it was altered or cut short', () => {
    const next = uniform(TEST_SEED + 3)
    const index = new KeywordIndex()
    index.putAll(memories(100, next))
    const image = index.toImage()
    const altered = (change: (copy: KeywordImage) => void) => {
      const copy = structuredClone(image)
      change(copy)
      return () => new KeywordIndex({}, copy)
    }
    expect(
      altered((c) => {
        c.postings[5]! += 1
      }),
    ).toThrow(/hash/)
    expect(
      altered((c) => {
        c.postings = c.postings.slice(0, -2)
      }),
    ).toThrow(/hash/)
    expect(
      altered((c) => {
        c.ids = JSON.stringify((JSON.parse(c.ids) as string[]).slice(1))
      }),
    ).toThrow(/hash/)
    expect(
      altered((c) => {
        c.format = 0 as never
      }),
    ).toThrow(/format/)
    expect(() => new KeywordIndex({}, structuredClone(image))).not.toThrow()
  })

  it('compacted as it grows, answers and saves exactly as an index never compacted', () => {
    const next = uniform(TEST_SEED + 4)
    const rows = memories(300, next)
    const plain = new KeywordIndex()
    const compacted = new KeywordIndex()
    const later = memories(200, next).map((m, i) => ({ ...m, id: `n${i}` }))
    for (let step = 0; step < 500; step++) {
      const pick = next()
      const row = rows[Math.floor(next() * rows.length)]!
      for (const index of [plain, compacted]) {
        if (step < 300) index.put(rows[step]!)
        else if (pick < 0.4) index.put(later[step - 300]!)
        else if (pick < 0.6) index.put({ ...row, text: `changed ${row.text}` })
        else if (pick < 0.8) index.remove(row.id)
        // A search drops the postings of removed documents it meets.
        else index.search(QUERIES[step % QUERIES.length]!, 10)
      }
      if (step % 37 === 0) compacted.compact()
    }
    expect(compacted.size).toBe(plain.size)
    // Each side searched as often: a search drops a removed document's postings as it meets them.
    const expected = answers(plain)
    expect(answers(compacted)).toEqual(expected)
    expect(expected.flat().length).toBeGreaterThan(20)
    expect(compacted.idsWithTerm('ticket')).toEqual(plain.idsWithTerm('ticket'))
    expect(compacted.toImage()).toEqual(plain.toImage())
  })

  it('leaves every term encoded once compacted, read from one shared array', () => {
    const next = uniform(TEST_SEED + 5)
    const search = new MiniSearch({ fields: ['text'] })
    search.addAll(memories(200, next))
    const terms = () =>
      [...(search as unknown as { _index: Iterable<[string, unknown]> })._index].map(([, d]) => d)
    expect(terms().some((d) => d instanceof TermPostings)).toBe(false)
    compactPostings(search as MiniSearch<never>)
    const encoded = terms().map((d) => (d instanceof TermPostings ? d.encoded : undefined))
    expect(encoded.length).toBeGreaterThan(20)
    expect(encoded.every((e) => e !== undefined)).toBe(true)
    expect(new Set(encoded.map((e) => e!.codes)).size).toBe(1)
    expect(search.search('metric').length).toBeGreaterThan(0)
  })
})
