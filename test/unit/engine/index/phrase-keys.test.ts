import { describe, expect, it } from 'vitest'
import { matchesPhrases, phraseKey } from '../../../../src/core/query.ts'
import { PhraseKeys } from '../../../../src/engine/index/phrase-keys.ts'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import { keywordList } from '../../../../src/engine/recall/keyword-list.ts'
import { phraseScope } from '../../../../src/engine/recall/lists.ts'
import { recallScope } from '../../../../src/engine/recall/scope.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'
import { indexed, row } from '../fixtures.ts'

const filter = { namespace: 'default', includeFlagged: true }

// Words and glue chosen to meet every way `tokenize` treats a phrase's edge: clitics (`we're`,
// `don't`), compounds (`x-hang`, `auth_handler`, `a/b`), trailing `++`/`#`, digits with commas,
// Han text with no space, and stop words.
const WORDS = [
  'hang',
  'up',
  'socket',
  'we',
  're',
  'don',
  'done',
  'the',
  'of',
  'auth',
  'handler',
  'run',
  'running',
  'java',
  'c',
  '1',
  '000',
  'people',
  'Hang',
  'UP',
  'it',
  'IT',
  's',
  't',
  'bob',
]
const GLUE = [
  ' ',
  ' ',
  ' ',
  ' ',
  '-',
  '_',
  '/',
  "'",
  '’',
  ', ',
  '. ',
  '++ ',
  '# ',
  ',',
  '漢',
  '\n',
  '  ',
]

function text(next: () => number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out += WORDS[Math.floor(next() * WORDS.length)]!
    if (i < length - 1) out += GLUE[Math.floor(next() * GLUE.length)]!
  }
  return out
}

/** A phrase cut from a text at spaces (so it often matches), or made up. */
function phrase(next: () => number, texts: readonly string[]): string {
  if (next() < 0.3) return text(next, 1 + Math.floor(next() * 3))
  const words = phraseKey(texts[Math.floor(next() * texts.length)]!).split(' ')
  const from = Math.floor(next() * words.length)
  const length = 1 + Math.floor(next() * 3)
  return words.slice(from, from + length).join(' ')
}

describe('phrase matches found first', () => {
  it('are exactly the memories a check of every memory finds, over seeded texts', async () => {
    const next = uniform(TEST_SEED)
    const texts = Array.from({ length: 300 }, () => text(next, 3 + Math.floor(next() * 8)))
    const indexes = await indexed(texts.map((t, i) => row(`m${i}`, t)))
    let nonEmpty = 0
    for (let trial = 0; trial < 400; trial++) {
      const quoted = Array.from({ length: 1 + Math.floor(next() * 2) }, () => phrase(next, texts))
      const q = analyzeQuery(quoted.map((p) => `"${p}"`).join(' '), indexes.keyword)
      if (q.phrases.length === 0) continue
      const scope = recallScope(indexes, q, filter, 0)
      const expected = [...indexes.catalogue.keys()].filter((id) => scope.strict(id))
      const found = phraseScope(indexes, q, scope).phraseMatches!
      expect([...found].sort(), JSON.stringify(q.phrases)).toEqual(expected.sort())
      if (expected.length > 0) nonEmpty++
    }
    expect(nonEmpty).toBeGreaterThan(100)
  })

  it('leave the keyword list as the check of every memory made it', async () => {
    const rows = [
      row('a', 'ECONNRESET: socket hang up in the deploy job'),
      row('b', 'the socket was fine; we hang up the phone'),
      row('c', 'Socket hang up again, ECONNRESET: socket hang up twice'),
      row('d', 'we’re done with the socket hang up bug'),
      row('e', '漢socket hang up'),
    ]
    const indexes = await indexed(rows)
    const q = analyzeQuery('"socket hang up" deploy', indexes.keyword)
    const scope = recallScope(indexes, q, filter, 0)
    const before = keywordList(indexes, q, scope, 30, 1)
    const after = keywordList(indexes, q, phraseScope(indexes, q, scope), 30, 1)
    expect(after.list.items).toEqual(before.list.items)
    expect(after.list.items.map((i) => i.id).sort()).toEqual(['a', 'c', 'd', 'e'])
  })

  it('include a phrase whose edge word the text glued to a clitic or negation', async () => {
    const rows = [row('a', "we don't know"), row('b', "they're done"), row('c', 'don re')]
    const indexes = await indexed(rows)
    for (const [query, ids] of [
      ['"we don"', ['a']],
      ['"re done"', ['b']],
      ['"re"', ['b', 'c']],
    ] as const) {
      const q = analyzeQuery(query, indexes.keyword)
      const found = phraseScope(indexes, q, recallScope(indexes, q, filter, 0)).phraseMatches!
      expect([...found].sort(), query).toEqual(ids)
    }
  })

  it('come from a catalogue adopted whole, Han texts included', async () => {
    const rows = [row('a', '漢字hang up'), row('b', 'hang up now'), row('c', 'hang upstairs')]
    const indexes = await indexed(rows)
    indexes.adoptCatalogue(rows)
    const q = analyzeQuery('"hang up"', indexes.keyword)
    const found = phraseScope(indexes, q, recallScope(indexes, q, filter, 0)).phraseMatches!
    expect([...found].sort()).toEqual(['a', 'b'])
  })

  it('match each text as its whole key does, raw texts with invisible characters included', () => {
    const next = uniform(TEST_SEED + 1)
    // Glue the write path would have normalised away: a key drops or folds all of it.
    const raw = [
      '\u00AD',
      '\u200B',
      '\uFEFF',
      '\u2060',
      '\r\n',
      '\t',
      '\u00A0',
      '\u212A',
      'e\u0301',
    ]
    const texts = Array.from({ length: 300 }, () => {
      let t = text(next, 2 + Math.floor(next() * 8))
      for (let i = 0; i < 3; i++) {
        const at = Math.floor(next() * t.length)
        t = t.slice(0, at) + raw[Math.floor(next() * raw.length)]! + t.slice(at)
      }
      return t
    })
    const keys = new PhraseKeys()
    for (const [i, t] of texts.entries()) keys.put({ id: `m${i}`, text: t })
    let matched = 0
    for (let trial = 0; trial < 200; trial++) {
      const phrases = [phrase(next, texts)].filter((p) => p !== '')
      for (const [i, t] of texts.entries()) {
        const expected = matchesPhrases(t, phrases)
        expect(
          keys.matches({ id: `m${i}`, text: t }, phrases),
          `${JSON.stringify(t)} ${phrases}`,
        ).toBe(expected)
        if (expected) matched++
      }
    }
    expect(matched).toBeGreaterThan(1000)
  })
})
