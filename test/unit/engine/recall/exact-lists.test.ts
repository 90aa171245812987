import { describe, expect, it } from 'vitest'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import { exactLists } from '../../../../src/engine/recall/exact-lists.ts'
import { recallScope } from '../../../../src/engine/recall/scope.ts'
import { indexed, row } from '../fixtures.ts'

const filter = { namespace: 'default', includeFlagged: true }
const weights = { alias: 1, tag: 0.5 }

describe('exactLists', () => {
  it('finds an alias named by the whole query, a phrase or a word, and a tag named by a word', async () => {
    const indexes = await indexed([
      row('pri', 'Priya is the owner’s sister-in-law', { aliases: ['Pri', 'FH 2291'] }),
      row('ficus', 'Water the ficus every Sunday', { tags: ['Plants'] }),
    ])
    for (const query of ['pri', 'who is "PRI"?', 'FH 2291']) {
      const q = analyzeQuery(query, indexes.keyword)
      const [alias] = exactLists(indexes, q, recallScope(indexes, q, filter, 0), [], 30, weights)
      expect(
        alias!.items.map((i) => i.id),
        query,
      ).toEqual(['pri'])
    }
    const q = analyzeQuery('water plants', indexes.keyword)
    const [alias, tag] = exactLists(indexes, q, recallScope(indexes, q, filter, 0), [], 30, weights)
    expect(alias).toMatchObject({ name: 'alias', items: [], weight: 1 })
    expect(tag).toMatchObject({ name: 'tag', items: [{ id: 'ficus' }], weight: 0.5 })
  })

  it('scores a rare name above a common one', async () => {
    const rows = [
      row('a', 'alpha', { tags: ['rare', 'common'] }),
      row('b', 'beta', { tags: ['common'] }),
      row('c', 'gamma', { tags: ['common'] }),
    ]
    const indexes = await indexed(rows)
    const q = analyzeQuery('rare common', indexes.keyword)
    const [, tag] = exactLists(indexes, q, recallScope(indexes, q, filter, 0), [], 30, weights)
    expect(tag!.items[0]).toEqual({ id: 'a', score: 1 })
    expect(tag!.items[1]!.score).toBeCloseTo(Math.log1p(1) / Math.log1p(3))
  })

  it('keeps only what other lists found when a name holds more than the candidate count', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => row(`m${i}`, `fact ${i}`, { tags: ['work'] }))
    const indexes = await indexed(rows)
    const q = analyzeQuery('work', indexes.keyword)
    const found = [{ name: 'keyword' as const, items: [{ id: 'm4', score: 2 }] }]
    const [, tag] = exactLists(indexes, q, recallScope(indexes, q, filter, 0), found, 3, weights)
    expect(tag!.items.map((i) => i.id)).toEqual(['m4'])
  })
})
