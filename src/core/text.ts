/**
 * Text normalisation shared by the write path, dedup and the tokeniser. Pure: no DOM, no Node.
 *
 * Invisible characters fall in two groups. Harmless separators and hints (zero-width space,
 * word joiner, byte-order mark, soft hyphen) are stripped here. Invisible carriers of data (tag
 * characters, bidi overrides, invisible operators) are rejected by `validate.ts`, so the caller
 * learns that the text held something it could not see.
 */

/** Zero-width space, word joiner, BOM and soft hyphen: invisible, carry nothing, break words. */
const STRIPPED = /[\u200B\u2060\uFEFF\u00AD]/g
const HAS_STRIPPED = new RegExp(STRIPPED.source)
const LINE_BREAK = /\r\n?|[\u2028\u2029]/g
const INLINE_SPACE = /[^\S\n]+/g
const SPACE_AROUND_NEWLINE = / ?\n ?/g
const BLANK_LINES = /\n{3,}/g

const TRAILING_SPACE = /[^\S\n]+$/gm
const LEADING_BLANK_LINES = /^(?:[^\S\n]*\n)+/

/**
 * The form a memory's text is stored in: as written, so code, YAML and Makefile snippets keep
 * their indentation, tabs and inner spacing. Only what carries nothing goes: NFC, invisible
 * separators stripped, line breaks as `\n`, trailing spaces of each line, blank lines before
 * the first line, whitespace after the last, and a one-line text's leading spaces. Keys and
 * indexes read {@link normalizeText}.
 *
 * @example
 * storedText('\n\nbuild:\n\tgo  build ./... \r\n')
 * // => 'build:\n\tgo  build ./...'
 */
export function storedText(text: string): string {
  const kept = text
    .normalize('NFC')
    .replace(STRIPPED, '')
    .replace(LINE_BREAK, '\n')
    .replace(TRAILING_SPACE, '')
    .replace(LEADING_BLANK_LINES, '')
    .trimEnd()
  // One line has no indentation to keep: leading spaces there are a paste artefact.
  return kept.includes('\n') ? kept : kept.trimStart()
}

/** Whether `text` holds one of the invisible characters {@link normalizeText} deletes. */
export function hasStripped(text: string): boolean {
  return HAS_STRIPPED.test(text)
}

/**
 * The form keys, indexes and the names a memory carries are read in: NFC, invisible separators
 * stripped, runs of spaces and tabs collapsed to one space, line breaks kept as `\n` (at most
 * one blank line in a row), trimmed.
 *
 * @example
 * normalizeText('  Priya\u200B  is\t here \r\n\r\n\r\n\r\nok ')
 * // => 'Priya is here\n\nok'
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFC')
    .replace(STRIPPED, '')
    .replace(LINE_BREAK, '\n')
    .replace(INLINE_SPACE, ' ')
    .replace(SPACE_AROUND_NEWLINE, '\n')
    .replace(BLANK_LINES, '\n\n')
    .trim()
}

// An apostrophe between letters is part of the word ("owner's" ~ "owners", "don't" ~ "dont"),
// so it is dropped rather than turned into a space.
const INNER_APOSTROPHE = /(?<=[\p{L}\p{M}])['\u2018\u2019\u02BC](?=\p{L})/gu
// Every other punctuation mark or symbol becomes a space, never nothing: "v1.2" and "v12" must
// stay different facts. The price is that "3.14" and "3 14" share a key, which is harmless.
const PUNCTUATION = /[\p{P}\p{S}\p{Cf}]+/gu
const WHITESPACE = /\s+/g

/**
 * The key for exact dedup: insensitive to case (full case folding, so `ß` ~ `ss`), width and
 * compatibility forms (NFKC), whitespace and punctuation; letters and digits of every script
 * are kept. Text made only of symbols (emoji) keys on the symbols themselves, never on `''`.
 *
 * @example
 * dedupKey("Priya is the owner's sister-in-law")
 * // => 'priya is the owners sister in law'
 * dedupKey('priya is the owners sister in law!')
 * // => 'priya is the owners sister in law'
 */
export function dedupKey(text: string): string {
  const folded = foldCase(normalizeText(text).normalize('NFKC'))
  const key = folded
    .replace(INNER_APOSTROPHE, '')
    .replace(PUNCTUATION, ' ')
    .replace(WHITESPACE, ' ')
    .trim()
  return key === '' ? folded.replace(WHITESPACE, ' ') : key
}

const FINAL_SIGMA = /ς/g

/**
 * Case folding close to Unicode's full folding: the round trip through upper case maps `ß` (and
 * `ẞ`, by way of `ß`) to `ss`; final sigma becomes `σ` wherever it stands, since `toLowerCase`
 * picks the form from context and the context changes once punctuation is gone.
 *
 * @example
 * foldCase('Straße') === foldCase('STRASSE')
 * // => true
 */
export function foldCase(text: string): string {
  return text.toLowerCase().toUpperCase().toLowerCase().replace(FINAL_SIGMA, 'σ')
}

/**
 * The UTF-8 byte length of a string, counted from its UTF-16 code units without encoding it.
 * A lone surrogate counts 3 bytes, as `TextEncoder` writes it as U+FFFD.
 *
 * @example
 * utf8Length('héllo 👋')
 * // => 11
 */
export function utf8Length(text: string): number {
  let bytes = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}
