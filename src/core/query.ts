/**
 * Query parsing for recall: quoted phrases must occur exactly; everything, phrase words
 * included, is free text for BM25 and the embedder.
 */

import { normalizeText } from './text.ts'
import { analyze } from './tokenize.ts'

/** A recall query taken apart: free text and quoted phrases. */
export interface QueryParts {
  /**
   * The query with the quote marks of its phrases removed, so phrase words still score in
   * BM25 and reach the embedder. Unmatched quote marks stay as they are.
   */
  text: string
  /** The quoted phrases, as {@link phraseKey} forms; a hit must contain every one. */
  phrases: string[]
}

/** {@link QueryParts} with the default analyser's terms, for tools (the evaluation harness). */
export interface ParsedQuery extends QueryParts {
  /** Unique index terms of `text`, in order of first appearance. */
  terms: string[]
}

// Straight, curly and low-9 double quotes all open and close a phrase: phones and word
// processors rarely produce a balanced pair of the "right" ones.
const QUOTE = /["\u201C\u201D\u201E]/g
const NEWLINES = /\n+/g

/**
 * Splits a query into free text and quoted phrases. Quotes pair up left to right; an odd one out
 * is an ordinary character. An empty pair (`""`) is no phrase.
 *
 * @example
 * splitQuery('why did “ECONNRESET: socket hang up” break CI?')
 * // => { text: 'why did ECONNRESET: socket hang up break CI?',
 * //      phrases: ['econnreset: socket hang up'] }
 */
export function splitQuery(query: string): QueryParts {
  const normal = normalizeText(query).replace(NEWLINES, ' ')
  const quotes = [...normal.matchAll(QUOTE)].map((match) => match.index)
  const paired = quotes.length - (quotes.length % 2)
  const phrases: string[] = []
  let text = ''
  let from = 0
  for (let i = 0; i < paired; i += 2) {
    const open = quotes[i]!
    const close = quotes[i + 1]!
    const phrase = phraseKey(normal.slice(open + 1, close))
    if (phrase !== '' && !phrases.includes(phrase)) phrases.push(phrase)
    text += normal.slice(from, open) + normal.slice(open + 1, close)
    from = close + 1
  }
  text = (text + normal.slice(from)).replace(/ {2,}/g, ' ').trim()
  return { text, phrases }
}

/**
 * {@link splitQuery} plus the unique index terms of the free text under the default analyser
 * (`analyze`: stemming and stop words on). Recall itself analyses with its keyword index's own
 * settings instead (`analyzeQuery` in src/engine/recall/).
 *
 * @example
 * parseQuery('why did “ECONNRESET: socket hang up” break --runInBand in FH-2291?')
 * // => { text: 'why did ECONNRESET: socket hang up break --runInBand in FH-2291?',
 * //      phrases: ['econnreset: socket hang up'],
 * //      terms: ['econnreset', 'socket', 'hang', 'up', 'break', '--runinband', 'runinband',
 * //              'run', 'band', 'fh-2291', 'fh', '2291'] }
 */
export function parseQuery(query: string): ParsedQuery {
  const parts = splitQuery(query)
  return { ...parts, terms: [...new Set(analyze(parts.text))] }
}

const APOSTROPHES = /[\u2018\u2019\u02BC]/g
const SPACES = /\s+/g

/**
 * The form both a phrase and a memory's text take before phrase matching: NFC, lower case,
 * typographic apostrophes as `'`, all whitespace collapsed. Punctuation is kept, since people
 * quote error messages.
 *
 * @example
 * phraseKey('  ECONNRESET:\n socket   Hang up ')
 * // => 'econnreset: socket hang up'
 */
export function phraseKey(text: string): string {
  return normalizeText(text).toLowerCase().replace(APOSTROPHES, "'").replace(SPACES, ' ')
}

// Letters and digits of scripts written with spaces between words. Han, kana, Thai and the like
// run words together, so a phrase may start or end anywhere inside them.
const SPACED_WORD_CHAR = /[\p{L}\p{M}\p{N}]/u
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u

/**
 * Whether every phrase occurs in the text. Where a phrase starts or ends in the middle of a
 * word, it does not count: `"hang up"` does not match "hang upstairs".
 *
 * @example
 * matchesPhrases('Error: ECONNRESET: socket hang up', ['econnreset: socket hang up'])
 * // => true
 */
export function matchesPhrases(text: string, phrases: readonly string[]): boolean {
  return phrases.length === 0 || containsPhrases(phraseKey(text), phrases)
}

/**
 * {@link matchesPhrases} over a text already in its {@link phraseKey} form, for callers that keep
 * the keys of many texts and match one query against all of them.
 *
 * @example
 * containsPhrases(phraseKey('They hang up, then hang upstairs'), ['hang up'])
 * // => true
 */
export function containsPhrases(key: string, phrases: readonly string[]): boolean {
  return phrases.every((phrase) => containsPhrase(key, phrase))
}

function containsPhrase(key: string, phrase: string): boolean {
  const first = codePointAt(phrase, 0)
  const last = codePointAt(phrase, codePointBefore(phrase, phrase.length))
  for (let at = key.indexOf(phrase); at !== -1; at = key.indexOf(phrase, at + 1)) {
    const before = codePointAt(key, codePointBefore(key, at))
    const after = codePointAt(key, at + phrase.length)
    if (!joinsWord(before, first) && !joinsWord(last, after)) return true
  }
  return false
}

// A phrase's plain ASCII words, and what tokenising a text does to a word at a phrase's edge:
// the text may glue a clitic to the first word (`we're` → `we`, so `re` is not indexed) or a
// negation to the last (`don't` → `do`, so `don` is not).
const PLAIN_ASCII_WORD = /^[a-z0-9]+$/
const CLITICS = new Set(['s', 't', 're', 've', 'll', 'd', 'm'])

/**
 * Words of a phrase ({@link phraseKey} form) that every text containing the phrase also holds
 * as a whole token under `tokenize`, so the keyword index's posting lists of their terms narrow
 * the search for the phrase's matches without missing one. Only plain ASCII words qualify; a
 * word at the phrase's edge may sit against punctuation in the text, which `tokenize` still cuts
 * at (`x-hang` holds `hang`), except where a clitic is stripped. A text with an unspaced script
 * ({@link hasUnspacedScript}) may glue a word to its neighbour with no cut at all: check those
 * texts whatever the words.
 *
 * @example
 * phraseWords("re-run the tests, don")
 * // => ['the']
 */
export function phraseWords(phrase: string): string[] {
  const words = phrase.split(' ')
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (!PLAIN_ASCII_WORD.test(word)) continue
    if (i === 0 && CLITICS.has(word)) continue
    if (i === words.length - 1 && word.endsWith('n')) continue
    out.push(word)
  }
  return out
}

