/**
 * Where a hit's text matched its query: offsets of the query's terms and quoted phrases, for
 * showing a recall hit with the matching words marked. Terms are matched the way the keyword
 * index matches them (the same tokeniser, stemmer and stop words), so `deploying` marks
 * `deploy`, `deploys` and `deployed`, and "auth handler" marks all of `auth_handler`,
 * `authHandler` and `auth-handler`.
 */

import { processTerm, tokenize } from '../tokenize.ts'

/** `[start, end)` in UTF-16 code units of the text as given. */
export type HighlightRange = [start: number, end: number]

/**
 * What to mark. An `AnalyzedQuery` of recall (src/engine/recall/analyze-query.ts) is one.
 */
export interface HighlightQuery {
  /** Index terms as the keyword index analyses them, joined neighbours included (`authhandl`). */
  searchTerms: readonly string[]
  /** Quoted phrases in `phraseKey` form (see core/query.ts). */
  phrases: readonly string[]
}

/** One match before ranges are merged: a term of a token, or a whole phrase. */
export interface HighlightMatch {
  start: number
  end: number
  /** The query term the text at `[start, end)` analyses to (its words joined, for a compound). */
  term?: string
  /** The phrase that occurs at `[start, end)`. */
  phrase?: string
}

/** Turns a token into an index term, or `null` when it is dropped. @default processTerm */
export type TermProcessor = (token: string) => string | null

// The token runs of tokenize.ts (its CHUNK); a test pins the two together.
const RUN = /(?:[\p{L}\p{M}\p{N}_\-./\\:@#+~=&?%$'\u2019\u200C\u200D]|(?<=\p{N}),(?=\p{N}))+/gu
// Words inside a run: letters (cut at case changes) or digits, as tokenize.ts cuts camelCase.
const WORD =
  /[\p{Lu}\p{Lt}][\p{Lu}\p{Lt}\p{M}]*(?!\p{Ll})|[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}][\p{Ll}\p{Lo}\p{Lm}\p{M}]*|\p{N}[\p{N}\p{M}]*/gu
const ASCII = /^[\p{ASCII}]*$/u
// A run that is one lower-case or Capitalised word: its only span is itself.
const PLAIN_WORD = /^[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}][\p{Ll}\p{Lo}\p{Lm}\p{M}]*$|^\p{N}+$/u
// The most words of one run tried as a span: enough for any identifier people type.
const MAX_SPAN_WORDS = 8

/**
 * Sorted, non-overlapping ranges of `text` where the query matched; touching ranges are merged,
 * so `authHandler` comes out as one range for "auth handler". Offsets count UTF-16 code units of
 * `text` as given, whatever its normalisation: compatibility forms (`ﬁle`, full-width letters)
 * and decomposed accents match their plain forms, and emoji keep their width.
 *
 * @example
 * highlightRanges('Deployed the authHandler, then ran the deploy script.', {
 *   searchTerms: ['deploi', 'auth', 'handler', 'authhandl'], phrases: ['deploy script'] })
 * // => [[0, 8], [13, 24], [39, 52]]
 */
export function highlightRanges(
  text: string,
  query: HighlightQuery,
  process: TermProcessor = processTerm,
): HighlightRange[] {
  return mergeRanges(highlightMatches(text, query, process))
}

/**
 * Every match of {@link highlightRanges} before merging, in text order: each span of a token
 * (the whole token, one word of it, or neighbouring words) whose term is a query term, and each
 * occurrence of a phrase that starts and ends at word edges.
 *
 * @example
 * highlightMatches('auth_handler', { searchTerms: ['auth', 'handler', 'authhandl'], phrases: [] })
 * // => [{ start: 0, end: 4, term: 'auth' }, { start: 0, end: 12, term: 'authhandl' },
 * //     { start: 5, end: 12, term: 'handler' }]
 */
export function highlightMatches(
  text: string,
  query: HighlightQuery,
  process: TermProcessor = processTerm,
): HighlightMatch[] {
  const matches = termMatches(text, query.searchTerms, process)
  const index = query.phrases.length > 0 ? phraseIndex(text) : undefined
  for (const phrase of query.phrases) matches.push(...phraseMatches(index!, phrase))
  return matches.sort((a, b) => a.start - b.start || a.end - b.end)
}

