/**
 * The form a page is stored, chunked and compared in. Unlike a fact's {@link normalizeText}, it
 * keeps indentation and runs of spaces, which code blocks, nested lists and tables need.
 */

import { InvalidInputError } from '../errors.ts'
import { utf8Length } from '../text.ts'
import { checkCharacters } from '../validate.ts'

const STRIPPED = /[\u200B\u2060\uFEFF\u00AD]/g
const LINE_BREAK = /\r\n?|[\u2028\u2029]/g
// Only from the start of a run of spaces: tried from each space, a long inner run was quadratic.
const TRAILING_SPACE = /(?<![^\S\n])[^\S\n]+$/gm
const BLANK_LINES = /\n{3,}/g
// A run of spaces longer than this says nothing and could fill chunks with nothing else.
const SPACE_RUN = /(?<![^\S\n])[^\S\n]{1025,}/g
/** The longest run of spaces and tabs a page keeps; a longer one is cut to it. */
export const MAX_SPACE_RUN = 1024
const LEADING_BLANK_LINES = /^(?:[^\S\n]*\n)+/

/**
 * NFC, invisible separators stripped (zero-width space, word joiner, BOM, soft hyphen), line
 * breaks as `\n`, spaces at line ends removed, at most one blank line in a row, runs of spaces
 * and tabs cut to {@link MAX_SPACE_RUN}, blank lines at the start and whitespace at the end
 * removed. Indentation and inner spaces stay.
 *
 * @example
 * normalizePage('\r\n# Title  \r\n\r\n\r\n\r\n    indented  code\r\n')
 * // => '# Title\n\n    indented  code'
 */
export function normalizePage(text: string): string {
  return text
    .normalize('NFC')
    .replace(STRIPPED, '')
    .replace(LINE_BREAK, '\n')
    .replace(TRAILING_SPACE, '')
    .replace(BLANK_LINES, '\n\n')
    .replace(SPACE_RUN, (run) => run.slice(0, MAX_SPACE_RUN))
    .replace(LEADING_BLANK_LINES, '')
    .trimEnd()
}

/**
 * Checks a page and returns it normalised ({@link normalizePage}): the character rules every
 * stored string follows, then emptiness and size (in UTF-8 bytes, after normalisation).
 *
 * @throws InvalidInputError `BAD_OPTION` (not a string), `LONE_SURROGATE`, `CONTROL_CHARACTER`,
 *   `BIDI_CONTROL`, `HIDDEN_CHARACTER`, `EMPTY_TEXT`, `TEXT_TOO_LONG`.
 * @example
 * validatePage('   \n\n ', 'text', 2097152)
 * // => throws InvalidInputError { code: 'EMPTY_TEXT', field: 'text' }: expected a page, got nothing but whitespace
 */
export function validatePage(text: unknown, field: string, maxBytes: number): string {
  if (typeof text !== 'string') {
    throw new InvalidInputError('BAD_OPTION', field, `expected a string, got ${typeof text}`)
  }
  const page = normalizePage(checkCharacters(text, field))
  if (page === '') {
    throw new InvalidInputError('EMPTY_TEXT', field, 'expected a page, got nothing but whitespace')
  }
  // Every UTF-16 unit is at least one UTF-8 byte: a longer string is refused without a count.
  const bytes = page.length > maxBytes ? maxBytes + 1 : utf8Length(page)
  if (bytes > maxBytes) {
    const got = page.length > maxBytes ? `more than ${maxBytes}` : String(bytes)
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      field,
      `expected a page of at most ${maxBytes} bytes of UTF-8, got ${got}`,
    )
  }
  return page
}
