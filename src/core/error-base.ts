/**
 * The base of every Engram error and the two shapes most catalogue classes take (see
 * `errors.ts`, the catalogue itself).
 */

export abstract class EngramError extends Error {
  abstract readonly code: string
}

/**
 * A catalogue class whose only data is its message: a `name`, one `code`, and the message used
 * when none is given.
 */
export function messageError<const Name extends string, const Code extends string>(
  name: Name,
  code: Code,
  fallback: string,
) {
  return class extends EngramError {
    override readonly name: Name = name
    readonly code: Code = code
    constructor(message: string = fallback, options?: { cause?: unknown }) {
      super(message, options)
    }
  }
}

/** A catalogue class with several codes, which the thrower picks. */
export function codedError<const Name extends string, Code extends string>(name: Name) {
  return class extends EngramError {
    override readonly name: Name = name
    readonly code: Code
    constructor(code: Code, message: string, options?: { cause?: unknown }) {
      super(message, options)
      this.code = code
    }
  }
}