/**
 * The words as written behind index terms (issue 26): for each term, its first occurrence in the
 * first of `texts` that holds it (the shortest span there: `Priya`, not `Priya's`), lower-cased; the term itself where none holds it (a stem with
 * no spelling there, or a term that is already a word). Order kept, each form once. What
 * explanations show, so a user reads `birthday`, not the stem `birthdai`; stems stay internal.
 *
 * @example
 * surfaceForms(['birthdai', 'databas', 'zzz'], ['My Birthday list of databases'])
 * // => ['birthday', 'databases', 'zzz']
 */
export function surfaceForms(
  terms: readonly string[],
  texts: readonly string[],
  process: TermProcessor = processTerm,
): string[] {
  if (terms.length === 0) return []
  const wanted = new Set(terms)
  const found = new Map<string, string>()
  for (const text of texts) {
    if (found.size === wanted.size) break
    const best = new Map<string, HighlightMatch>()
    for (const m of termMatches(
      text,
      [...wanted].filter((t) => !found.has(t)),
      process,
    )) {
      const seen = best.get(m.term!)
      if (!seen || m.start < seen.start || (m.start === seen.start && m.end < seen.end)) {
        best.set(m.term!, m)
      }
    }
    for (const [term, m] of best) found.set(term, text.slice(m.start, m.end).toLowerCase())
  }
  return [...new Set(terms.map((t) => found.get(t) ?? t))]
}

/** Sorts ranges and merges those that overlap or touch. */
export function mergeRanges(matches: readonly { start: number; end: number }[]): HighlightRange[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || a.end - b.end)
  const ranges: HighlightRange[] = []
  for (const { start, end } of sorted) {
    const last = ranges[ranges.length - 1]
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else ranges.push([start, end])
  }
  return ranges
}

function termMatches(
  text: string,
  searchTerms: readonly string[],
  process: TermProcessor,
): HighlightMatch[] {
  const wanted = new Set<string>()
  for (const term of searchTerms) {
    wanted.add(term)
    wanted.add(term.normalize('NFKC'))
  }
  if (wanted.size === 0) return []
  const matches: HighlightMatch[] = []
  const seen = new Set<string>()
  // Words repeat within a text: each candidate string is analysed once per call.
  const terms = new Map<string, string | undefined>()
  const add = (start: number, end: number, candidate: string) => {
    let term = terms.get(candidate)
    if (term === undefined && !terms.has(candidate)) {
      term = termOf(candidate, wanted, process)
      terms.set(candidate, term)
    }
    const key = `${start}:${end}:${term}`
    if (term === undefined || seen.has(key)) return
    seen.add(key)
    matches.push({ start, end, term })
  }
  for (const run of text.matchAll(RUN)) {
    const base = run.index
    const token = run[0]
    seen.clear()
    if (PLAIN_WORD.test(token)) {
      add(base, base + token.length, token)
      continue
    }
    const whole = tokenize(token)[0]
    const at = whole === undefined ? -1 : token.indexOf(whole)
    if (whole !== undefined && at !== -1) add(base + at, base + at + whole.length, whole)
    const words = [...token.matchAll(WORD)]
    for (let i = 0; i < words.length; i++) {
      const first = words[i]!
      let joined = ''
      for (let j = i; j < words.length && j < i + MAX_SPAN_WORDS; j++) {
        const last = words[j]!
        joined += last[0]
        const start = base + first.index
        const end = base + last.index + last[0].length
        if (j > i) add(start, end, text.slice(start, end))
        add(start, end, joined)
      }
    }
  }
  return matches
}

/** The query term a candidate analyses to, trying its NFC and NFKC forms too. */
function termOf(
  candidate: string,
  wanted: ReadonlySet<string>,
  process: TermProcessor,
): string | undefined {
  const forms = ASCII.test(candidate)
    ? [candidate]
    : [candidate, candidate.normalize('NFC'), candidate.normalize('NFKC')]
  for (const form of forms) {
    const term = process(form)
    if (term !== null && wanted.has(term)) return term
  }
  return undefined
}

