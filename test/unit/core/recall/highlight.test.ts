import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitQuery } from '../../../../src/core/query.ts'
import {
  type HighlightQuery,
  highlightMatches,
  highlightRanges,
  mergeRanges,
  surfaceForms,
} from '../../../../src/core/recall/highlight.ts'
import {
  analyze,
  processTerm,
  termProcessor,
  tokenize,
  tokenizeQuery,
} from '../../../../src/core/tokenize.ts'

const SEED = 20260216

/** A query analysed as the keyword index does it (`KeywordIndex.queryTerms` with defaults). */
function query(text: string): HighlightQuery {
  const parts = splitQuery(text)
  const searchTerms = tokenizeQuery(parts.text)
    .map(processTerm)
    .filter((term): term is string => term !== null)
  return { searchTerms, phrases: parts.phrases }
}

const marked = (text: string, q: string) =>
  highlightRanges(text, query(q)).map(([start, end]) => text.slice(start, end))

describe('highlightRanges', () => {
  it.each(['auth_handler', 'authHandler', 'AuthHandler', 'auth-handler', 'auth.handler'])(
    'marks %s whole for the query "auth handler"',
    (identifier) => {
      expect(marked(`Fix the ${identifier} today`, 'auth handler')).toEqual([identifier])
    },
  )

  it('marks only the matching word of a compound for a one-word query', () => {
    expect(marked('the authHandler and auth_handler', 'handler')).toEqual(['Handler', 'handler'])
  })

  it('marks every form of a stemmed word', () => {
    expect(marked('We deploy, it deploys, we deployed, deploying now.', 'deploying')).toEqual([
      'deploy',
      'deploys',
      'deployed',
      'deploying',
    ])
  })

  it('leaves stop words and single letters unmarked', () => {
    expect(marked('the owner of a cat', 'the owner of a cat')).toEqual(['owner', 'cat'])
  })

  it('marks a quoted phrase as one span, across punctuation and line breaks', () => {
    const text = 'Error: ECONNRESET:\n  socket hang up (again)'
    expect(marked(text, 'why "econnreset: socket hang up"')).toEqual([
      'ECONNRESET:\n  socket hang up',
    ])
  })

  it('does not mark a phrase that starts or ends inside a word', () => {
    const ranges = highlightMatches('they hang upstairs', { searchTerms: [], phrases: ['hang up'] })
    expect(ranges).toEqual([])
  })

  it('matches a phrase inside unspaced scripts', () => {
    expect(marked('私は東京に住んでいる', '"東京"')).toEqual(['東京'])
  })

  it('counts offsets in UTF-16 units of the text as given, around emoji and decomposed accents', () => {
    const text = '👨‍👩‍👧 cafe\u0301 👋 Café ﬁle ＡＰＩ'
    const ranges = highlightRanges(text, query('café "café" file API'))
    expect(ranges.map(([s, e]) => text.slice(s, e))).toEqual([
      'cafe\u0301',
      'Café',
      'ﬁle',
      'ＡＰＩ',
    ])
    expect(ranges[0]![0]).toBe('👨‍👩‍👧 '.length)
  })

  it('marks flags, paths and ids whole', () => {
    expect(
      marked('Run scripts/ship.sh --no-verify (FH-2291).', 'ship.sh --no-verify fh-2291'),
    ).toEqual(['ship.sh', '--no-verify', 'FH-2291'])
  })

  it('uses the index settings it is given', () => {
    const noStem = termProcessor({ stemming: false })
    const text = 'deploys and deploy'
    const ranges = highlightRanges(text, { searchTerms: ['deploy'], phrases: [] }, noStem)
    expect(ranges.map(([s, e]) => text.slice(s, e))).toEqual(['deploy'])
  })

  it('returns nothing for a query with no terms', () => {
    expect(highlightRanges('anything', { searchTerms: [], phrases: [] })).toEqual([])
  })
})

describe('mergeRanges', () => {
  it('sorts and merges overlapping and touching ranges', () => {
    expect(
      mergeRanges([
        { start: 5, end: 7 },
        { start: 0, end: 2 },
        { start: 2, end: 3 },
        { start: 6, end: 9 },
        { start: 11, end: 12 },
      ]),
    ).toEqual([
      [0, 3],
      [5, 9],
      [11, 12],
    ])
  })
})

