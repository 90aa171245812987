import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  hasUnspacedScript,
  matchedTerms,
  matchesPhrases,
  parseQuery,
  phraseKey,
  phraseWords,
} from '../../../src/core/query.ts'

const SEED = 20260131

describe('parseQuery', () => {
  it('analyses a query without quotes into unique terms', () => {
    expect(parseQuery('Who is Priya? priya!')).toEqual({
      text: 'Who is Priya? priya!',
      phrases: [],
      terms: ['priya'],
    })
  })

  it('takes double-quoted phrases out and keeps their words in the text', () => {
    const parsed = parseQuery('why did "ECONNRESET: socket  hang up" break CI')
    expect(parsed.phrases).toEqual(['econnreset: socket hang up'])
    expect(parsed.text).toBe('why did ECONNRESET: socket hang up break CI')
    expect(parsed.terms).toEqual(['econnreset', 'socket', 'hang', 'up', 'break', 'ci'])
  })

  it('accepts curly quotes, matched or not', () => {
    expect(parseQuery('“sister-in-law” and ”owner”').phrases).toEqual(['sister-in-law', 'owner'])
  })

  it('treats an unmatched quote as an ordinary character', () => {
    const parsed = parseQuery('say "hello world" and "unmatched')
    expect(parsed.phrases).toEqual(['hello world'])
    expect(parsed.text).toBe('say hello world and "unmatched')
    expect(parsed.terms).toContain('unmatch')
  })

  it('ignores an empty pair of quotes and repeated phrases', () => {
    expect(parseQuery('a "" b "cat" "Cat"').phrases).toEqual(['cat'])
  })

  it('keeps flags and ticket ids in the terms', () => {
    const { terms } = parseQuery('does --runInBand fix FH-2291?')
    expect(terms).toEqual(expect.arrayContaining(['--runinband', 'fh-2291', 'run', 'band', '2291']))
  })

  it('folds newlines and invisible separators', () => {
    expect(parseQuery('auth\u200B\nhandler').text).toBe('auth handler')
  })

  it('never yields an empty phrase or a quote mark inside one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (query) => {
        for (const phrase of parseQuery(query).phrases) {
          expect(phrase).not.toBe('')
          expect(phrase).not.toMatch(/["“”„]/)
        }
      }),
      { seed: SEED },
    )
  })
})

describe('phraseKey', () => {
  it('lower-cases, collapses whitespace and keeps punctuation', () => {
    expect(phraseKey('  ECONNRESET:\n socket\t Hang up ')).toBe('econnreset: socket hang up')
  })

  it('composes to NFC and unifies apostrophes', () => {
    expect(phraseKey('Cafe\u0301 owner\u2019s')).toBe("café owner's")
  })
})

describe('matchesPhrases', () => {
  it('matches when every phrase occurs', () => {
    const text = 'Deploy failed: ECONNRESET: socket hang up (see FH-2291)'
    expect(matchesPhrases(text, ['econnreset: socket hang up', 'fh-2291'])).toBe(true)
    expect(matchesPhrases(text, ['econnreset: socket hang up', 'fh-2292'])).toBe(false)
  })

  it('matches anything when there is no phrase', () => {
    expect(matchesPhrases('anything', [])).toBe(true)
  })

  it('ignores case, spacing and apostrophe style in the text', () => {
    expect(matchesPhrases("Priya  is the OWNER'S\nsister", [phraseKey('owner’s sister')])).toBe(
      true,
    )
  })

  it('does not match a phrase that starts or ends inside a word', () => {
    expect(matchesPhrases('they hang upstairs', ['hang up'])).toBe(false)
    expect(matchesPhrases('unhang up', ['hang up'])).toBe(false)
    expect(matchesPhrases('hang up, then hang upstairs', ['hang up'])).toBe(true)
  })

  it('lets a phrase that begins with punctuation start anywhere', () => {
    expect(matchesPhrases('error:ECONNRESET', [':econnreset'])).toBe(true)
  })

  it('matches inside scripts written without spaces', () => {
    expect(matchesPhrases('我喜欢猫', ['喜欢'])).toBe(true)
  })

  it('finds any phrase taken from the text itself', () => {
    const words = fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 8 })
    fc.assert(
      fc.property(words, fc.nat(), fc.nat(), (ws, a, b) => {
        const start = a % ws.length
        const end = start + 1 + (b % (ws.length - start))
        const phrase = parseQuery(`"${ws.slice(start, end).join(' ')}"`).phrases[0]!
        expect(matchesPhrases(ws.join('  ').toUpperCase(), [phrase])).toBe(true)
      }),
      { seed: SEED },
    )
  })
})

describe('matchedTerms', () => {
  it('lists the query terms found among the text terms, in query order', () => {
    const { terms } = parseQuery('who handles auth for FH-2291?')
    expect(matchedTerms(terms, 'FH-2291: Priya owns the authHandler')).toEqual([
      'auth',
      'fh-2291',
      'fh',
      '2291',
    ])
  })

  it('matches stems, not spellings', () => {
    expect(matchedTerms(parseQuery('running cats').terms, 'the cat runs')).toEqual(['run', 'cat'])
  })

  it('returns nothing when no term occurs', () => {
    expect(matchedTerms(['dog'], 'the cat runs')).toEqual([])
  })
})

describe('phraseWords', () => {
  it('keeps plain ASCII words and leaves out those a text may not hold as tokens', () => {
    expect(phraseWords('re-run the tests, don')).toEqual(['the'])
    expect(phraseWords('econnreset: socket hang up')).toEqual(['socket', 'hang', 'up'])
    expect(phraseWords('re done')).toEqual(['done'])
    expect(phraseWords('we don')).toEqual(['we'])
    expect(phraseWords('café au lait')).toEqual(['au', 'lait'])
  })

  it('finds unspaced scripts, whose words a phrase may start inside', () => {
    expect(hasUnspacedScript('漢字 hang up')).toBe(true)
    expect(hasUnspacedScript('hang up, naïve café')).toBe(false)
  })
})
