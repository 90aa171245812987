import { describe, expect, it } from 'vitest'
import { DEFAULT_KEYWORD_OPTIONS } from '../../../../src/core/options.ts'
import { KeywordIndex, resolveKeywordOptions } from '../../../../src/engine/index/keyword-index.ts'

const memory = (id: string, text: string, tags: string[] = []) => ({ id, text, aliases: [], tags })

describe('resolveKeywordOptions', () => {
  it('merges boost and bm25 field by field', () => {
    const resolved = resolveKeywordOptions({ bm25: { k: 1.5 }, boost: { tags: 3 } })
    expect(resolved.bm25).toEqual({ k: 1.5, b: 0.7, d: 0.5 })
    expect(resolved.boost).toEqual({ text: 1, aliases: 2, tags: 3 })
    expect(resolved.stemming).toBe(true)
    expect(resolved.phraseBoost).toBe(0.5)
  })

  it('leaves the defaults frozen', () => {
    resolveKeywordOptions({ bm25: { k: 9 } })
    expect(DEFAULT_KEYWORD_OPTIONS.bm25.k).toBe(1.2)
  })
})

describe('KeywordIndex term options', () => {
  it('analyses a text once for every row object that carries it (the catalogue makes a new one per read)', () => {
    const index = new KeywordIndex()
    const first = index.termsOf({ text: 'The owner prefers metric units' })
    expect(first).toEqual(index.analyze('The owner prefers metric units'))
    expect(index.termsOf({ text: 'The owner prefers metric units' })).toBe(first)
    expect(index.termsOf({ text: 'The owner prefers imperial units' })).not.toBe(first)
  })

  it('stems and drops stop words by default', () => {
    const index = new KeywordIndex()
    index.put(memory('a', 'The cats were running'))
    expect(index.search('cat runs', 5).map((h) => h.id)).toEqual(['a'])
    expect(index.search('the were', 5)).toEqual([])
    expect(index.analyze('The cats were running')).toEqual(['cat', 'run'])
  })

  it('can match surface forms only, stop words included', () => {
    const index = new KeywordIndex({ stemming: false, stopWords: false })
    index.put(memory('a', 'The cats were running'))
    expect(index.search('cat runs', 5)).toEqual([])
    expect(index.search('the', 5).map((h) => h.id)).toEqual(['a'])
    expect(index.analyze('The cats')).toEqual(['the', 'cats'])
  })

  it('puts every option in the fingerprint, so a change rebuilds snapshots', () => {
    const plain = new KeywordIndex().fingerprint()
    expect(new KeywordIndex({ stemming: false }).fingerprint()).not.toBe(plain)
    expect(new KeywordIndex({ phraseBoost: 0 }).fingerprint()).not.toBe(plain)
    expect(new KeywordIndex({ bm25: { k: 1.2, b: 0.7, d: 0.5 } }).fingerprint()).toBe(plain)
  })

  it('exposes the phrase boost recall applies', () => {
    expect(new KeywordIndex().phraseBoost).toBe(0.5)
    expect(new KeywordIndex({ phraseBoost: 0 }).phraseBoost).toBe(0)
  })

  it('lists the memories holding a term, across fields, without ones replaced or removed', () => {
    const index = new KeywordIndex()
    index.putAll([
      memory('a', 'the socket hangs'),
      memory('b', 'no match here', ['socket']),
      memory('c', 'socket again'),
      memory('d', 'a sockets plural'),
    ])
    index.put(memory('c', 'replaced text'))
    index.remove('a')
    expect(index.idsWithTerm('socket').sort()).toEqual(['b', 'd'])
    expect(index.idsWithTerm('nothing')).toEqual([])
  })
})
