/**
 * Option checks: one per kind of value, each an `InvalidInputError('BAD_OPTION')` whose message
 * reads `expected <shape>, got <value>` (the value printed by {@link describe}), and the one
 * printer of a value for those messages. Every layer checks its options with these; a check of
 * its own builds its error with {@link badOption}, so there is one message form.
 */

import { InvalidInputError } from './errors.ts'

/**
 * The error of a failed option check: `expected <expected>, got <got>`, the value printed by
 * {@link describe}.
 *
 * @example
 * badOption('url', 'an http(s) URL', 'ftp://x').message
 * // => "expected an http(s) URL, got 'ftp://x'"
 */
export function badOption(field: string, expected: string, got: unknown): InvalidInputError {
  return new InvalidInputError('BAD_OPTION', field, `expected ${expected}, got ${describe(got)}`)
}

/**
 * Checks an options object: `undefined` is `{}` unless `required`; anything but a non-array
 * object is rejected at `field`; an own key not in `names` (a typo, an option of another method)
 * is rejected at `prefix + key` rather than silently ignored.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * expectOptions({ namspace: 'work' }, 'options', ['namespace', 'type'], '')
 * // => throws BAD_OPTION at namspace: expected one of the options namespace, type; got an unknown one
 */
export function expectOptions(
  value: unknown,
  field: string,
  names: readonly string[],
  prefix: string,
  required = false,
): Record<string, unknown> {
  if (value === undefined && !required) return {}
  if (!isObject(value)) throw badOption(field, 'an object', value)
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
 * The option names of `T`, listed once and checked by the compiler: a name `T` lacks, or a key
 * of `T` left out, is a type error (the missing keys are named in it). For {@link expectOptions}.
 *
 * @example
 * optionNames<{ k?: number; mode?: string }>()(['k', 'mode'])
 * // => ['k', 'mode']
 */
export function optionNames<T>() {
  return <const L extends readonly (keyof T & string)[]>(
    names: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : MissingNames<T, L>),
  ): readonly string[] => names
}

interface MissingNames<T, L extends readonly unknown[]> {
  missing: Exclude<keyof T, L[number]>
}

/**
 * Checks an integer from `min` to `max` inclusive.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * integerIn(2.5, 'limit', 1, 1000)
 * // => throws BAD_OPTION at limit: expected an integer from 1 to 1000, got number 2.5
 */
export function integerIn(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badOption(field, `an integer ${range(min, max)}`, value)
  }
  return value
}

/** `from min to max`, or `≥ min` when there is no real upper bound. */
function range(min: number, max: number): string {
  return max >= Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`
}

/**
 * Checks a finite number from `min` to `max` inclusive (`max` may be `Infinity`: no upper bound).
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * numberIn(-1, 'weights.keyword', 0, Number.POSITIVE_INFINITY)
 * // => throws BAD_OPTION at weights.keyword: expected a finite number ≥ 0, got number -1
 */
export function numberIn(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw badOption(field, `a finite number ${range(min, max)}`, value)
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
 * // => throws BAD_OPTION at explain: expected true or false, got 'false'
 */
export function booleanOr(value: unknown, fallback: boolean, field: string): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') throw badOption(field, 'true or false', value)
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
  if (typeof value !== 'function') throw badOption(field, shape, value)
  return value as T
}

/**
 * Checks an array: dense (a hole in `[a, , b]` is a mistake, not an item), of any length.
 *
 * @throws InvalidInputError `BAD_OPTION` at `field`, or at `field[i]` for a hole.
 */
export function expectArray(value: unknown, field: string, shape = 'an array'): unknown[] {
  if (!Array.isArray(value)) throw badOption(field, shape, value)
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
 * // => throws BAD_OPTION at confidence: expected one of 'low', 'medium', 'high', got 'maybe'
 */
export function assertOneOf<T>(
  value: unknown,
  allowed: readonly T[],
  field: string,
): asserts value is T {
  if (!allowed.includes(value as T)) {
    throw badOption(field, `one of ${allowed.map(describe).join(', ')}`, value)
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

export function expectString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw badOption(field, 'a string', value)
  return value
}

/**
 * Checks a string with something in it besides whitespace (a name, a passphrase).
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * nonEmptyString('  ', 'source')
 * // => throws BAD_OPTION at source: expected a non-empty string, got '  '
 */
export function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw badOption(field, 'a non-empty string', value)
  }
  return value
}

/** A non-array object: what an options bag must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
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

export function escapeUnprintable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`,
  )
}

/** `U+0007`, `U+E0041`, `U+D800`. */
export function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
}

/** A plain object: `{}` or `Object.create(null)`, not an array, class instance or Map. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
