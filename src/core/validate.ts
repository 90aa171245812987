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
 * every option goes through one of the small checks at the end of this file, so a rule the tests
 * cover is the rule that runs.
 */

import { InvalidInputError } from './errors.ts'
import { normalizeText, utf8Length } from './text.ts'

// Printable ASCII, tab and line breaks: nothing below can match, one scan instead of four.
const PLAIN_ASCII = /^[\t\n\r\x20-\x7E]*$/
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
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected at most ${maxCount} ${noun}, got ${labels.length}`,
    )
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
    `expected a Float32Array or an array of numbers, got ${describe(vector)}`,
  )
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
    throw new InvalidInputError(
      'BAD_ID',
      field,
      `expected at most ${MAX_ID_LENGTH} characters, got ${id.length}`,
    )
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
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected at most ${maxCount} names, got ${list.length}`,
    )
  }
  return [...new Set(list.map((value, i) => validateName(value, `${field}[${i}]`)))]
}

/** Latest instant a `Date` can hold: ±8.64e15 ms around the epoch. */
const MAX_TIME = 8.64e15

/**
 * Validates an instant in epoch milliseconds (`expiresAt`, `createdAt`): a finite number a
 * `Date` can hold.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * validateTime(Date.UTC(2026, 0, 1), 'expiresAt')
 * // => 1767225600000
 */
export function validateTime(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MAX_TIME) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected epoch milliseconds (a finite number within ±8.64e15), got ${describe(value)}`,
    )
  }
  return value
}

// ---------------------------------------------------------------------------------------------
// meta: the host's structured data, stored and exported as JSON.

/** Largest `meta`, in UTF-8 bytes of its JSON: twice the largest text. */
export const MAX_META_BYTES = 16_384

/** Deepest nesting of objects and arrays inside `meta`, `meta` itself being level 1. */
export const MAX_META_DEPTH = 8

/**
 * Validates `meta` and returns a copy of it (so a caller mutating its object after the call
 * cannot change what was checked): JSON data only — plain objects, dense arrays, strings
 * (character-checked like text), finite numbers, booleans and `null` — at most
 * {@link MAX_META_DEPTH} levels deep and {@link MAX_META_BYTES} bytes as JSON. Anything else
 * would change type on a round trip through an export (`Date` to a string, `Map` and `Set` to
 * `{}`, `NaN` to `null`, `undefined` vanishing) or break the export outright (a cycle, a `BigInt`).
 *
 * @throws InvalidInputError `BAD_OPTION` (`meta` itself not a plain object), `BAD_META` (a value
 *   JSON cannot carry, a cycle), `META_TOO_LARGE` (too deep or too big), and the character codes
 *   of {@link checkCharacters}; `field` names the path, e.g. `meta.speaker.names[2]`.
 * @example
 * validateMeta({ when: new Date(0) }, 'meta')
 * // => throws [BAD_META] meta.when: expected JSON data (a plain object, an array, a string, a finite number, true, false or null), got Date
 */
export function validateMeta(value: unknown, field = 'meta'): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a plain object of JSON data, got ${describe(value)}`,
    )
  }
  const walk: MetaWalk = { ancestors: new Set(), bytes: 0, root: field }
  return copyJson(value, { at: field }, 1, walk) as Record<string, unknown>
}

interface MetaWalk {
  /** Objects on the path from the root to here: meeting one again is a cycle. */
  ancestors: Set<object>
  /** UTF-8 bytes of the JSON so far, counted as the walk goes, so 40 MB is refused early. */
  bytes: number
  root: string
}

/** Where a value sits, built into a string only for an error: most walks never need it. */
interface MetaPath {
  up?: MetaPath
  at: string | number
}

const JSON_KINDS =
  'JSON data (a plain object, an array, a string, a finite number, true, false or null)'

function copyJson(value: unknown, path: MetaPath, depth: number, walk: MetaWalk): unknown {
  switch (typeof value) {
    case 'string':
      count(walk, jsonStringBytes(value, path))
      return value
    case 'boolean':
      count(walk, value ? 4 : 5)
      return value
    case 'number':
      if (!Number.isFinite(value))
        throw new InvalidInputError(
          'BAD_META',
          render(path),
          `expected a finite number, got ${value}`,
        )
      count(walk, String(value).length)
      return value
    case 'object':
      break
    default:
      throw badMeta(path, `expected ${JSON_KINDS}, got ${describe(value)}`)
  }
  if (value === null) {
    count(walk, 4)
    return null
  }
  if (walk.ancestors.has(value))
    throw badMeta(
      path,
      'expected plain data, got a cycle (a reference back to an enclosing object)',
    )
  if (depth > MAX_META_DEPTH) {
    throw new InvalidInputError(
      'META_TOO_LARGE',
      render(path),
      `expected at most ${MAX_META_DEPTH} levels of objects and arrays, got more`,
    )
  }
  const isArray = Array.isArray(value)
  if (!isArray && !isPlainObject(value))
    throw badMeta(path, `expected ${JSON_KINDS}, got ${describe(value)}`)
  if (Object.getOwnPropertySymbols(value).length > 0)
    throw badMeta(path, 'expected string keys only, got a symbol key')
  walk.ancestors.add(value)
  const copy = isArray ? copyArray(value, path, depth, walk) : copyObject(value, path, depth, walk)
  walk.ancestors.delete(value)
  return copy
}

