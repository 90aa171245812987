import fc from 'fast-check'
import { stemmer } from 'stemmer'
import { describe, expect, it } from 'vitest'
import {
  analyze,
  processTerm,
  STOP_WORDS,
  termProcessor,
  tokenize,
  tokenizeQuery,
} from '../../../src/core/tokenize.ts'

const SEED = 20260131

describe('tokenize', () => {
  it('yields plain words as they are', () => {
    expect(tokenize('Priya owns three cats')).toEqual(['Priya', 'owns', 'three', 'cats'])
  })

  it('strips sentence punctuation around words', () => {
    expect(tokenize('(see Priya.) done, "quoted" \'single\' ok?! ...and —dash')).toEqual([
      'see',
      'Priya',
      'done',
      'quoted',
      'single',
      'ok',
      'and',
      'dash',
    ])
  })

  it.each([
    ['auth_handler', ['auth_handler', 'auth', 'handler', 'authhandler']],
    ['authHandler', ['authHandler', 'auth', 'Handler']],
    ['AuthHandler', ['AuthHandler', 'Auth', 'Handler']],
    ['auth-handler', ['auth-handler', 'auth', 'handler', 'authhandler']],
    ['auth.handler', ['auth.handler', 'auth', 'handler', 'authhandler']],
  ])('keeps the identifier %s whole and splits its words', (identifier, tokens) => {
    expect(tokenize(identifier)).toEqual(tokens)
  })

  it('keeps a path whole and splits it into components and words', () => {
    expect(tokenize('scripts/ship.sh')).toEqual([
      'scripts/ship.sh',
      'scripts',
      'ship.sh',
      'ship',
      'sh',
      'shipsh',
    ])
  })

  it('keeps a flag whole and splits its words', () => {
    expect(tokenize('--no-verify')).toEqual([
      '--no-verify',
      'no-verify',
      'no',
      'verify',
      'noverify',
    ])
    expect(tokenize('--runInBand')).toEqual(['--runInBand', 'runInBand', 'run', 'In', 'Band'])
    expect(tokenize('-v')).toEqual(['-v', 'v'])
  })

  it('keeps a ticket id whole and splits its letters from its number', () => {
    expect(tokenize('FH-2291.')).toEqual(['FH-2291', 'FH', '2291'])
  })

  it('splits acronyms and digits inside camel case sensibly', () => {
    expect(tokenize('parseJSONFile')).toEqual(['parseJSONFile', 'parse', 'JSON', 'File'])
    expect(tokenize('HTTP2Server')).toEqual(['HTTP2Server', 'HTTP', '2', 'Server'])
    expect(tokenize('XMLHttpRequest')).toEqual(['XMLHttpRequest', 'XML', 'Http', 'Request'])
  })

  it('keeps emails and URLs whole and splits their parts', () => {
    expect(tokenize('mail priya@example.com')).toEqual([
      'mail',
      'priya@example.com',
      'priya',
      'example.com',
      'example',
      'com',
      'examplecom',
    ])
    expect(tokenize('<https://example.com/docs?q=1>')).toEqual([
      'https://example.com/docs?q=1',
      'https',
      'example.com',
      'example',
      'com',
      'examplecom',
      'docs',
      'q',
      '1',
    ])
  })

  it('keeps decimals, dates and grouped thousands whole and splits them', () => {
    expect(tokenize('pi is 3.14')).toEqual(['pi', 'is', '3.14', '3', '14'])
    expect(tokenize('on 2026-01-31,')).toEqual(['on', '2026-01-31', '2026', '01', '31'])
    expect(tokenize('1,000 people, 2 dogs')).toEqual(['1,000', '1', '000', 'people', '2', 'dogs'])
  })

  it('keeps dotfiles, home paths, variables, mentions and issue numbers whole', () => {
    expect(tokenize('.env ~/bin $HOME @types/node #123')).toEqual([
      '.env',
      'env',
      '~/bin',
      'bin',
      '$HOME',
      'HOME',
      '@types/node',
      'types/node',
      'types',
      'node',
      '#123',
      '123',
    ])
  })

  it('keeps the trailing signs of C++ and C#', () => {
    expect(tokenize('C++ and C#.')).toEqual(['C++', 'C', 'and', 'C#', 'C'])
  })

  it('drops English clitics after an apostrophe, straight or typographic', () => {
    expect(tokenize("the owner's car")).toEqual(['the', 'owner', 'car'])
    expect(tokenize('Priya\u2019s cat')).toEqual(['Priya', 'cat'])
    expect(tokenize("don't can't won't isn't they're I'll we'd I'm")).toEqual([
      'do',
      'can',
      'will',
      'is',
      'they',
      'I',
      'we',
      'I',
    ])
  })

  it('keeps other apostrophes as joiners', () => {
    expect(tokenize("O'Brien's rock'n'roll")).toEqual([
      "O'Brien",
      'O',
      'Brien',
      'OBrien',
      "rock'n'roll",
      'rock',
      'n',
      'rockn',
      'roll',
      'nroll',
    ])
  })

  it('keeps words of other scripts, and drops emoji', () => {
    expect(tokenize('我喜欢猫 مرحبا हिंदी 👨\u200D👩\u200D👧 café')).toEqual([
      '我喜欢猫',
      'مرحبا',
      'हिंदी',
      'café',
    ])
  })

  it('splits a Persian word at its zero-width non-joiner and keeps it whole too', () => {
    expect(tokenize('می\u200Cخواهم')).toEqual(['می\u200Cخواهم', 'می', 'خواهم'])
  })

  it('yields nothing for punctuation, symbols and whitespace only', () => {
    expect(tokenize(' -- ... !? 👍 \u200D ')).toEqual([])
  })

  it('never yields a lone combining mark as a token', () => {
    expect(tokenize('\u{12400}\u0897 \u0338x')).toEqual(['\u{12400}\u0897', 'x'])
  })

  it('drops components of a compound that are only separators', () => {
    expect(tokenize('0+.:A')).toEqual(['0+.:A', '0', 'A'])
  })

  it("keeps a one-letter word before n't rather than emptying it", () => {
    expect(tokenize('N\u2019t')).toEqual(['N'])
  })

  it('never yields an empty token, nor one without a letter or digit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        for (const token of tokenize(text)) expect(token).toMatch(/[\p{L}\p{N}]/u)
      }),
      { seed: SEED, numRuns: 500 },
    )
  })

  it('tokenises two texts joined by a space into at least the tokens of each', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const joined = new Set(tokenize(`${a} ${b}`))
        for (const token of [...tokenize(a), ...tokenize(b)]) expect(joined).toContain(token)
      }),
      { seed: SEED, numRuns: 300 },
    )
  })
})

