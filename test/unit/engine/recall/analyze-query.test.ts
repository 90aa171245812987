import { describe, expect, it } from 'vitest'
import { KeywordIndex } from '../../../../src/engine/index/keyword-index.ts'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'

const keyword = new KeywordIndex()

describe('analyzeQuery', () => {
  it('analyses a query without quotes into unique terms', () => {
    const q = analyzeQuery('Who is Priya? priya!', keyword)
    expect(q.text).toBe('Who is Priya? priya!')
    expect(q.phrases).toEqual([])
    expect([...new Set(q.terms)]).toEqual(['priya'])
  })

  it('keeps terms in order with repeats, for the phrase pass', () => {
    expect(analyzeQuery('support group support', keyword).terms).toEqual([
      'support',
      'group',
      'support',
    ])
  })

  it('takes quoted phrases out and still analyses their words', () => {
    const q = analyzeQuery('why did "ECONNRESET: socket  hang up" break CI', keyword)
    expect(q.phrases).toEqual(['econnreset: socket hang up'])
    expect(q.text).toBe('why did ECONNRESET: socket hang up break CI')
    expect(q.terms).toEqual(['econnreset', 'socket', 'hang', 'up', 'break', 'ci'])
  })

  it('treats an unmatched quote as an ordinary character', () => {
    const q = analyzeQuery('say "hello world" and "unmatched', keyword)
    expect(q.phrases).toEqual(['hello world'])
    expect(q.terms).toContain('unmatch')
  })

  it('keeps flags and ticket ids in the terms', () => {
    const { terms } = analyzeQuery('does --runInBand fix FH-2291?', keyword)
    expect(terms).toEqual(expect.arrayContaining(['--runinband', 'fh-2291', 'run', 'band', '2291']))
  })

  it('searches the joined form of neighbouring words too, as an identifier is indexed', () => {
    const q = analyzeQuery('auth handler', keyword)
    expect(q.searchTerms).toEqual(['auth', 'handler', 'authhandl'])
    expect(q.terms).toEqual(['auth', 'handler'])
  })

  it('keeps the tokens as written for the alias and tag lookups', () => {
    expect(analyzeQuery('Plants "Pri"', keyword).tokens).toEqual(['Plants', 'Pri'])
  })

  it('analyses with the index’s own term settings', () => {
    const plain = new KeywordIndex({ stemming: false, stopWords: false })
    expect(analyzeQuery('the cats', plain).terms).toEqual(['the', 'cats'])
    expect(analyzeQuery('the cats', keyword).terms).toEqual(['cat'])
  })

  it('embeds the raw query when it is nothing but an empty pair of quotes', () => {
    expect(analyzeQuery('""', keyword).embedText).toBe('""')
    expect(analyzeQuery('"metric units"', keyword).embedText).toBe('metric units')
  })

  it('resolves time words against the clock and keeps them in the terms, apart from the rest', () => {
    const q = analyzeQuery('what did Ana say last week about the lease?', keyword, {
      now: Date.UTC(2024, 2, 14),
    })
    expect(q.windows.map((w) => [w.text, w.start, w.end])).toEqual([
      ['last week', Date.UTC(2024, 2, 4), Date.UTC(2024, 2, 11)],
    ])
    expect(q.text).toBe('what did Ana say last week about the lease?')
    expect(q.terms).toContain('week')
    expect(q.termsBesideTime).not.toContain('week')
    expect(q.termsBesideTime).toContain('leas')
    expect(q.embedText).toBe(q.text)
  })

  it('reads no time words without a clock, and keeps a query of time words alone to embed', () => {
    expect(analyzeQuery('in May 2023', keyword).windows).toEqual([])
    const q = analyzeQuery('in May 2023', keyword, { now: Date.UTC(2024, 0, 1) })
    expect(q.text).toBe('in May 2023')
    expect(q.termsBesideTime).toEqual([])
    expect(q.embedText).toBe('in May 2023')
  })
})
