import { describe, expect, it } from 'vitest'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import { keywordList } from '../../../../src/engine/recall/keyword-list.ts'
import { recallScope } from '../../../../src/engine/recall/scope.ts'
import { indexed, row } from '../fixtures.ts'

const filter = { namespace: 'default', includeFlagged: true }

async function listFor(rows: Parameters<typeof indexed>[0], query: string, candidates = 30) {
  const indexes = await indexed(rows)
  const q = analyzeQuery(query, indexes.keyword)
  return keywordList(indexes, q, recallScope(indexes, q, filter, 0), candidates, 1)
}

describe('keywordList', () => {
  it('ranks a memory with the words side by side above one with them apart', async () => {
    const { list } = await listFor(
      [
        row('apart', 'The group photo has support from the sponsors'),
        row('together', 'The support group meets on Tuesdays'),
      ],
      'support group',
    )
    expect(list.items.map((i) => i.id)).toEqual(['together', 'apart'])
    expect(list.items[0]!.score).toBeGreaterThan(list.items[1]!.score)
  })

  it('records the matched terms and groups near-ties by them', async () => {
    const { list, terms } = await listFor(
      [row('a', 'metric units please'), row('b', 'imperial units')],
      'metric units',
    )
    expect(terms.get('a')).toEqual(['metric', 'unit'])
    expect(terms.get('b')).toEqual(['unit'])
    expect(list.items.find((i) => i.id === 'a')?.tieGroup).toBe('metric unit')
  })

  it('fills the list with phrase matches BM25 could not find, after every BM25 hit', async () => {
    const { list } = await listFor(
      [row('hamlet', 'To be or not to be'), row('bee', 'A bee is not a wasp')],
      '"to be or not" bee',
    )
    expect(list.items.map((i) => [i.id, i.score])).toEqual([['hamlet', 0]])
  })

  it('stops at the candidate count', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => row(`m${i}`, `note ${i} about harbors`))
    const { list } = await listFor(rows, 'harbors', 5)
    expect(list.items).toHaveLength(5)
    expect(list.name).toBe('keyword')
  })
})
