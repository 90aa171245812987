/**
 * The base of every Engram error and the two shapes most catalogue classes take (see
 * `errors.ts`, the catalogue itself).
 */

export abstract class EngramError extends Error {
  abstract readonly code: string
}

/**
 * The classes the two shapes below make, declared: inferred, the emitted types would spell out
 * `Error`'s static members as the build's runtime types have them (Node's `NodeJS.CallSite`),
 * which a consumer without Node's types cannot read.
 */
export type MessageErrorClass<Name extends string, Code extends string> = new (
  message?: string,
  options?: { cause?: unknown },
) => EngramError & { readonly name: Name; readonly code: Code }

export type CodedErrorClass<Name extends string, Code extends string> = new (
  code: Code,
  message: string,
  options?: { cause?: unknown },
) => EngramError & { readonly name: Name; readonly code: Code }

/**
 * A catalogue class whose only data is its message: a `name`, one `code`, and the message used
 * when none is given.
 */
export function messageError<const Name extends string, const Code extends string>(
  name: Name,
  code: Code,
  fallback: string,
): MessageErrorClass<Name, Code> {
  return class extends EngramError {
    override readonly name: Name = name
    readonly code: Code = code
    constructor(message: string = fallback, options?: { cause?: unknown }) {
      super(message, options)
    }
  }
}

/** A catalogue class with several codes, which the thrower picks. */
export function codedError<const Name extends string, Code extends string>(
  name: Name,
): CodedErrorClass<Name, Code> {
  return class extends EngramError {
    override readonly name: Name = name
    readonly code: Code
    constructor(code: Code, message: string, options?: { cause?: unknown }) {
      super(message, options)
      this.code = code
    }
  }
}