describe('processTerm', () => {
  it('lower-cases and stems plain English words', () => {
    expect(processTerm('Running')).toBe('run')
    expect(processTerm('cats')).toBe('cat')
  })

  it('drops stop words before stemming', () => {
    expect(processTerm('the')).toBeNull()
    expect(processTerm('Was')).toBeNull()
    expect(processTerm('does')).toBeNull()
  })

  it('keeps an all-caps acronym that spells a stop word', () => {
    expect(processTerm('US')).toBe('us')
    expect(processTerm('IT')).toBe('it')
    expect(processTerm('It')).toBeNull()
  })

  it('leaves identifiers, flags, paths and ids unstemmed but lower-cased', () => {
    expect(processTerm('--no-verify')).toBe('--no-verify')
    expect(processTerm('FH-2291')).toBe('fh-2291')
    expect(processTerm('scripts/Running.sh')).toBe('scripts/running.sh')
    expect(processTerm('v12')).toBe('v12')
  })

  it('drops single Latin letters but keeps single digits and other scripts', () => {
    expect(processTerm('x')).toBeNull()
    expect(processTerm('I')).toBeNull()
    expect(processTerm('3')).toBe('3')
    expect(processTerm('猫')).toBe('猫')
  })

  it('lower-cases words of other scripts without stemming them', () => {
    expect(processTerm('Ελλάδα')).toBe('ελλάδα')
    expect(processTerm('Müllers')).toBe('müllers')
  })

  it('never returns an empty string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        for (const token of tokenize(text)) expect(processTerm(token)).not.toBe('')
      }),
      { seed: SEED, numRuns: 300 },
    )
  })
})

describe('STOP_WORDS', () => {
  it('holds function words only, in lower case', () => {
    expect(STOP_WORDS.size).toBeGreaterThan(100)
    for (const word of STOP_WORDS) expect(word).toMatch(/^[a-z]+$/)
    for (const content of ['like', 'get', 'make', 'up', 'down', 'may', 'one']) {
      expect(STOP_WORDS.has(content)).toBe(false)
    }
  })
})

