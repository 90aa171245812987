/**
 * The identifier-aware tokeniser behind keyword recall, used as MiniSearch's `tokenize` and
 * `processTerm` on both the index and the query side.
 *
 * A token is a run of letters, marks, digits and the joiners that glue identifiers, paths, flags,
 * URLs and numbers together. A compound token is kept whole and also split into its parts, so
 * `auth_handler`, `authHandler` and `auth-handler` all answer the query "auth handler", while the
 * exact spelling still scores higher. Apostrophes are English clitics: `owner's` is `owner`,
 * `don't` is `do`, `can't` is `can` (all but `owner` then dropped as stop words).
 */

import { stemmer } from 'stemmer'
import { STOP_WORDS } from './stop-words.ts'

export { STOP_WORDS }

// Commas count only between digits ("1,000"); ZWNJ/ZWJ are parts of words in Persian and Indic
// scripts. Everything else that is not listed here separates tokens.
const CHUNK = /(?:[\p{L}\p{M}\p{N}_\-./\\:@#+~=&?%$'\u2019\u200C\u200D]|(?<=\p{N}),(?=\p{N}))+/gu

// One word with no inner structure: lower case, Capitalised or ALL CAPS letters, or digits.
const PLAIN =
  /^(?:[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}][\p{Ll}\p{Lo}\p{Lm}\p{M}]*|[\p{Lu}\p{Lt}][\p{Lu}\p{Lt}\p{M}]*|\p{N}+)$/u

// A prefix that belongs to the token when it is all there is before the first letter or digit
// (flags, dotfiles, paths, variables, mentions, issue numbers), the core from the first to the
// last letter or digit, and a trailing `++`/`#` (C++, C#). Anything else at the edges is
// sentence punctuation ("...and", "done.").
const EDGES =
  /^(?:(--?|\.|~?\/|[$@#])(?=[\p{L}\p{N}])|[^\p{L}\p{N}]*)([\p{L}\p{N}](?:.*[\p{L}\p{N}\p{M}])?)([+#]*)/su

const CLITIC = /^(.*\p{L})['\u2019](s|t|re|ve|ll|d|m)$/iu
const NEGATIONS: Readonly<Record<string, string>> = { can: 'can', won: 'will', shan: 'shall' }

// Separators by level: the first cuts paths, URLs, emails and assignments into components, the
// second cuts components into words; words are then cut at case and letter/digit changes.
const LEVELS = [/[/\\@:?&=#+~,$%\u200C\u200D]+/, /[._\-'\u2019]+/]
const PIECE_EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}\p{M}]+$/gu
const CAMEL_PART =
  /[\p{Lu}\p{Lt}][\p{Lu}\p{Lt}\p{M}]*(?!\p{Ll})|[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}][\p{Ll}\p{Lo}\p{Lm}\p{M}]*|\p{N}[\p{N}\p{M}]*/gu

/**
 * Splits text into tokens in reading order, casing untouched. Plain words come out as they are;
 * a compound comes out whole, then its components and words. Never yields an empty string.
 *
 * @example
 * tokenize('Run scripts/ship.sh --no-verify (see FH-2291).')
 * // => ['Run', 'scripts/ship.sh', 'scripts', 'ship.sh', 'ship', 'sh', '--no-verify',
 * //     'no-verify', 'no', 'verify', 'see', 'FH-2291', 'FH', '2291']
 */
export function tokenize(text: string): string[] {
  const out: string[] = []
  for (const [chunk] of text.matchAll(CHUNK)) {
    if (PLAIN.test(chunk)) out.push(chunk)
    else addCompound(chunk, out)
  }
  return out
}

function addCompound(chunk: string, out: string[]): void {
  const edges = EDGES.exec(chunk)
  if (!edges) return
  const lead = edges[1] ?? ''
  let core = edges[2]!
  let tail = edges[3] ?? ''
  if (core.includes("'") || core.includes('\u2019')) {
    const base = stripClitic(core)
    if (base !== core) {
      core = base
      tail = ''
    }
  }
  const whole = lead + core + tail
  out.push(whole)
  if (whole !== core) out.push(core)
  if (!PLAIN.test(core)) addParts(core, 0, out)
}

/** `owner's` -> `owner`, `don't` -> `do`, `won't` -> `will`; other apostrophes stay. */
function stripClitic(word: string): string {
  const match = CLITIC.exec(word)
  if (!match) return word
  const base = match[1]!
  if (match[2]!.toLowerCase() !== 't' || !/.n$/i.test(base)) return base
  return NEGATIONS[base.toLowerCase()] ?? base.slice(0, -1)
}

function addParts(compound: string, level: number, out: string[]): void {
  for (; level < LEVELS.length; level++) {
    const pieces = compound.split(LEVELS[level]!)
    if (pieces.length < 2) continue
    let previous = ''
    for (const raw of pieces) {
      // A component may start or end with a lower-level separator ("a+.b" -> ".b").
      const piece = raw.replace(PIECE_EDGES, '')
      if (piece === '') continue
      out.push(piece)
      const plain = PLAIN.test(piece)
      if (!plain) addParts(piece, level + 1, out)
      // Only words of one identifier are joined, not path or URL components.
      const word = level > 0 && plain && LETTERS.test(piece)
      // Adjacent words joined (`auth_handler` -> `authhandler`) meet the same join that
      // `tokenizeQuery` makes of "auth handler", so the identifier outranks loose mentions.
      if (word && previous !== '') out.push(previous + piece)
      previous = word ? piece : ''
    }
    return
  }
  const words = compound.match(CAMEL_PART)
  if (words && words.length > 1) out.push(...words)
}

const LETTERS = /^[\p{L}\p{M}]+$/u
const ASCII_WORD = /^[a-z]+$/
const LATIN_LETTER = /^\p{Script=Latin}$/u

/**
 * Turns a token into an index term: lower-cased; English stop words and single Latin letters
 * dropped (`null`); plain English words Porter-stemmed. Tokens with digits or punctuation
 * (identifiers, flags, paths, ids) are only lower-cased, so `--no-verify` survives although
 * `no` is a stop word. An ALL-CAPS token is an acronym and never a stop word (`US`, `IT`).
 *
 * @example
 * ['Running', 'the', '--no-verify', 'FH-2291', 'x', '3'].map(processTerm)
 * // => ['run', null, '--no-verify', 'fh-2291', null, '3']
 */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase()
  if (!LETTERS.test(lower)) return lower
  if (STOP_WORDS.has(lower) && !isAcronym(term, lower)) return null
  if (lower.length === 1 && LATIN_LETTER.test(lower)) return null
  return ASCII_WORD.test(lower) ? stem(lower) : lower
}

/** Which parts of {@link processTerm} apply; both on by default. */
export interface TermOptions {
  /** Porter-stem plain English words. @default true */
  stemming?: boolean
  /** Drop {@link STOP_WORDS} (acronyms excepted). @default true */
  stopWords?: boolean
}

/**
 * {@link processTerm} with stemming and/or stop-word removal switched off, for evaluation and
 * for corpora where they hurt. With both on it is `processTerm` itself.
 *
 * @example
 * ['Running', 'the'].map(termProcessor({ stemming: false, stopWords: false }))
 * // => ['running', 'the']
 */
export function termProcessor(options: TermOptions = {}): (term: string) => string | null {
  const { stemming = true, stopWords = true } = options
  if (stemming && stopWords) return processTerm
  return (term) => {
    const lower = term.toLowerCase()
    if (!LETTERS.test(lower)) return lower
    if (stopWords && STOP_WORDS.has(lower) && !isAcronym(term, lower)) return null
    if (lower.length === 1 && LATIN_LETTER.test(lower)) return null
    return stemming && ASCII_WORD.test(lower) ? stem(lower) : lower
  }
}

// Stemming is most of the cost of analysis and a vocabulary is small, so stems are memoised;
// the cache is dropped whole when full rather than tracked for recency.
const STEM_CACHE_SIZE = 50_000
const stems = new Map<string, string>()

function stem(word: string): string {
  let stemmed = stems.get(word)
  if (stemmed === undefined) {
    if (stems.size >= STEM_CACHE_SIZE) stems.clear()
    stemmed = stemmer(word)
    stems.set(word, stemmed)
  }
  return stemmed
}

function isAcronym(term: string, lower: string): boolean {
  return term.length > 1 && term !== lower && term === term.toUpperCase()
}

/**
 * The query-side tokeniser: {@link tokenize}, plus each pair of adjacent plain words joined, so
 * "auth handler" also asks for `authhandler`, the form every spelling of that identifier
 * (`auth_handler`, `authHandler`, `auth-handler`, `auth.handler`) is indexed under.
 *
 * @example
 * tokenizeQuery('the auth handler')
 * // => ['the', 'auth', 'handler', 'authhandler']
 */
export function tokenizeQuery(text: string): string[] {
  const tokens = tokenize(text)
  const joined: string[] = []
  for (let i = 1; i < tokens.length; i++) {
    const a = tokens[i - 1]!
    const b = tokens[i]!
    if (!PLAIN.test(a) || !PLAIN.test(b) || !LETTERS.test(a) || !LETTERS.test(b)) continue
    const la = a.toLowerCase()
    const lb = b.toLowerCase()
    if (STOP_WORDS.has(la) || STOP_WORDS.has(lb)) continue
    joined.push(la + lb)
  }
  return joined.length > 0 ? tokens.concat(joined) : tokens
}

/**
 * Tokenises and processes text into index terms, in order, duplicates kept, dropped terms
 * removed. The same function serves documents and queries.
 *
 * @example
 * analyze("Priya's authHandler isn't running")
 * // => ['priya', 'authhandl', 'auth', 'handler', 'run']
 */
export function analyze(text: string): string[] {
  const terms: string[] = []
  for (const token of tokenize(text)) {
    const term = processTerm(token)
    if (term !== null) terms.push(term)
  }
  return terms
}