function copyArray(value: unknown[], path: MetaPath, depth: number, walk: MetaWalk): unknown[] {
  count(walk, 2 + Math.max(0, value.length - 1))
  const out: unknown[] = new Array(value.length)
  for (let i = 0; i < value.length; i++) {
    const at: MetaPath = { up: path, at: i }
    if (!(i in value)) throw badMeta(at, 'expected a value, got a hole (a sparse array)')
    out[i] = copyJson(value[i], at, depth + 1, walk)
  }
  return out
}

function copyObject(
  value: Record<string, unknown>,
  path: MetaPath,
  depth: number,
  walk: MetaWalk,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  count(walk, 2 + Math.max(0, keys.length - 1))
  for (const key of keys) {
    const at: MetaPath = { up: path, at: key }
    count(walk, jsonStringBytes(key, at) + 1)
    const item = value[key]
    if (item === undefined)
      throw badMeta(at, 'expected a value, got undefined (leave the key out, or use null)')
    const copied = copyJson(item, at, depth + 1, walk)
    // Assigning `__proto__` (a key JSON.parse makes) would set the prototype instead.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    else out[key] = copied
  }
  return out
}

// What JSON.stringify writes as two characters; controls other than these are rejected.
const JSON_ESCAPED = /["\\\t\n\r]/g

/** Checks a string of meta (a value or a key) and returns its UTF-8 bytes as JSON. */
function jsonStringBytes(text: string, path: MetaPath): number {
  // A UTF-8 string is never shorter than its UTF-16 length: no need to measure a huge one.
  if (text.length > MAX_META_BYTES) return text.length
  const plain = PLAIN_ASCII.test(text)
  if (!plain) checkCharacters(text, render(path))
  const escaped = text.match(JSON_ESCAPED)?.length ?? 0
  return (plain ? text.length : utf8Length(text)) + escaped + 2
}

function count(walk: MetaWalk, bytes: number): void {
  walk.bytes += bytes
  if (walk.bytes > MAX_META_BYTES) {
    throw new InvalidInputError(
      'META_TOO_LARGE',
      walk.root,
      `expected at most ${MAX_META_BYTES} bytes as JSON, got more`,
    )
  }
}

function badMeta(path: MetaPath, message: string): InvalidInputError {
  return new InvalidInputError('BAD_META', render(path), message)
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** `meta.a.b[2]`, `meta["two words"]`: a path a reader can paste into code, hiding nothing. */
function render(path: MetaPath): string {
  const { up, at } = path
  if (up === undefined) return String(at)
  if (typeof at === 'number') return `${render(up)}[${at}]`
  if (IDENTIFIER.test(at)) return `${render(up)}.${at}`
  // ': ' would read as the end of the field in an error's `[CODE] field: message` form.
  return `${render(up)}[${escapeUnprintable(JSON.stringify(at)).replace(/: /g, ':\\u0020')}]`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

// ---------------------------------------------------------------------------------------------
// Options: one check per kind of value, each a BAD_OPTION that says what was expected and got.

/**
 * Checks an options object: `undefined` is `{}` unless `required`; anything but a non-array
 * object is rejected at `field`; an own key not in `names` (a typo, an option of another method)
 * is rejected at `prefix + key` rather than silently ignored.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * expectOptions({ namspace: 'work' }, 'options', ['namespace', 'type'], '')
 * // => throws [BAD_OPTION] namspace: expected one of the options namespace, type; got an unknown one
 */
export function expectOptions(
  value: unknown,
  field: string,
  names: readonly string[],
  prefix: string,
  required = false,
): Record<string, unknown> {
  if (value === undefined && !required) return {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInputError('BAD_OPTION', field, `expected an object, got ${describe(value)}`)
  }
  for (const key of Object.keys(value)) {
    if (!names.includes(key)) {
      throw new InvalidInputError(
        'BAD_OPTION',
        `${prefix}${key}`,
        `expected one of the options ${names.join(', ')}; got an unknown one`,
      )
    }
  }
  return value as Record<string, unknown>
}

/**
 * Checks an integer from `min` to `max` inclusive.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * integerIn(2.5, 'limit', 1, 1000)
 * // => throws [BAD_OPTION] limit: expected an integer from 1 to 1000, got number 2.5
 */
export function integerIn(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected an integer from ${min} to ${max}, got ${describe(value)}`,
    )
  }
  return value
}

/**
 * Checks a finite number from `min` to `max` inclusive (`max` may be `Infinity`: no upper bound).
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * numberIn(-1, 'weights.keyword', 0, Number.POSITIVE_INFINITY)
 * // => throws [BAD_OPTION] weights.keyword: expected a finite number ≥ 0, got number -1
 */
export function numberIn(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `≥ ${min}` : `from ${min} to ${max}`
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a finite number ${range}, got ${describe(value)}`,
    )
  }
  return value
}

/**
 * Checks a boolean option, `fallback` when left out. `'false'` and `0` are mistakes, not
 * booleans: treated as truthy they would do the opposite of what was meant.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * booleanOr('false', true, 'explain')
 * // => throws [BAD_OPTION] explain: expected true or false, got 'false'
 */
export function booleanOr(value: unknown, fallback: boolean, field: string): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean')
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected true or false, got ${describe(value)}`,
    )
  return value
}

/**
 * Checks a function option (a hook, a clock).
 *
 * @throws InvalidInputError `BAD_OPTION`.
 */
export function expectFunction<T extends (...args: never[]) => unknown>(
  value: unknown,
  field: string,
  shape = 'a function',
): T {
  if (typeof value !== 'function')
    throw new InvalidInputError('BAD_OPTION', field, `expected ${shape}, got ${describe(value)}`)
  return value as T
}

/**
 * Checks an array: dense (a hole in `[a, , b]` is a mistake, not an item), of any length.
 *
 * @throws InvalidInputError `BAD_OPTION` at `field`, or at `field[i]` for a hole.
 */
export function expectArray(value: unknown, field: string, shape = 'an array'): unknown[] {
  if (!Array.isArray(value))
    throw new InvalidInputError('BAD_OPTION', field, `expected ${shape}, got ${describe(value)}`)
  for (let i = 0; i < value.length; i++) {
    if (!(i in value)) {
      throw new InvalidInputError(
        'BAD_OPTION',
        `${field}[${i}]`,
        'expected an item, got a hole (a sparse array)',
      )
    }
  }
  return value
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
      `expected one of ${allowed.map(describe).join(', ')}, got ${describe(value)}`,
    )
  }
}

/**
 * {@link assertOneOf} that returns the value, for use in expressions.
 *
 * @example
 * oneOf(options.trust ?? 'unverified', TRUST_LEVELS, 'trust')
 * // => 'unverified'
 */
export function oneOf<T>(value: unknown, allowed: readonly T[], field: string): T {
  assertOneOf(value, allowed, field)
  return value
}

function expectString(value: unknown, field: string): string {
  if (typeof value !== 'string')
    throw new InvalidInputError('BAD_OPTION', field, `expected a string, got ${describe(value)}`)
  return value
}

// ---------------------------------------------------------------------------------------------
// Messages.

const DESCRIBED_CHARS = 40
// What a message must not carry as is: controls, format characters (bidi, tags, zero-widths),
// lone surrogates. Written as \u{…} instead, so an error shown or logged hides nothing.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\uD800-\uDFFF]/gu

/**
 * The one rendering of a value in an error message: a string quoted, cut at 40 characters, with
 * controls and invisible characters written as `\u{…}`; a number, boolean or bigint with its
 * type; `null`, `undefined`, `array`, `function`; any other object by its class (`Date`, `Map`,
 * `Float64Array`), or `object` for a plain one.
 *
 * @example
 * [describe('maybe'), describe(3), describe(null), describe([1]), describe(new Map())]
 * // => ["'maybe'", 'number 3', 'null', 'array', 'Map']
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string': {
      // Twice the units: enough for one character past the cut even if all are astral.
      const chars = [...value.slice(0, 2 * (DESCRIBED_CHARS + 1))]
      const cut =
        chars.length > DESCRIBED_CHARS ? `${chars.slice(0, DESCRIBED_CHARS).join('')}…` : value
      return `'${escapeUnprintable(cut)}'`
    }
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`
    case 'bigint':
      return `bigint ${value}n`
    case 'undefined':
    case 'symbol':
    case 'function':
      return typeof value
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (isPlainObject(value)) return 'object'
  return (value as object).constructor?.name || 'object'
}

function escapeUnprintable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`,
  )
}

/** `U+0007`, `U+E0041`, `U+D800`. */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}
