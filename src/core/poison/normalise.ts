/**
 * Folding a text to the form the rules read: lower case, compatibility forms decomposed (NFKD:
 * fullwidth, mathematical and circled letters, ligatures), combining marks dropped
 * (`Igno\u0301re`), look-alike letters of other scripts folded to Latin inside Latin words
 * (`іgnore`, `օ`), quotes and dashes made ASCII. Then two optional variants: `squeeze` joins
 * words split by inner punctuation or letter spacing (`i.g.n.o.r.e`, `ig-nore`, `i g n o r e`),
 * and `unleet` folds digits used as letters (`1gn0re`).
 *
 * Every variant keeps a map back to the text it came from, so an excerpt shows what the writer
 * wrote, not the folded form.
 */
import { CONFUSABLE } from './confusables.ts'

/** One reading of a text. `lower` and `norm` have the same length. */
export interface Layer {
  /** Folded, markup intact: URLs, templates and quotes are matched here. */
  lower: string
  /** `lower` with markup (`*_~"\`` and dashes) turned into spaces: phrases are matched here. */
  norm: string
  /** `source` index of each character of `lower`; `null` when they line up one for one. */
  origin: Int32Array | null
  /** The text excerpts are cut from. */
  source: string
}

const MARKUP = /[*`~"_-]/g
const NON_ASCII = /[\u0080-\uffff]/
const PUNCT = new Map<number, string>([
  [0x2018, "'"],
  [0x2019, "'"],
  [0x201b, "'"],
  [0x2032, "'"],
  [0x02bc, "'"],
  [0x201c, '"'],
  [0x201d, '"'],
  [0x201e, '"'],
  [0x00ab, '"'],
  [0x00bb, '"'],
  [0x300c, '"'],
  [0x300d, '"'],
  [0x300e, '"'],
  [0x300f, '"'],
  [0x2010, '-'],
  [0x2011, '-'],
  [0x2012, '-'],
  [0x2013, '-'],
  [0x2014, '-'],
  [0x2015, '-'],
  [0x2212, '-'],
])
/** Combining diacritics: dropped wherever they sit (other scripts' marks are their own blocks). */
const DIACRITIC = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g
const MARK = /\p{M}/gu

/** Blocks where NFKD folds something a reader would see as Latin (or Greek, Cyrillic) letters. */
function decomposes(cp: number): boolean {
  return (
    cp < 0x0530 ||
    (cp >= 0x1d00 && cp < 0x2c00) ||
    (cp >= 0xfb00 && cp < 0xfb50) ||
    (cp >= 0xfe50 && cp < 0xfe70) ||
    (cp >= 0xff00 && cp < 0xfff0) ||
    (cp >= 0x1d400 && cp < 0x1d800) ||
    (cp >= 0x1f100 && cp < 0x1f200) ||
    cp === 0x3000
  )
}

/** Folds `source` (already stripped of invisible characters) into a {@link Layer}. */
export function fold(source: string): Layer {
  if (!NON_ASCII.test(source)) {
    const lower = source.toLowerCase()
    return { lower, norm: lower.replace(MARKUP, ' '), origin: null, source }
  }
  let out = ''
  const origin: number[] = []
  const lookalikes = new Map<number, string>()
  for (let i = 0; i < source.length; ) {
    const cp = source.codePointAt(i) ?? 0
    const size = cp > 0xffff ? 2 : 1
    let piece: string
    if (cp < 0x80) piece = source[i]?.toLowerCase() ?? ''
    else {
      const ch = source.slice(i, i + size)
      const punct = PUNCT.get(cp)
      if (punct !== undefined) piece = punct
      else {
        let base = decomposes(cp) ? ch.normalize('NFKD').replace(MARK, '') : ch
        base = base.replace(DIACRITIC, '')
        const latin = base.length === 1 ? (CONFUSABLE.get(base) ?? CONFUSABLE.get(ch)) : undefined
        if (latin !== undefined) lookalikes.set(out.length, latin)
        piece = base.toLowerCase()
        if (piece.length !== base.length) piece = base
      }
    }
    for (let k = 0; k < piece.length; k++) origin.push(i)
    out += piece
    i += size
  }
  if (lookalikes.size > 0) out = foldLookalikes(out, lookalikes)
  return { lower: out, norm: out.replace(MARKUP, ' '), origin: Int32Array.from(origin), source }
}

const LETTER = /\p{L}/u
const LATIN = /[a-z]/

/**
 * Folds look-alikes inside words that also hold Latin letters ("іgnore"), and whole words of
 * look-alikes in a mostly Latin text ("аll"). A Russian or Greek word in Russian or Greek text is
 * left as it is.
 */
function foldLookalikes(out: string, lookalikes: ReadonlyMap<number, string>): string {
  const units = out.split('')
  let latin = 0
  let other = 0
  for (const ch of units) {
    if (LATIN.test(ch)) latin++
    else if (LETTER.test(ch)) other++
  }
  for (const [index, to] of lookalikes) {
    let start = index
    while (start > 0 && LETTER.test(units[start - 1] ?? '')) start--
    let end = index + 1
    while (end < units.length && LETTER.test(units[end] ?? '')) end++
    let hasLatin = false
    let allLookalike = true
    for (let j = start; j < end; j++) {
      if (LATIN.test(units[j] ?? '')) hasLatin = true
      else if (!lookalikes.has(j)) allLookalike = false
    }
    // Folding runs left to right, so a folded neighbour already counts as Latin: that is fine.
    if (hasLatin || (allLookalike && latin > other)) units[index] = to
  }
  return units.join('')
}

const SEPARATOR = /[.\-_*~^·•‧|]/
const SPLIT_WORD = /[a-z]+(?:[.\-_*~^·•‧|]{1,2}[a-z]+)+/g
const LETTER_SPACED = /(?:^|[^a-z])[a-z] [a-z] [a-z](?:[^a-z]|$)/
/** Words worth re-reading when one hyphen or dot splits them ("ig-nore", "sys.tem"). */
const SPLIT_TARGET =
  /^(?:ignor|disregard|forget|overrid|bypass|instruct|previous|prior|system|prompt|reveal|secret|password|jailbreak|pretend|guideline|rule|filter|restrict|exfil|leak|hidden|confiden|polic|direct|command|assistant)/

/**
 * Whether a text splits words on purpose: a word broken into three or more short pieces
 * (`i.g.n.o.r.e`, `dis-re-gard`), one broken into an attack word (`ig-nore`), or letters
 * spaced out. Plain compounds (`check-in`, `sister-in-law`) do not count, so ordinary text is
 * read once.
 */
function splitsWords(lower: string): boolean {
  if (LETTER_SPACED.test(lower)) return true
  if (!/[a-z][.\-_*~^·•‧|]{1,2}[a-z]/.test(lower)) return false
  SPLIT_WORD.lastIndex = 0
  for (let m = SPLIT_WORD.exec(lower); m; m = SPLIT_WORD.exec(lower)) {
    const parts = m[0].split(/[.\-_*~^·•‧|]+/)
    const short = parts.length >= 3 && parts.every((part) => part.length <= 4)
    if (short || SPLIT_TARGET.test(parts.join(''))) return true
  }
  return false
}

/**
 * Joins words split by inner punctuation (`i.g.n.o.r.e`, `ig-nore`) or spaced out letter by
 * letter (`i g n o r e  a l l`), or `null` when the text has neither. URLs and addresses do not
 * survive this reading; only phrase rules run on it.
 */
export function squeeze(layer: Layer): Layer | null {
  const { lower } = layer
  if (!splitsWords(lower)) return null
  let out = ''
  const from: number[] = []
  const n = lower.length
  for (let i = 0; i < n; i++) {
    const ch = lower[i] as string
    if (SEPARATOR.test(ch) && isLatin(lower, i - 1)) {
      let j = i
      while (j < n && j - i < 2 && SEPARATOR.test(lower[j] ?? '')) j++
      if (isLatin(lower, j)) {
        i = j - 1
        continue
      }
    }
    if (ch === ' ' && isSingle(lower, i - 1) && isSingle(lower, i + 1)) continue
    out += ch
    from.push(i)
  }
  if (out === lower) return null
  const origin = Int32Array.from(from, (i) => layer.origin?.[i] ?? i)
  return { lower: out, norm: out.replace(MARKUP, ' '), origin, source: layer.source }
}

const isLatin = (text: string, i: number) => LATIN.test(text[i] ?? '')

/** A letter standing alone between spaces, as in `i g n o r e` (but not the `a` of "a cat"). */
function isSingle(text: string, i: number): boolean {
  if (!isLatin(text, i)) return false
  const spaced = (c: string | undefined) => c === undefined || c === ' '
  if (!spaced(text[i - 1]) || !spaced(text[i + 1])) return false
  // Needs a spaced neighbour on one side too, so "a b" in prose stays as it is.
  return (
    (text[i - 1] === ' ' && isLatin(text, i - 2) && spaced(text[i - 3])) ||
    (text[i + 1] === ' ' && isLatin(text, i + 2) && spaced(text[i + 3]))
  )
}

const LEET_GATE = /[a-z][013457@$][a-z]|(?:^|\s)[013457][a-z]{2}/
const LEET = /[013457@$]/g
const LEET_MAP: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
}

/** Digits and symbols read as the letters they stand for (`1gn0re`), or `null` if none. */
export function unleet(layer: Layer): Layer | null {
  if (!LEET_GATE.test(layer.norm)) return null
  const swap = (text: string) => text.replace(LEET, (ch) => LEET_MAP[ch] ?? ch)
  const norm = swap(layer.norm)
  if (norm === layer.norm) return null
  return { ...layer, lower: swap(layer.lower), norm }
}

/** The writer's own characters behind `length` characters of `layer` from `index`. */
export function sourceSpan(layer: Layer, index: number, length: number): [number, number] {
  if (!layer.origin) return [index, index + length]
  const start = layer.origin[index] ?? layer.source.length
  const last = layer.origin[Math.min(index + length, layer.origin.length) - 1] ?? start
  const cp = layer.source.codePointAt(last) ?? 0
  return [start, last + (cp > 0xffff ? 2 : 1)]
}