const word = fc.stringMatching(/^[a-z]{2,9}$/)
const words = fc.array(word, { minLength: 2, maxLength: 4 })
const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)

describe('analyze', () => {
  it('turns text into index terms in order, stop words and clitics dropped', () => {
    expect(analyze("Priya's authHandler isn't running")).toEqual([
      'priya',
      'authhandl',
      'auth',
      'handler',
      'run',
    ])
  })

  it('never drops a whole flag even though its first word is a stop word', () => {
    expect(analyze('use --no-verify')).toEqual([
      'us',
      '--no-verify',
      'no-verify',
      'verifi',
      'noverifi',
    ])
  })

  it('keeps duplicates', () => {
    expect(analyze('cat cats')).toEqual(['cat', 'cat'])
  })

  it('yields the stem of every plain word that is not a stop word', () => {
    const punctuated = fc.tuple(word, fc.constantFrom('', '.', ',', '!', '?', ')', '"'))
    fc.assert(
      fc.property(fc.array(punctuated, { minLength: 1, maxLength: 8 }), (pairs) => {
        const terms = analyze(pairs.map(([w, mark]) => w + mark).join(' '))
        for (const [w] of pairs) if (!STOP_WORDS.has(w)) expect(terms).toContain(stemmer(w))
      }),
      { seed: SEED },
    )
  })

  it.each([
    ['snake_case', (ws: string[]) => ws.join('_')],
    ['kebab-case', (ws: string[]) => ws.join('-')],
    ['dot.case', (ws: string[]) => ws.join('.')],
    ['camelCase', (ws: string[]) => ws[0] + ws.slice(1).map(capitalise).join('')],
    ['PascalCase', (ws: string[]) => ws.map(capitalise).join('')],
    ['SCREAMING_SNAKE', (ws: string[]) => ws.join('_').toUpperCase()],
    ['a --flag', (ws: string[]) => `--${ws.join('-')}`],
  ])('finds every word of a %s identifier that the spaced words find', (_, spell) => {
    fc.assert(
      fc.property(words, (ws) => {
        const identifier = new Set(analyze(spell(ws)))
        for (const term of analyze(ws.join(' '))) expect(identifier).toContain(term)
      }),
      { seed: SEED },
    )
  })

  it('analyzes 10k short facts to the same terms apart from their numbers', () => {
    const facts = Array.from(
      { length: 10_000 },
      (_, i) => `I like hiking with my dog Rex #${i} on weekends.`,
    )
    const shapes = new Set(
      facts.map((fact, i) =>
        analyze(fact)
          .filter((term) => term !== String(i) && term !== `#${i}`)
          .join(' '),
      ),
    )
    expect(shapes.size).toBe(1)
  })
})

describe('tokenizeQuery', () => {
  it('joins adjacent plain words so an identifier typed with spaces meets its indexed form', () => {
    expect(tokenizeQuery('the auth handler')).toEqual(['the', 'auth', 'handler', 'authhandler'])
    for (const spelling of ['auth_handler', 'authHandler', 'auth-handler', 'auth.handler']) {
      const indexed = analyze(spelling)
      const asked = tokenizeQuery('auth handler').map(processTerm)
      expect(indexed).toEqual(expect.arrayContaining(asked.filter((t) => t !== null)))
    }
  })

  it('joins neither stop words nor numbers', () => {
    expect(tokenizeQuery('what is FH 2291')).toEqual(['what', 'is', 'FH', '2291'])
  })
})

describe('termProcessor', () => {
  const words = ['Running', 'the', 'US', '--no-verify', 'x']

  it('is processTerm itself with both parts on', () => {
    expect(termProcessor()).toBe(processTerm)
    expect(termProcessor({ stemming: true, stopWords: true })).toBe(processTerm)
  })

  it('can leave words unstemmed', () => {
    expect(words.map(termProcessor({ stemming: false }))).toEqual([
      'running',
      null,
      'us',
      '--no-verify',
      null,
    ])
  })

  it('can keep stop words', () => {
    expect(words.map(termProcessor({ stopWords: false }))).toEqual([
      'run',
      'the',
      'us',
      '--no-verify',
      null,
    ])
  })

  it('agrees with processTerm on every term when both parts are on', () => {
    const process = termProcessor({ stemming: true, stopWords: false })
    for (const word of ['cats', 'Running', 'FH-2291', 'naïve']) {
      expect(process(word)).toBe(processTerm(word))
    }
  })
})
