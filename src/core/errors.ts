/**
 * The error catalogue. Each error is a class with a distinct `name` and a stable `code`.
 * Across a worker boundary only `name`, `message` and `stack` survive, so the client rebuilds
 * errors with {@link reviveError}; codes that vary per instance are carried in the message
 * prefix `[CODE]` for that reason.
 */

export abstract class EngramError extends Error {
  abstract readonly code: string
}

/** What was wrong with an input. Stable: callers switch on it. */
export type InvalidInputCode =
  | 'EMPTY_TEXT'
  | 'TEXT_TOO_LONG'
  | 'LONE_SURROGATE'
  | 'CONTROL_CHARACTER'
  | 'BIDI_CONTROL'
  | 'HIDDEN_CHARACTER'
  | 'BAD_VECTOR'
  | 'BAD_OPTION'
  | 'BAD_ID'
  | 'DUPLICATE_TEXT'

/** The caller passed something Engram cannot store or use. Nothing was written. */
export class InvalidInputError extends EngramError {
  override readonly name = 'InvalidInputError'
  readonly code: InvalidInputCode
  /** The argument or option at fault, e.g. `'text'`, `'tags[2]'`, `'k'`. */
  readonly field: string
  constructor(code: InvalidInputCode, field: string, message: string) {
    super(`[${code}] ${field}: ${message}`)
    this.code = code
    this.field = field
  }
}

export class MemoryNotFoundError extends EngramError {
  override readonly name = 'MemoryNotFoundError'
  readonly code = 'NOT_FOUND'
  constructor(readonly id: string) {
    super(`[NOT_FOUND] no memory with id ${JSON.stringify(id)}`)
  }
}

/** The poison screen matched and the caller asked for rejection. `rule` names what matched. */
export class RejectedMemoryError extends EngramError {
  override readonly name = 'RejectedMemoryError'
  readonly code = 'REJECTED'
  constructor(
    readonly rules: string[],
    message = `text matched the memory-poisoning screen: ${rules.join(', ')}`,
  ) {
    super(`[REJECTED] ${message}`)
  }
}

/** IndexedDB failed in a way not covered by a more specific error. The write did not happen. */
export class StorageError extends EngramError {
  override readonly name = 'StorageError'
  readonly code = 'STORAGE'
  constructor(message: string, options?: { cause?: unknown }) {
    super(`[STORAGE] ${message}`, options)
  }
}

/** The browser's storage quota is exhausted. Nothing from this write was kept. */
export class StorageFullError extends EngramError {
  override readonly name = 'StorageFullError'
  readonly code = 'STORAGE_FULL'
  constructor(
    message = 'storage quota exceeded: free space (forget or export old memories) or ask the browser for persistent storage',
    options?: { cause?: unknown },
  ) {
    super(`[STORAGE_FULL] ${message}`, options)
  }
}

/** The memory was closed (by `close()`, a schema upgrade in another tab, or the browser). */
export class MemoryClosedError extends EngramError {
  override readonly name = 'MemoryClosedError'
  readonly code = 'CLOSED'
  constructor(message = 'the memory is closed', options?: { cause?: unknown }) {
    super(`[CLOSED] ${message}`, options)
  }
}

/** The embedding model could not be loaded or run. Keyword recall still works. */
export class EmbedderUnavailableError extends EngramError {
  override readonly name = 'EmbedderUnavailableError'
  readonly code = 'EMBEDDER_UNAVAILABLE'
  constructor(message: string, options?: { cause?: unknown }) {
    super(`[EMBEDDER_UNAVAILABLE] ${message}`, options)
  }
}

/** The worker died or was terminated while calls were in flight. */
export class WorkerTerminatedError extends EngramError {
  override readonly name = 'WorkerTerminatedError'
  readonly code = 'WORKER_TERMINATED'
  constructor(message = 'the memory worker stopped before answering') {
    super(`[WORKER_TERMINATED] ${message}`)
  }
}

/** An import line could not be read. `line` is 1-based. Nothing from its batch was stored. */
export class ImportFormatError extends EngramError {
  override readonly name = 'ImportFormatError'
  readonly code = 'IMPORT_FORMAT'
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`[IMPORT_FORMAT] line ${line}: ${message}`)
  }
}

type ErrorFactory = (message: string) => EngramError

const CODE_PREFIX = /^\[([A-Z_]+)\]\s*/

/** Strips the `[CODE] ` prefix a message carries, for rebuilding an error from its message. */
function body(message: string): string {
  return message.replace(CODE_PREFIX, '')
}

const REVIVERS: Record<string, ErrorFactory> = {
  InvalidInputError: (m) => {
    const code = (CODE_PREFIX.exec(m)?.[1] ?? 'BAD_OPTION') as InvalidInputCode
    const rest = body(m)
    const colon = rest.indexOf(': ')
    return colon > 0
      ? new InvalidInputError(code, rest.slice(0, colon), rest.slice(colon + 2))
      : new InvalidInputError(code, 'input', rest)
  },
  MemoryNotFoundError: (m) => {
    const id = /id "(.*)"$/.exec(m)?.[1] ?? ''
    return new MemoryNotFoundError(id)
  },
  RejectedMemoryError: (m) => {
    const rules = /screen: (.*)$/.exec(m)?.[1]?.split(', ') ?? []
    return new RejectedMemoryError(rules, body(m))
  },
  StorageError: (m) => new StorageError(body(m)),
  StorageFullError: (m) => new StorageFullError(body(m)),
  MemoryClosedError: (m) => new MemoryClosedError(body(m)),
  EmbedderUnavailableError: (m) => new EmbedderUnavailableError(body(m)),
  WorkerTerminatedError: (m) => new WorkerTerminatedError(body(m)),
  ImportFormatError: (m) => {
    const line = Number(/line (\d+):/.exec(m)?.[1] ?? 0)
    return new ImportFormatError(line, body(m).replace(/^line \d+: /, ''))
  },
}

/**
 * Rebuilds a catalogue error from what survived a structured clone (`name`, `message`, `stack`).
 * Unknown names come back as they are.
 */
export function reviveError(error: unknown): unknown {
  if (!error || typeof error !== 'object') return error
  const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown }
  if (typeof name !== 'string' || typeof message !== 'string') return error
  const revive = REVIVERS[name]
  if (!revive) return error
  const revived = revive(message)
  if (typeof stack === 'string') revived.stack = stack
  return revived
}
