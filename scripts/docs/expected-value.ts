/**
 * What a `// =>` in the docs promises, and whether a value keeps the promise. The text is a JS
 * literal, loosely: `…` stands for anything, a ULID for any ULID, `'…'` inside a string for any
 * text, a decimal for a number rounded to the places written; words after the literal are prose.
 */

/** Matches any value; what a bare `…` in an expected literal becomes. */
const ANY = Symbol('any')

/** A number written with decimals: matched to that many places. */
class Rounded {
  constructor(
    readonly value: number,
    readonly places: number,
  ) {}
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/

/**
 * The literal at the start of `text`, or undefined when no prefix parses (the expectation is
 * prose, and is not compared). Tries the whole text, then prefixes cut at prose boundaries.
 */
export function parseExpected(text: string): { value: unknown } | undefined {
  const cuts = [text.length]
  for (const boundary of [/\s{2,}/g, / \(/g, /: /g, / — /g, /, then /g, /; /g, / or /g]) {
    for (const m of text.matchAll(boundary)) cuts.push(m.index)
  }
  for (const cut of [...new Set(cuts)].sort((a, b) => b - a)) {
    const literal = text.slice(0, cut).trim()
    if (literal === '') continue
    const value = evaluate(literal)
    if (value) return value
  }
  return undefined
}

function evaluate(literal: string): { value: unknown } | undefined {
  // Numbers with decimals keep their places; bare … becomes ANY (outside strings only).
  let source = ''
  let quote: string | undefined
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i]!
    if (quote) {
      source += c
      if (c === '\\') source += literal[++i] ?? ''
      else if (c === quote) quote = undefined
      continue
    }
    if (c === "'" || c === '"' || c === '`') {
      quote = c
      source += c
      continue
    }
    if (c === '…') {
      source += '__ANY'
      continue
    }
    const number = /^-?\d+\.(\d+)/.exec(literal.slice(i))
    if (number && !/[\w.]/.test(literal[i - 1] ?? '')) {
      source += `__R(${number[0]}, ${number[1]!.length})`
      i += number[0].length - 1
      continue
    }
    source += c
  }
  if (quote) return undefined
  try {
    const value = new Function('__ANY', '__R', `return (${source})`)(
      ANY,
      (n: number, p: number) => new Rounded(n, p),
    )
    return { value }
  } catch {
    return undefined
  }
}

/** Why `actual` breaks the promise `expected` (a parsed literal), or undefined when it keeps it. */
export function mismatch(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (expected === ANY) return undefined
  if (expected instanceof Rounded) {
    if (typeof actual !== 'number') return `${path}: expected a number, got ${show(actual)}`
    const rounded = Number(actual.toFixed(expected.places))
    return rounded === expected.value
      ? undefined
      : `${path}: expected ${expected.value}, got ${actual}`
  }
  if (typeof expected === 'string') {
    if (typeof actual !== 'string') return `${path}: expected a string, got ${show(actual)}`
    if (ULID.test(expected))
      return ULID.test(actual) ? undefined : `${path}: expected a ULID, got ${show(actual)}`
    const pattern = new RegExp(`^${expected.split('…').map(escapeRegExp).join('[\\s\\S]*')}$`)
    return pattern.test(actual)
      ? undefined
      : `${path}: expected ${show(expected)}, got ${show(actual)}`
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`
    }
    for (let i = 0; i < expected.length; i++) {
      const why = mismatch(actual[i], expected[i], `${path}[${i}]`)
      if (why) return why
    }
    return undefined
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object')
      return `${path}: expected an object, got ${show(actual)}`
    // The fields written are promised; others the value may have.
    for (const [key, value] of Object.entries(expected)) {
      const why = mismatch((actual as Record<string, unknown>)[key], value, `${path}.${key}`)
      if (why) return why
    }
    return undefined
  }
  return Object.is(actual, expected)
    ? undefined
    : `${path}: expected ${show(expected)}, got ${show(actual)}`
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
