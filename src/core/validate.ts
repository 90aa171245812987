/**
 * Input validation for the write and read paths. Every failure is an {@link InvalidInputError}
 * with a stable code, the field at fault and a message saying what was expected and what came.
 *
 * Invisible characters: harmless separators (zero-width space, word joiner, BOM, soft hyphen)
 * are stripped by {@link normalizeText}; invisible carriers of data (tag characters, bidi
 * overrides, invisible operators, runs of variation selectors) are rejected, so the caller learns
 * that the text held something no reader could see. Marks that right-to-left text needs (LRM,
 * RLM, ALM) and the joiners emoji and Indic or Persian words need (ZWJ, ZWNJ) pass.
 *
 * Every string a memory carries (text, tags, aliases, namespace, type, source, ids, the strings
 * inside `meta`) and every query goes through the same character rules ({@link checkCharacters});
 * every option goes through one of the small checks of `check-options.ts` (re-exported here), so a rule the tests
 * cover is the rule that runs.
 */

import { codePoint, describe, expectArray, expectString, integerIn } from './check-options.ts'
import { InvalidInputError } from './errors.ts'
import { normalizeText, storedText, utf8Length } from './text.ts'

// Printable ASCII, tab and line breaks: nothing below can match, one scan instead of four.
export const PLAIN_ASCII = /^[\t\n\r\x20-\x7E]*$/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
// C0 and C1 controls and DEL (exactly `Cc`), except tab, line feed and carriage return.
const CONTROL = /(?![\t\n\r])\p{Cc}/u
// Embeddings, overrides and isolates: they reorder what a reader sees ("Trojan Source").
const BIDI = /[\u202A-\u202E\u2066-\u2069]/
// Tag characters (ASCII smuggled invisibly), invisible operators, the Mongolian vowel separator,
// deprecated format controls, interlinear annotation, Khmer invisible vowels, Hangul fillers that
// render as nothing, and two or more variation selectors in a row (bytes smuggled after an emoji;
// a real one follows a single character).
const HIDDEN =
  /[\u{E0000}-\u{E007F}\u2061-\u2064\u180E\u206A-\u206F\uFFF9-\uFFFB\u17B4\u17B5\u3164\uFFA0]|[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{2,}/u

/**
 * Checks that a value is text Engram can store and returns it as stored ({@link storedText}:
 * as written, indentation and inner spacing kept). Character checks run on the raw input; the
 * emptiness and size checks on the stored text.
 *
 * @throws InvalidInputError `BAD_OPTION` (not a string), `LONE_SURROGATE`, `CONTROL_CHARACTER`,
 *   `BIDI_CONTROL`, `HIDDEN_CHARACTER`, `EMPTY_TEXT`, `TEXT_TOO_LONG` (over `maxBytes` in UTF-8).
 * @example
 * validateText('  Priya is the owner\u2019s  sister-in-law ', 'text', 8192)
 * // => 'Priya is the owner’s  sister-in-law'
 */
export function validateText(text: unknown, field: string, maxBytes: number): string {
  const normal = storedText(checkCharacters(expectString(text, field), field))
  if (normal.trim() === '')
    throw new InvalidInputError('EMPTY_TEXT', field, 'expected text, got nothing but whitespace')
  const bytes = utf8Length(normal)
  if (bytes > maxBytes) {
    throw tooLong('TEXT_TOO_LONG', field, maxBytes, 'bytes of UTF-8', bytes)
  }
  return normal
}

/**
 * Like {@link validateText} for a recall query, with the limit in characters (UTF-16 code units)
 * and newlines kept as they are; the query parser folds them.
 *
 * @example
 * validateQuery(' who is  Priya? ', 2000)
 * // => 'who is Priya?'
 */
export function validateQuery(query: unknown, maxLength: number, field = 'query'): string {
  const normal = normalizeText(checkCharacters(expectString(query, field), field))
  if (normal === '')
    throw new InvalidInputError('EMPTY_TEXT', field, 'expected a query, got nothing but whitespace')
  if (normal.length > maxLength) {
    throw tooLong('TEXT_TOO_LONG', field, maxLength, 'characters', normal.length)
  }
  return normal
}

/**
 * Rejects the characters no stored text may hold; returns the text unchanged otherwise.
 *
 * @throws InvalidInputError `LONE_SURROGATE`, `CONTROL_CHARACTER`, `BIDI_CONTROL`, `HIDDEN_CHARACTER`.
 * @example
 * checkCharacters('ok\u0007', 'text')
 * // => throws CONTROL_CHARACTER at text: expected no control characters, got U+0007 at index 2
 */
export function checkCharacters(text: string, field: string): string {
  if (PLAIN_ASCII.test(text)) return text
  const lone = LONE_SURROGATE.exec(text)
  if (lone) {
    throw new InvalidInputError(
      'LONE_SURROGATE',
      field,
      `expected well-formed UTF-16, got a lone surrogate ${codePoint(lone[0])} at index ${lone.index}`,
    )
  }
  const control = CONTROL.exec(text)
  if (control) {
    throw new InvalidInputError(
      'CONTROL_CHARACTER',
      field,
      `expected no control characters, got ${codePoint(control[0])} at index ${control.index}`,
    )
  }
  const bidi = BIDI.exec(text)
  if (bidi) {
    throw new InvalidInputError(
      'BIDI_CONTROL',
      field,
      `expected no bidi embedding, override or isolate, got ${codePoint(bidi[0])} at index ${bidi.index}`,
    )
  }
  const hidden = HIDDEN.exec(text)
  if (hidden) {
    const count = [...hidden[0]].length
    const got = count > 1 ? `${count} variation selectors in a row` : codePoint(hidden[0])
    throw new InvalidInputError(
      'HIDDEN_CHARACTER',
      field,
      `expected no invisible characters, got ${got} at index ${hidden.index}`,
    )
  }
  return text
}

/**
 * Validates tags: an array (or `undefined`, meaning none) of strings, each checked like text,
 * trimmed, whitespace-collapsed and lower-cased, duplicates dropped. Lower case because a tag is
 * a label matched exactly, by filters and by the tag list at recall, and the storage index on
 * tags compares exactly.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an array, a tag not a string at `tags[i]`, too many
 *   tags), `EMPTY_TEXT`, `TEXT_TOO_LONG` (over `maxLength` characters), and the character codes.
 * @example
 * validateTags(['Family', ' family ', 'Work  Trip'], 'tags', 32, 64)
 * // => ['family', 'work trip']
 */
export function validateTags(
  tags: unknown,
  field: string,
  maxCount: number,
  maxLength: number,
): string[] {
  return validateLabels(tags, field, maxCount, maxLength, 'tags', (tag) => tag.toLowerCase())
}

/**
 * Validates aliases like tags but keeps their case (`FH-2291`, `Pri`); duplicates that differ
 * only in case are dropped, the first spelling kept.
 *
 * @example
 * validateAliases(['FH-2291', 'fh-2291', 'Pri'], 'aliases', 32, 256)
 * // => ['FH-2291', 'Pri']
 */
export function validateAliases(
  aliases: unknown,
  field: string,
  maxCount: number,
  maxLength: number,
): string[] {
  return validateLabels(aliases, field, maxCount, maxLength, 'aliases', (alias) => alias)
}

function validateLabels(
  values: unknown,
  field: string,
  maxCount: number,
  maxLength: number,
  noun: string,
  shape: (label: string) => string,
): string[] {
  if (values === undefined) return []
  if (!Array.isArray(values))
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected an array of strings, got ${describe(values)}`,
    )
  const seen = new Set<string>()
  const labels: string[] = []
  values.forEach((value: unknown, i) => {
    const label = shape(validateLabel(value, `${field}[${i}]`, maxLength))
    const key = label.toLowerCase()
    if (seen.has(key)) return
    seen.add(key)
    labels.push(label)
  })
  if (labels.length > maxCount) {
    throw tooLong('BAD_OPTION', field, maxCount, noun, labels.length)
  }
  return labels
}

/**
 * One tag, shaped as {@link validateTags} shapes each: checked, whitespace-collapsed,
 * lower-cased. For filters that name a single tag (`list({ tag })`).
 *
 * @example
 * validateTag(' Work  Trip ', 'tag', 64)
 * // => 'work trip'
 */
export function validateTag(value: unknown, field: string, maxLength: number): string {
  return validateLabel(value, field, maxLength).toLowerCase()
}

function validateLabel(value: unknown, field: string, maxLength: number): string {
  const label = normalizeText(checkCharacters(expectString(value, field), field)).replace(
    /\s+/g,
    ' ',
  )
  if (label === '')
    throw new InvalidInputError(
      'EMPTY_TEXT',
      field,
      'expected a non-empty string, got nothing but whitespace',
    )
  const length = [...label].length
  if (length > maxLength) {
    throw tooLong('TEXT_TOO_LONG', field, maxLength, 'characters', length)
  }
  return label
}

export { validateVector } from './validate-vector.ts'

/** The error of a value over its limit: `expected at most <max> <unit>, got <count>`. */
function tooLong(
  code: 'TEXT_TOO_LONG' | 'BAD_ID' | 'BAD_OPTION',
  field: string,
  max: number,
  unit: string,
  count: number,
): InvalidInputError {
  return new InvalidInputError(code, field, `expected at most ${max} ${unit}, got ${count}`)
}

/** Longest id accepted: a ULID is 26 characters; imports may bring their own. */
export const MAX_ID_LENGTH = 64

/**
 * Validates a memory id: a non-empty string of at most 64 characters, with the characters no
 * stored text may hold rejected as in text.
 *
 * @throws InvalidInputError `BAD_ID`, and the character codes of {@link checkCharacters}.
 * @example
 * validateId('01J8Z3V5Q2W4E6R8T0Y2U4I6O8')
 * // => '01J8Z3V5Q2W4E6R8T0Y2U4I6O8'
 */
export function validateId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string')
    throw new InvalidInputError('BAD_ID', field, `expected a string, got ${describe(id)}`)
  if (id === '')
    throw new InvalidInputError('BAD_ID', field, 'expected a non-empty string, got an empty one')
  if (id.length > MAX_ID_LENGTH) {
    throw tooLong('BAD_ID', field, MAX_ID_LENGTH, 'characters', id.length)
  }
  return checkCharacters(id, field)
}

/**
 * Validates the number of hits asked for: an integer from 1 to `maxK`.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * validateK(5, 100)
 * // => 5
 */
export function validateK(k: unknown, maxK: number, field = 'k'): number {
  return integerIn(k, field, 1, maxK)
}

/** Longest namespace, type or source, in characters. */
export const MAX_NAME_LENGTH = 256

/**
 * Validates a name a memory is filed under or credited to (a namespace, a type, a source): a
 * string checked like text, normalised like a tag (NFC, invisible separators stripped, whitespace
 * collapsed to single spaces, trimmed) but keeping its case, non-empty, at most `maxLength`
 * characters. A namespace is a partition key, so two spellings that look the same (one with a
 * zero-width space) must be one namespace.
 *
 * @throws InvalidInputError `BAD_OPTION` (not a string, empty, too long) and the character codes.
 * @example
 * validateName(' tenant\u200B-alice ', 'namespace')
 * // => 'tenant-alice'
 */
export function validateName(value: unknown, field: string, maxLength = MAX_NAME_LENGTH): string {
  if (typeof value !== 'string') {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a non-empty string of at most ${maxLength} characters, got ${describe(value)}`,
    )
  }
  const name = normalizeText(checkCharacters(value, field)).replace(/\s+/g, ' ')
  const length = [...name].length
  if (length === 0 || length > maxLength) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a non-empty string of at most ${maxLength} characters, got ${length === 0 ? 'nothing but whitespace' : `${length} characters`}`,
    )
  }
  return name
}

/**
 * Validates a list of names ({@link validateName} each, exact duplicates dropped), for filters such
 * as recall's `types`.
 *
 * @throws InvalidInputError `BAD_OPTION` (not an array, a hole, too many names) and what
 *   {@link validateName} throws, at `field[i]`.
 * @example
 * validateNames(['fact', ' fact', 'skill'], 'types', 64)
 * // => ['fact', 'skill']
 */
export function validateNames(values: unknown, field: string, maxCount: number): string[] {
  const list = expectArray(values, field, 'an array of strings')
  if (list.length > maxCount) {
    throw tooLong('BAD_OPTION', field, maxCount, 'names', list.length)
  }
  return [...new Set(list.map((value, i) => validateName(value, `${field}[${i}]`)))]
}

export * from './check-options.ts'
export * from './validate-time.ts'