/** Whether the text holds a letter of a script written without spaces (Han, kana, Thai...). */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED_SCRIPT.test(text)
}

/** Whether two neighbouring characters are inside one space-delimited word. */
function joinsWord(left: string, right: string): boolean {
  return isSpacedWordChar(left) && isSpacedWordChar(right)
}

function isSpacedWordChar(char: string): boolean {
  return SPACED_WORD_CHAR.test(char) && !UNSPACED_SCRIPT.test(char)
}

/** The character (whole code point) at `index`, or '' outside the string. */
function codePointAt(text: string, index: number): string {
  const codePoint = index < 0 ? undefined : text.codePointAt(index)
  return codePoint === undefined ? '' : String.fromCodePoint(codePoint)
}

/** Index of the code point that ends just before `index` (-1 at the start). */
function codePointBefore(text: string, index: number): number {
  const low = text.charCodeAt(index - 1)
  const high = text.charCodeAt(index - 2)
  const isPair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff
  return isPair ? index - 2 : index - 1
}

/**
 * The query terms that occur among the text's index terms, in query order, each once: the
 * "matched [...]" part of a recall explanation.
 *
 * @example
 * matchedTerms(parseQuery('who handles auth?').terms, 'Priya owns the authHandler')
 * // => ['auth']
 */
export function matchedTerms(queryTerms: readonly string[], text: string): string[] {
  const present = new Set(analyze(text))
  return [...new Set(queryTerms)].filter((term) => present.has(term))
}
