/**
 * Input validation for the write and read paths. Every failure is an {@link InvalidInputError}
 * with a stable code, the field at fault and a message saying what was expected and what came.
 *
 * Invisible characters: harmless separators (zero-width space, word joiner, BOM, soft hyphen)
 * are stripped by {@link normalizeText}; invisible carriers of data (tag characters, bidi
 * overrides, invisible operators, runs of variation selectors) are rejected, so the caller learns
 * that the text held something no reader could see. Marks that right-to-left text needs (LRM,
 * RLM, ALM) and the joiners emoji and Indic or Persian words need (ZWJ, ZWNJ) pass.
 */

import { InvalidInputError } from './errors.ts'
import { normalizeText, utf8Length } from './text.ts'

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
 * Checks that a value is text Engram can store and returns it normalised ({@link normalizeText}).
 * Character checks run on the raw input; the emptiness and size checks on the normalised text.
 *
 * @throws InvalidInputError `BAD_OPTION` (not a string), `LONE_SURROGATE`, `CONTROL_CHARACTER`,
 *   `BIDI_CONTROL`, `HIDDEN_CHARACTER`, `EMPTY_TEXT`, `TEXT_TOO_LONG` (over `maxBytes` in UTF-8).
 * @example
 * validateText('  Priya is the owner\u2019s sister-in-law ', 'text', 8192)
 * // => 'Priya is the owner’s sister-in-law'
 */
export function validateText(text: unknown, field: string, maxBytes: number): string {
  const normal = normalizeText(checkCharacters(expectString(text, field), field))
  if (normal === '')
    throw new InvalidInputError('EMPTY_TEXT', field, 'expected text, got nothing but whitespace')
  const bytes = utf8Length(normal)
  if (bytes > maxBytes) {
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      field,
      `expected at most ${maxBytes} bytes of UTF-8, got ${bytes}`,
    )
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
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      field,
      `expected at most ${maxLength} characters, got ${normal.length}`,
    )
  }
  return normal
}

/**
 * Rejects the characters no stored text may hold; returns the text unchanged otherwise.
 *
 * @throws InvalidInputError `LONE_SURROGATE`, `CONTROL_CHARACTER`, `BIDI_CONTROL`, `HIDDEN_CHARACTER`.
 * @example
 * checkCharacters('ok\u0007', 'text')
 * // => throws [CONTROL_CHARACTER] text: expected no control characters, got U+0007 at index 2
 */
export function checkCharacters(text: string, field: string): string {
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
      `expected an array of strings, got ${typeName(values)}`,
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
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected at most ${maxCount} ${noun}, got ${labels.length}`,
    )
  }
  return labels
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
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      field,
      `expected at most ${maxLength} characters, got ${length}`,
    )
  }
  return label
}

/** How far from 1 a norm may be before the vector is rescaled. */
const NORM_TOLERANCE = 1e-3

/**
 * Validates a vector and returns a unit-length `Float32Array` copy: `dims` long, every entry
 * finite, norm not zero. A vector already within 1e-3 of unit length is copied unchanged.
 *
 * @throws InvalidInputError `BAD_VECTOR`.
 * @example
 * validateVector([3, 4], 2)
 * // => Float32Array [0.6, 0.8]
 */
export function validateVector(vector: unknown, dims: number, field = 'vector'): Float32Array {
  const copy = toFloat32(vector, field)
  if (copy.length !== dims)
    throw new InvalidInputError(
      'BAD_VECTOR',
      field,
      `expected ${dims} dimensions, got ${copy.length}`,
    )
  let sum = 0
  for (let i = 0; i < copy.length; i++) {
    const value = copy[i]!
    if (!Number.isFinite(value))
      throw new InvalidInputError(
        'BAD_VECTOR',
        field,
        `expected finite numbers, got ${value} at index ${i}`,
      )
    sum += value * value
  }
  const norm = Math.sqrt(sum)
  if (norm === 0)
    throw new InvalidInputError('BAD_VECTOR', field, 'expected a non-zero vector, got norm 0')
  if (Math.abs(norm - 1) > NORM_TOLERANCE) {
    for (let i = 0; i < copy.length; i++) copy[i] = copy[i]! / norm
  }
  return copy
}

function toFloat32(vector: unknown, field: string): Float32Array {
  if (vector instanceof Float32Array) return vector.slice()
  if (Array.isArray(vector) && vector.every((value) => typeof value === 'number')) {
    return Float32Array.from(vector as number[])
  }
  throw new InvalidInputError(
    'BAD_VECTOR',
    field,
    `expected a Float32Array or an array of numbers, got ${typeName(vector)}`,
  )
}

/** Longest id accepted: a ULID is 26 characters; imports may bring their own. */
export const MAX_ID_LENGTH = 64

/**
 * Validates a memory id: a non-empty string of at most 64 characters.
 *
 * @throws InvalidInputError `BAD_ID`.
 * @example
 * validateId('01J8Z3V5Q2W4E6R8T0Y2U4I6O8')
 * // => '01J8Z3V5Q2W4E6R8T0Y2U4I6O8'
 */
export function validateId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string')
    throw new InvalidInputError('BAD_ID', field, `expected a string, got ${typeName(id)}`)
  if (id === '')
    throw new InvalidInputError('BAD_ID', field, 'expected a non-empty string, got an empty one')
  if (id.length > MAX_ID_LENGTH) {
    throw new InvalidInputError(
      'BAD_ID',
      field,
      `expected at most ${MAX_ID_LENGTH} characters, got ${id.length}`,
    )
  }
  return id
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
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > maxK) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected an integer from 1 to ${maxK}, got ${show(k)}`,
    )
  }
  return k
}

/**
 * Asserts that a value is one of a fixed set (a mode, a trust level, a confidence).
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * assertOneOf('maybe', ['low', 'medium', 'high'], 'confidence')
 * // => throws [BAD_OPTION] confidence: expected one of 'low', 'medium', 'high', got 'maybe'
 */
export function assertOneOf<T>(
  value: unknown,
  allowed: readonly T[],
  field: string,
): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected one of ${allowed.map(show).join(', ')}, got ${show(value)}`,
    )
  }
}

/**
 * {@link assertOneOf} that returns the value, for use in expressions.
 *
 * @example
 * oneOf(options.trust ?? 'unverified', ['trusted', 'unverified', 'untrusted'], 'trust')
 * // => 'unverified'
 */
export function oneOf<T>(value: unknown, allowed: readonly T[], field: string): T {
  assertOneOf(value, allowed, field)
  return value
}

function expectString(value: unknown, field: string): string {
  if (typeof value !== 'string')
    throw new InvalidInputError('BAD_OPTION', field, `expected a string, got ${typeName(value)}`)
  return value
}

/** `'null'`, `'array'`, `'Uint8Array'`, or the `typeof` name. */
function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (ArrayBuffer.isView(value)) return value.constructor.name
  return typeof value
}

/** A short, quoted rendering of a value for a message. */
function show(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value)
  return typeName(value)
}

/** `U+0007`, `U+E0041`, `U+D800`. */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}
