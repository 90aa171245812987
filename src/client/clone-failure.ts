import { InvalidInputError } from '../core/errors.ts'

/**
 * Names the argument a `DataCloneError` is about. A function, a symbol or a class instance
 * with private state cannot be posted to a worker; the browser's error does not say which
 * value it was, so the arguments are searched for the first one a structured clone refuses.
 * Returns `undefined` for any other error.
 *
 * @example
 * cloneFailure(dataCloneError, ['Priya', { meta: { at: () => 1 } }])
 * // => InvalidInputError { code: 'BAD_OPTION', field: 'meta.at',
 * //      detail: 'expected plain data that can be posted to the memory worker, got a function' }
 */
export function cloneFailure(error: unknown, args: unknown[]): InvalidInputError | undefined {
  if ((error as { name?: unknown } | null)?.name !== 'DataCloneError') return undefined
  for (const [i, arg] of args.entries()) {
    const root = Array.isArray(arg) ? 'items' : isPlainObject(arg) ? '' : `arguments[${i}]`
    const found = refused(arg, root)
    if (found) {
      return new InvalidInputError(
        'BAD_OPTION',
        found.path || 'options',
        `expected plain data that can be posted to the memory worker, got ${describe(found.value)}`,
      )
    }
  }
  return new InvalidInputError(
    'BAD_OPTION',
    'options',
    `expected plain data that can be posted to the memory worker (${(error as Error).message})`,
  )
}

/** The innermost value under `value` that a structured clone refuses, with its path. */
function refused(value: unknown, path: string): { path: string; value: unknown } | undefined {
  if (clones(value)) return undefined
  if (Array.isArray(value) || isPlainObject(value)) {
    for (const [key, child] of Object.entries(value as object)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key
      const found = refused(child, childPath)
      if (found) return found
    }
  }
  return { path, value }
}

function clones(value: unknown): boolean {
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'symbol') return 'a symbol'
  const name = (value as object | null)?.constructor?.name
  return name ? `a ${name}` : typeof value
}