const APOSTROPHES = /[\u2018\u2019\u02BC]/g
const STRIPPED = /^[\u200B\u2060\uFEFF\u00AD]$/
const WHITESPACE = /^\s$/u
const MARK = /^\p{M}$/u

/**
 * A text in the form phrases are compared in (NFKC, lower case, typographic apostrophes as `'`,
 * final sigma as σ, whitespace runs as one space), with each unit's source range in the text.
 */
interface PhraseIndex {
  key: string
  from: number[]
  to: number[]
}

function phraseIndex(text: string): PhraseIndex {
  let key = ''
  const from: number[] = []
  const to: number[] = []
  const push = (folded: string, start: number, end: number) => {
    for (let k = 0; k < folded.length; k++) {
      from.push(start)
      to.push(end)
    }
    key += folded
  }
  let i = 0
  let spaced = false
  while (i < text.length) {
    const code = text.charCodeAt(i)
    let j = i + (code >= 0xd800 && code <= 0xdbff ? 2 : 1)
    // A character and the marks after it normalise together (no mark is below U+0300).
    while (j < text.length && text.charCodeAt(j) >= 0x300 && isMark(text, j))
      j += text.codePointAt(j)! > 0xffff ? 2 : 1
    if (code < 0x80 && j === i + 1) {
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        if (key !== '' && !spaced) push(' ', i, j)
        spaced = true
      } else {
        push(code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : text[i]!, i, j)
        spaced = false
      }
      i = j
      continue
    }
    const unit = text.slice(i, j)
    if (WHITESPACE.test(unit[0]!)) {
      if (key !== '' && !spaced) push(' ', i, j)
      spaced = true
    } else if (!STRIPPED.test(unit)) {
      push(foldForPhrase(unit), i, j)
      spaced = false
    }
    i = j
  }
  return { key, from, to }
}

function isMark(text: string, at: number): boolean {
  return MARK.test(String.fromCodePoint(text.codePointAt(at)!))
}

function foldForPhrase(text: string): string {
  if (text.length === 1 && text.charCodeAt(0) < 0x80) return text.toLowerCase()
  return text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'").replaceAll('ς', 'σ')
}

function phraseMatches({ key, from, to }: PhraseIndex, phrase: string): HighlightMatch[] {
  const wanted = foldForPhrase(phrase.trim()).replace(/\s+/gu, ' ')
  if (wanted === '') return []
  const matches: HighlightMatch[] = []
  for (let at = key.indexOf(wanted); at !== -1; at = key.indexOf(wanted, at + 1)) {
    const endAt = at + wanted.length
    if (joinsWord(charBefore(key, at), firstChar(wanted))) continue
    if (joinsWord(lastChar(wanted), charAt(key, endAt))) continue
    matches.push({ start: from[at]!, end: to[endAt - 1]!, phrase })
  }
  return matches
}

const SPACED_WORD_CHAR = /[\p{L}\p{M}\p{N}]/u
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u

/** Whether two neighbouring characters are inside one space-delimited word (as query.ts). */
function joinsWord(left: string, right: string): boolean {
  return isSpacedWordChar(left) && isSpacedWordChar(right)
}

function isSpacedWordChar(char: string): boolean {
  return char !== '' && SPACED_WORD_CHAR.test(char) && !UNSPACED_SCRIPT.test(char)
}

function charAt(text: string, index: number): string {
  const codePoint = index < text.length ? text.codePointAt(index) : undefined
  return codePoint === undefined ? '' : String.fromCodePoint(codePoint)
}

function charBefore(text: string, index: number): string {
  if (index <= 0) return ''
  const low = text.charCodeAt(index - 1)
  const isPair = low >= 0xdc00 && low <= 0xdfff && index >= 2
  return charAt(text, isPair ? index - 2 : index - 1)
}

function firstChar(text: string): string {
  return charAt(text, 0)
}

function lastChar(text: string): string {
  return charBefore(text, text.length)
}
