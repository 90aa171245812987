/**
 * The error catalogue. Each error is a class with a distinct `name` and a stable `code`.
 * A structured clone keeps only an error's `name`, `message` and `stack`, so errors cross a
 * worker boundary as data ({@link errorToData}) and the page rebuilds the class by `name`
 * ({@link reviveError}), never by reading the message.
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
  | 'BAD_META'
  | 'META_TOO_LARGE'
  | 'PAGE_CHUNK'

/** The caller passed something Engram cannot store or use. Nothing was written. */
export class InvalidInputError extends EngramError {
  override readonly name = 'InvalidInputError'
  readonly code: InvalidInputCode
  /** The argument or option at fault, e.g. `'text'`, `'tags[2]'`, `'k'`. */
  readonly field: string
  constructor(code: InvalidInputCode, field: string, message: string) {
    // The code and field stay in the message too: it is what a log line or a console shows.
    super(`[${code}] ${field}: ${message}`)
    this.code = code
    this.field = field
  }
}

export class MemoryNotFoundError extends EngramError {
  override readonly name = 'MemoryNotFoundError'
  readonly code = 'NOT_FOUND'
  constructor(readonly id: string) {
    super(`no memory with id ${JSON.stringify(id)}`)
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
    super(message)
  }
}

/** IndexedDB failed in a way not covered by a more specific error. The write did not happen. */
export class StorageError extends EngramError {
  override readonly name = 'StorageError'
  readonly code = 'STORAGE'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
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
    super(message, options)
  }
}

