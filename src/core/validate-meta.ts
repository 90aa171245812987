/**
 * `meta`: the host's structured data, stored and exported as JSON — plain data only, with a
 * size and depth cap, every string character-checked.
 */

import { describe, escapeUnprintable, isPlainObject } from './check-options.ts'
import { InvalidInputError } from './errors.ts'
import { utf8Length } from './text.ts'
import { checkCharacters, PLAIN_ASCII } from './validate.ts'

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
 * // => throws InvalidInputError { code: 'BAD_META', field: 'meta.when' }: expected JSON data (a plain object, an array, a string, a finite number, true, false or null), got Date
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
