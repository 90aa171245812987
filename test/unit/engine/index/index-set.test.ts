import { describe, expect, it } from 'vitest'
import { indexed, row } from '../fixtures.ts'

describe('IndexSet', () => {
  it('finds a memory by its dedup identity until it moves or goes', async () => {
    const indexes = await indexed([row('a', 'Water the ficus')])
    expect(indexes.idForKey({ namespace: 'default', type: 'fact', key: 'water the ficus' })).toBe(
      'a',
    )
    expect(
      indexes.idForKey({ namespace: 'home', type: 'fact', key: 'water the ficus' }),
    ).toBeUndefined()
    indexes.put(row('a', 'Water the ficus', { type: 'skill' }))
    expect(
      indexes.idForKey({ namespace: 'default', type: 'fact', key: 'water the ficus' }),
    ).toBeUndefined()
    expect(indexes.idForKey({ namespace: 'default', type: 'skill', key: 'water the ficus' })).toBe(
      'a',
    )
    indexes.remove('a')
    expect(
      indexes.idForKey({ namespace: 'default', type: 'skill', key: 'water the ficus' }),
    ).toBeUndefined()
  })

  it('keeps a key held by a newer memory when an older one lets go of it', async () => {
    const indexes = await indexed([row('a', 'old text')])
    // Replay applies changes one id at a time: b may take the key before a gives it up.
    indexes.put(row('b', 'old text'))
    indexes.put(row('a', 'new text'))
    expect(indexes.idForKey({ namespace: 'default', type: 'fact', key: 'old text' })).toBe('b')
  })

  it('refreshes counters in the catalogue without touching the indexes', async () => {
    const indexes = await indexed([row('a', 'Water the ficus', { tags: ['plants'] })])
    const before = indexes.keyword.search('ficus', 5)
    indexes.refresh(row('a', 'Water the ficus', { tags: ['plants'], recallCount: 5 }))
    expect(indexes.catalogue.get('a')?.recallCount).toBe(5)
    expect(indexes.keyword.search('ficus', 5)).toEqual(before)
    expect(indexes.vectors?.has('a')).toBe(true)
  })

  it('re-indexes a refreshed row whose indexed fields changed', async () => {
    const indexes = await indexed([row('a', 'Water the ficus')])
    indexes.refresh(row('a', 'Feed the cat'))
    expect(indexes.keyword.search('ficus', 5)).toEqual([])
    expect(indexes.keyword.search('cat', 5).map((h) => h.id)).toEqual(['a'])
  })

  it('matches phrases against the current text after a change', async () => {
    const indexes = await indexed([row('a', 'the socket hang up error')])
    expect(indexes.hasPhrases('a', ['hang up'])).toBe(true)
    indexes.put(row('a', 'the socket closed'))
    expect(indexes.hasPhrases('a', ['hang up'])).toBe(false)
    expect(indexes.hasPhrases('a', [])).toBe(true)
    expect(indexes.hasPhrases('missing', ['hang up'])).toBe(false)
  })

  it('scans for phrase matches in catalogue order, skipping what was seen, up to the limit', async () => {
    const indexes = await indexed([
      row('a', 'to be or not to be'),
      row('b', 'not to be outdone'),
      row('c', 'whether to be or not'),
      row('d', 'To be, or not to be'),
    ])
    const all = () => true
    expect(indexes.phraseScan(['to be'], all, 10, new Map()).map((i) => i.id)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ])
    expect(
      indexes.phraseScan(['to be or not'], all, 10, new Map([['a', []]])).map((i) => i.id),
    ).toEqual(['c'])
    expect(indexes.phraseScan(['to be'], (id) => id !== 'b', 2, new Map())).toEqual([
      { id: 'a', score: 0 },
      { id: 'c', score: 0 },
    ])
  })
})