/** The memory was closed (by `close()`, a schema upgrade in another tab, or the browser). */
export class MemoryClosedError extends EngramError {
  override readonly name = 'MemoryClosedError'
  readonly code = 'CLOSED'
  constructor(message = 'the memory is closed', options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** The embedding model could not be loaded or run. Keyword recall still works. */
export class EmbedderUnavailableError extends EngramError {
  override readonly name = 'EmbedderUnavailableError'
  readonly code = 'EMBEDDER_UNAVAILABLE'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** The worker died or was terminated while calls were in flight. */
export class WorkerTerminatedError extends EngramError {
  override readonly name = 'WorkerTerminatedError'
  readonly code = 'WORKER_TERMINATED'
  constructor(message = 'the memory worker stopped before answering') {
    super(message)
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
    super(`line ${line}: ${message}`)
  }
}

/**
 * Another origin asked for something the user has not allowed: the origin was denied, its
 * access was revoked, it named a namespace it was not granted, or it called a method the host
 * does not offer to other origins. Nothing was read or written.
 *
 * @example
 * await memory.recall('units') // after the user revoked this site in "Connected sites"
 * // => throws AccessDeniedError { code: 'ACCESS_DENIED', origin: 'https://example.test' }
 */
export class AccessDeniedError extends EngramError {
  override readonly name = 'AccessDeniedError'
  readonly code = 'ACCESS_DENIED'
  constructor(
    /** The origin that was refused, e.g. `'https://example.test'`. */
    readonly origin: string,
    message = `${origin} is not allowed to use this memory`,
  ) {
    super(message)
  }
}

/**
 * The passphrase or key does not open this server's memory: the `engram-keycheck` document
 * there was sealed with another one. Nothing was replicated or changed, locally or remotely.
 */
export class SyncKeyError extends EngramError {
  override readonly name = 'SyncKeyError'
  readonly code = 'WRONG_KEY'
  constructor(
    message = 'the passphrase or key does not match the one this server was set up with',
  ) {
    super(message)
  }
}

/**
 * Why the server's `engram-keycheck` document was refused: `KEYCHECK_REPLACED` (it is not the
 * one this device verified and pinned when it first synced: the server swapped it), or
 * `KEYCHECK_MISSING` (it is gone while sealed documents remain: a new one would seal with a key
 * that cannot open them). A device that pinned it puts it back; nothing else was written.
 */
export type SyncKeycheckCode = 'KEYCHECK_REPLACED' | 'KEYCHECK_MISSING'

/** The server's key check is not the one this memory was set up with. Nothing was synced. */
export class SyncKeycheckError extends EngramError {
  override readonly name = 'SyncKeycheckError'
  readonly code: SyncKeycheckCode
  constructor(code: SyncKeycheckCode, message: string) {
    super(`[${code}] ${message}`)
    this.code = code
  }
}

/** The server cannot be used for sync: unreachable on first use, or it answered with an error. */
export class SyncServerError extends EngramError {
  override readonly name = 'SyncServerError'
  readonly code = 'SYNC_SERVER'
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** Why `sync.start()` could not start: one already runs. */
export type SyncStateCode = 'SYNC_RUNNING'

/**
 * `memory.sync.start()` was called while a sync of this memory runs, in this tab or another
 * (`SYNC_RUNNING`: stop it first). Nothing was started.
 */
export class SyncStateError extends EngramError {
  override readonly name = 'SyncStateError'
  readonly code: SyncStateCode
  constructor(code: SyncStateCode, message: string) {
    super(message)
    this.code = code
  }
}

/**
 * The memory is encrypted at rest and locked (`atRest.lock()`): every call but `unlock`, `close` and
 * `stats` throws this until `atRest.unlock(secret)`. Nothing was read or written.
 */
export class MemoryLockedError extends EngramError {
  override readonly name = 'MemoryLockedError'
  readonly code = 'LOCKED'
  constructor(message = 'the memory is locked: unlock it with its passphrase or key') {
    super(message)
  }
}

/**
 * Why encryption at rest refused: `WRONG_KEY` (the passphrase or key does not open this
 * memory), `KEY_REQUIRED` (the memory is encrypted and was opened without `encryption`),
 * `NOT_ENCRYPTED` (`lock`/`unlock` on a memory without encryption), `NOT_EMPTY` (encryption
 * asked for on a memory that already holds plain rows: export, then import into a new one),
 * `NEWER_FORMAT` (the memory was sealed by a later Engram, in a format this one does not know),
 * `UNREADABLE` (a write met a stored row that does not open, `inspect.verify().unreadable`, holding the
 * same exact-dedup key: `forget` its id to drop it).
 */
export type EncryptionCode =
  | 'WRONG_KEY'
  | 'KEY_REQUIRED'
  | 'NOT_ENCRYPTED'
  | 'NOT_EMPTY'
  | 'NEWER_FORMAT'
  | 'UNREADABLE'

/** Encryption at rest could not open or change this memory. Nothing was changed. */
export class EncryptionError extends EngramError {
  override readonly name = 'EncryptionError'
  readonly code: EncryptionCode
  constructor(code: EncryptionCode, message: string) {
    super(`[${code}] ${message}`)
    this.code = code
  }
}

/**
 * Too many recalls at once: `recallQueue.concurrency` run and `recallQueue.maxQueued` already
 * wait for a turn (`EngineOptions.recallQueue`). Nothing was read or logged; retry once some
 * have answered.
 *
 * @example
 * await Promise.all(Array.from({ length: 1000 }, () => memory.recall('units')))
 * // => rejects with RecallBusyError { code: 'RECALL_BUSY' } (4 running, 256 waiting)
 */
export class RecallBusyError extends EngramError {
  override readonly name = 'RecallBusyError'
  readonly code = 'RECALL_BUSY'
  constructor(message = 'too many recalls at once: retry once some have answered') {
    super(message)
  }
}

/**
 * An error as it crosses a worker boundary: plain data, so every field survives the structured
 * clone. Fields a class does not have are left out.
 *
 * @example
 * errorToData(new ImportFormatError(3, 'expected a JSON object'))
 * // => { name: 'ImportFormatError', message: 'line 3: expected a JSON object', stack: '…',
 * //      code: 'IMPORT_FORMAT', line: 3 }
 */
export interface ErrorData {
  name: string
  message: string
  stack?: string
  code?: string
  /** {@link InvalidInputError.field} */
  field?: string
  /** {@link MemoryNotFoundError.id} */
  id?: string
  /** {@link ImportFormatError.line} */
  line?: number
  /** {@link RejectedMemoryError.rules} */
  rules?: string[]
  /** {@link AccessDeniedError.origin} */
  origin?: string
}

const DATA_FIELDS = ['code', 'field', 'id', 'line', 'rules', 'origin'] as const

/** Turns an error into {@link ErrorData}; {@link reviveError} turns it back. */
export function errorToData(error: Error): ErrorData {
  const data: ErrorData = { name: error.name, message: error.message }
  if (typeof error.stack === 'string') data.stack = error.stack
  if (error instanceof EngramError) {
    const fields = error as Partial<Record<(typeof DATA_FIELDS)[number], unknown>>
    for (const key of DATA_FIELDS) {
      const value = fields[key]
      if (value !== undefined)
        Object.assign(data, { [key]: Array.isArray(value) ? [...value] : value })
    }
  }
  return data
}

/** Builds each catalogue class from its data; the message is then set to the one sent. */
const REVIVERS: Record<string, (data: ErrorData) => EngramError> = {
  InvalidInputError: (d) => new InvalidInputError(d.code as InvalidInputCode, d.field ?? '', ''),
  MemoryNotFoundError: (d) => new MemoryNotFoundError(d.id ?? ''),
  RejectedMemoryError: (d) => new RejectedMemoryError(d.rules ?? []),
  StorageError: () => new StorageError(''),
  StorageFullError: () => new StorageFullError(),
  MemoryClosedError: () => new MemoryClosedError(),
  EmbedderUnavailableError: () => new EmbedderUnavailableError(''),
  WorkerTerminatedError: () => new WorkerTerminatedError(),
  ImportFormatError: (d) => new ImportFormatError(d.line ?? 0, ''),
  AccessDeniedError: (d) => new AccessDeniedError(d.origin ?? ''),
  SyncKeyError: () => new SyncKeyError(),
  SyncServerError: () => new SyncServerError(''),
  SyncKeycheckError: (d) => new SyncKeycheckError(d.code as SyncKeycheckCode, ''),
  SyncStateError: (d) => new SyncStateError(d.code as SyncStateCode, ''),
  MemoryLockedError: () => new MemoryLockedError(),
  EncryptionError: (d) => new EncryptionError(d.code as EncryptionCode, ''),
  RecallBusyError: () => new RecallBusyError(),
}

/** The names {@link reviveError} rebuilds as their own class. */
export const ERROR_NAMES = Object.freeze(Object.keys(REVIVERS))

/**
 * Rebuilds an error from the {@link ErrorData} that crossed a boundary: a catalogue class by
 * `name` with all its fields, any other name as a plain `Error` carrying that name. Anything
 * that is not error data (an `Error` raised on this side, a thrown string) comes back as it is.
 */
export function reviveError(thrown: unknown): unknown {
  if (!isErrorData(thrown)) return thrown
  const error = Object.hasOwn(REVIVERS, thrown.name) ? REVIVERS[thrown.name]!(thrown) : new Error()
  error.name = thrown.name
  error.message = thrown.message
  if (thrown.stack !== undefined) error.stack = thrown.stack
  return error
}

function isErrorData(value: unknown): value is ErrorData {
  if (!value || typeof value !== 'object' || value instanceof Error) return false
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return false
  const { name, message } = value as Partial<ErrorData>
  return typeof name === 'string' && typeof message === 'string'
}