const WORDS = [
  'deploy',
  'deploying',
  'Deployed',
  'auth',
  'handler',
  'auth_handler',
  'authHandler',
  'AUTH-HANDLER',
  'the',
  'owner',
  "owner's",
  'café',
  'cafe\u0301',
  'ＡＰＩ',
  'api',
  '👋🏽',
  '東京',
  'src/core/x.ts',
  '--no-verify',
  'v1.2.3',
  'FH-2291',
  'running',
  'runs',
  '.',
  ',',
  '(',
  ')',
]
const words = (max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: max })
const separator = fc.constantFrom(' ', ' ', '\n', '  ', '')
const textArb = fc
  .tuple(words(40), fc.array(separator, { minLength: 40, maxLength: 40 }))
  .map(([ws, seps]) => ws.map((w, i) => w + seps[i]).join(''))
const queryArb = fc
  .tuple(words(4), fc.option(words(3)))
  .map(([ws, phrase]) => ws.join(' ') + (phrase ? ` "${phrase.join(' ')}"` : ''))

describe('highlightRanges on random text', () => {
  it('returns sorted, non-overlapping, non-touching ranges within the text', () => {
    fc.assert(
      fc.property(textArb, queryArb, (text, q) => {
        const ranges = highlightRanges(text, query(q))
        ranges.forEach(([start, end], i) => {
          expect(start).toBeGreaterThanOrEqual(0)
          expect(end).toBeLessThanOrEqual(text.length)
          expect(start).toBeLessThan(end)
          if (i > 0) expect(start).toBeGreaterThan(ranges[i - 1]![1])
        })
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('marks only spans that analyse to a query term or hold a phrase', () => {
    fc.assert(
      fc.property(textArb, queryArb, (text, q) => {
        const analysed = query(q)
        const wanted = new Set(analysed.searchTerms.flatMap((t) => [t, t.normalize('NFKC')]))
        for (const match of highlightMatches(text, analysed)) {
          const span = text.slice(match.start, match.end)
          if (match.phrase !== undefined) {
            expect(analysed.phrases).toContain(match.phrase)
            continue
          }
          expect(wanted.has(match.term!)).toBe(true)
          const joined = span.replace(/[^\p{L}\p{M}\p{N}]+/gu, '')
          const forms = [span, joined].flatMap((s) => [s, s.normalize('NFC'), s.normalize('NFKC')])
          expect(forms.map(processTerm)).toContain(match.term)
        }
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('marks every query term the keyword index finds in the text', () => {
    fc.assert(
      fc.property(textArb, queryArb, (text, q) => {
        const analysed = query(q)
        const found = new Set(highlightMatches(text, analysed).map((m) => m.term))
        const indexed = new Set(analyze(text))
        for (const term of analysed.searchTerms)
          if (indexed.has(term)) expect(found).toContain(term)
      }),
      { seed: SEED, numRuns: 300 },
    )
  })

  it('reads token runs exactly as the tokeniser does', () => {
    // highlight.ts keeps its own copy of tokenize.ts's run pattern; this pins the two together.
    const RUN = /(?:[\p{L}\p{M}\p{N}_\-./\\:@#+~=&?%$'\u2019\u200C\u200D]|(?<=\p{N}),(?=\p{N}))+/gu
    fc.assert(
      fc.property(fc.oneof(textArb, fc.string({ unit: 'grapheme', maxLength: 60 })), (text) => {
        const runs = [...text.matchAll(RUN)].flatMap(([run]) => tokenize(run))
        expect(runs).toEqual(tokenize(text))
      }),
      { seed: SEED, numRuns: 300 },
    )
  })
})

describe('surfaceForms', () => {
  it('finds the words as written behind stems, first text first, shortest span', () => {
    expect(
      surfaceForms(
        ['birthdai', 'authhandl', 'handler', 'databas'],
        ['Birthday: ask the authHandler', 'databases'],
      ),
    ).toEqual(['birthday', 'authhandler', 'handler', 'databases'])
  })

  it('falls back to the term where no text holds it, and gives each form once', () => {
    expect(surfaceForms(['famili', 'zzz', 'famili'], ['no match here'])).toEqual(['famili', 'zzz'])
    expect(surfaceForms(['deploi'], ['Deployed, deploys'])).toEqual(['deployed'])
    expect(surfaceForms([], ['anything'])).toEqual([])
  })
})
