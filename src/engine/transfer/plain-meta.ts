import { checkCharacters } from '../../core/validate.ts'
import { validateMeta } from '../../core/validate-meta.ts'

/**
 * `meta` as an import will accept it: unchanged when it is valid; otherwise its JSON-safe part
 * (cycles, functions, symbols, undefined and strings with forbidden characters left out, BigInts
 * as strings, Dates as ISO strings, Maps as objects, Sets as arrays, non-finite numbers as null),
 * or nothing when even that is too large.
 */
export function importableMeta(meta: unknown): {
  value?: Record<string, unknown>
  repaired: boolean
} {
  try {
    return { value: validateMeta(meta), repaired: false }
  } catch {
    try {
      const plain = toPlainData(meta, new Set(), 0)
      return { value: validateMeta(plain ?? {}), repaired: true }
    } catch {
      return { repaired: true }
    }
  }
}

const DROP = Symbol('drop')

function toPlainData(value: unknown, ancestors: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      try {
        return checkCharacters(value, 'meta')
      } catch {
        return DROP
      }
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'boolean':
      return value
    case 'bigint':
      return String(value)
    case 'object':
      break
    default:
      return DROP
  }
  if (value === null) return null
  if (ancestors.has(value) || depth > 8) return DROP
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  ancestors.add(value)
  const out = plainContainer(value, ancestors, depth)
  ancestors.delete(value)
  return out
}

function plainContainer(value: object, ancestors: Set<object>, depth: number): unknown {
  if (Array.isArray(value) || value instanceof Set) {
    return [...value]
      .map((v) => toPlainData(v, ancestors, depth + 1))
      .map((v) => (v === DROP ? null : v))
  }
  const entries = value instanceof Map ? [...value] : Object.entries(value)
  const obj: Record<string, unknown> = {}
  for (const [key, v] of entries) {
    const plain = toPlainData(v, ancestors, depth + 1)
    if (plain !== DROP) obj[String(key)] = plain
  }
  return obj
}
