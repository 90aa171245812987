/**
 * The error catalogue. Each error is a class with a distinct `name` and a stable `code`; its
 * `message` says what was expected and what was given, in words, with no `[CODE]` prefix: the
 * code and any field at fault are fields of their own. A structured clone keeps only an error's
 * `name`, `message` and `stack`, so errors cross a worker boundary as data ({@link errorToData})
 * and the far side rebuilds the class by `name` ({@link reviveError}), never by reading the
 * message. {@link CATALOGUE} at the end is the one list both are derived from.
 */

import type { ModelFailure, ModelFailureReason } from './contract/embedder.ts'
import { codedError, EngramError, messageError } from './error-base.ts'

export { EngramError }

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

/**
 * The caller passed something Engram cannot store or use. Nothing was written.
 *
 * @example
 * new InvalidInputError('BAD_OPTION', 'k', 'expected an integer from 1 to 100, got 2.5')
 * // => { name: 'InvalidInputError', code: 'BAD_OPTION', field: 'k',
 * //      detail: 'expected an integer from 1 to 100, got 2.5',
 * //      message: 'expected an integer from 1 to 100, got 2.5 (k)' }
 */
export class InvalidInputError extends EngramError {
  override readonly name = 'InvalidInputError'
  readonly code: InvalidInputCode
  /** The argument or option at fault, e.g. `'text'`, `'tags[2]'`, `'k'`. */
  readonly field: string
  /** What was expected and what was given, without the field: what a form shows beside it. */
  readonly detail: string
  constructor(code: InvalidInputCode, field: string, detail: string) {
    // The field stays in the message, after it: a log line, a console or a model reading a
    // tool result needs it to find the fault.
    super(field ? `${detail} (${field})` : detail)
    this.code = code
    this.field = field
    this.detail = detail
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
export class StorageError extends messageError('StorageError', 'STORAGE', 'the storage failed') {}

/** The browser's storage quota is exhausted. Nothing from this write was kept. */
export class StorageFullError extends messageError(
  'StorageFullError',
  'STORAGE_FULL',
  'storage quota exceeded: free space (forget or export old memories) or ask the browser for persistent storage',
) {}

/** The memory was closed (by `close()`, a schema upgrade in another tab, or the browser). */
export class MemoryClosedError extends messageError(
  'MemoryClosedError',
  'CLOSED',
  'the memory is closed',
) {}

/**
 * The embedding model could not be loaded or run. Keyword recall still works. A failed load
 * says why in `reason`, classified by the embedder from the runtime's own error (see
 * {@link ModelFailureReason}), and for `'not-found'` which `file` was missing.
 */
export class EmbedderUnavailableError extends messageError(
  'EmbedderUnavailableError',
  'EMBEDDER_UNAVAILABLE',
  'the embedding model is unavailable',
) {
  declare readonly reason?: ModelFailureReason
  declare readonly file?: string
  constructor(message?: string, options?: { cause?: unknown; failure?: ModelFailure }) {
    super(message, options)
    if (options?.failure) Object.assign(this, options.failure)
  }
}

/** The worker died or was terminated while calls were in flight. */
export class WorkerTerminatedError extends messageError(
  'WorkerTerminatedError',
  'WORKER_TERMINATED',
  'the memory worker stopped before answering',
) {}

/**
 * An import line could not be read. `line` is 1-based. Nothing from its batch was stored. When
 * one of the line's fields failed its check, `fault` and `field` say which, as the
 * {@link InvalidInputError} behind it did.
 *
 * @example
 * await memory.transfer.import('{"text":"ok"}\n{"text":"x","namespace":"ns\u2066"}')
 * // => throws ImportFormatError { code: 'IMPORT_FORMAT', line: 2, fault: 'BIDI_CONTROL',
 * //      field: 'namespace', message: 'line 2: expected no bidi … (namespace)' }
 */
export class ImportFormatError extends EngramError {
  override readonly name = 'ImportFormatError'
  readonly code = 'IMPORT_FORMAT'
  declare readonly fault?: InvalidInputCode
  declare readonly field?: string
  constructor(
    readonly line: number,
    /** What is wrong with the line, without its number. */
    readonly detail: string,
    input?: { fault: InvalidInputCode; field: string },
  ) {
    super(`line ${line}: ${detail}`)
    if (input) Object.assign(this, { fault: input.fault, field: input.field })
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
export class SyncKeyError extends messageError(
  'SyncKeyError',
  'WRONG_KEY',
  'the passphrase or key does not match the one this server was set up with',
) {}

/**
 * Why the server's `engram-keycheck` document was refused: `KEYCHECK_REPLACED` (it is not the
 * one this device verified and pinned when it first synced: the server swapped it), or
 * `KEYCHECK_MISSING` (it is gone while sealed documents remain: a new one would seal with a key
 * that cannot open them). A device that pinned it puts it back; nothing else was written.
 */
export type SyncKeycheckCode = 'KEYCHECK_REPLACED' | 'KEYCHECK_MISSING'

/** The server's key check is not the one this memory was set up with. Nothing was synced. */
export class SyncKeycheckError extends codedError<'SyncKeycheckError', SyncKeycheckCode>(
  'SyncKeycheckError',
) {}

/** The server cannot be used for sync: unreachable on first use, or it answered with an error. */
export class SyncServerError extends messageError(
  'SyncServerError',
  'SYNC_SERVER',
  'the sync server cannot be used',
) {}

/** Why `sync.start()` could not start: one already runs. */
export type SyncStateCode = 'SYNC_RUNNING'

/**
 * `memory.sync.start()` was called while a sync of this memory runs, in this tab or another
 * (`SYNC_RUNNING`: stop it first). Nothing was started.
 */
export class SyncStateError extends codedError<'SyncStateError', SyncStateCode>('SyncStateError') {}

/**
 * The memory is encrypted at rest and locked (`atRest.lock()`): every call but `unlock`, `close` and
 * `stats` throws this until `atRest.unlock(secret)`. Nothing was read or written.
 */
export class MemoryLockedError extends messageError(
  'MemoryLockedError',
  'LOCKED',
  'the memory is locked: unlock it with its passphrase or key',
) {}

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
export class EncryptionError extends codedError<'EncryptionError', EncryptionCode>(
  'EncryptionError',
) {}

/**
 * Too many recalls at once: `recallQueue.concurrency` run and `recallQueue.maxQueued` already
 * wait for a turn (`EngineOptions.recallQueue`). Nothing was read or logged; retry once some
 * have answered.
 *
 * @example
 * await Promise.all(Array.from({ length: 1000 }, () => memory.recall('units')))
 * // => rejects with RecallBusyError { code: 'RECALL_BUSY' } (4 running, 256 waiting)
 */
export class RecallBusyError extends messageError(
  'RecallBusyError',
  'RECALL_BUSY',
  'too many recalls at once: retry once some have answered',
) {}

/** One row of the catalogue: a class, and the fields it carries besides name, message, code. */
interface Entry<Name extends string> {
  of: abstract new (...args: never[]) => EngramError & { readonly name: Name }
  fields: readonly string[]
}

function entry<E extends EngramError, F extends keyof E & string = never>(
  of: abstract new (...args: never[]) => E,
  ...fields: F[]
): { of: abstract new (...args: never[]) => E; fields: readonly NoInfer<F>[] } {
  return { of, fields }
}

/** Fails the type check when a row's key is not its class's `name`. */
function catalogue<const T extends { [Name in keyof T & string]: Entry<Name> }>(rows: T): T {
  return rows
}

/**
 * The catalogue: every class by its `name`, with the data fields that cross a boundary besides
 * `name`, `message`, `stack` and `code`. A new error is one class above and one row here; its
 * name joins {@link ERROR_NAMES}, its fields {@link ErrorData}, and {@link reviveError}
 * rebuilds it.
 */
const CATALOGUE = catalogue({
  InvalidInputError: entry(InvalidInputError, 'field', 'detail'),
  MemoryNotFoundError: entry(MemoryNotFoundError, 'id'),
  RejectedMemoryError: entry(RejectedMemoryError, 'rules'),
  StorageError: entry(StorageError),
  StorageFullError: entry(StorageFullError),
  MemoryClosedError: entry(MemoryClosedError),
  EmbedderUnavailableError: entry(EmbedderUnavailableError, 'reason', 'file'),
  WorkerTerminatedError: entry(WorkerTerminatedError),
  ImportFormatError: entry(ImportFormatError, 'line', 'detail', 'fault', 'field'),
  AccessDeniedError: entry(AccessDeniedError, 'origin'),
  SyncKeyError: entry(SyncKeyError),
  SyncKeycheckError: entry(SyncKeycheckError),
  SyncServerError: entry(SyncServerError),
  SyncStateError: entry(SyncStateError),
  MemoryLockedError: entry(MemoryLockedError),
  EncryptionError: entry(EncryptionError),
  RecallBusyError: entry(RecallBusyError),
})

type Row = (typeof CATALOGUE)[keyof typeof CATALOGUE]
/** Every data field a row names. */
type DataField = Row['fields'][number]
/** The type of `Field` on the classes whose row names it. */
type FieldType<Field extends string> = Row extends infer R
  ? R extends { of: abstract new (...args: never[]) => infer E; fields: readonly (infer F)[] }
    ? Field extends F
      ? E[Field & keyof E]
      : never
    : never
  : never

/**
 * An error as it crosses a worker boundary: plain data, so every field survives the structured
 * clone. Fields a class does not have are left out; the optional ones are the catalogue's data
 * fields ({@link InvalidInputError.field}, {@link MemoryNotFoundError.id}, …).
 *
 * @example
 * errorToData(new ImportFormatError(3, 'expected a JSON object'))
 * // => { name: 'ImportFormatError', message: 'line 3: expected a JSON object', stack: '…',
 * //      code: 'IMPORT_FORMAT', line: 3 }
 */
export type ErrorData = {
  name: string
  message: string
  stack?: string
  code?: string
} & { -readonly [Field in DataField]?: FieldType<Field> }

/** The names {@link reviveError} rebuilds as their own class. */
export const ERROR_NAMES: readonly string[] = Object.freeze(Object.keys(CATALOGUE))

function rowOf(name: string): Row | undefined {
  return Object.hasOwn(CATALOGUE, name) ? CATALOGUE[name as keyof typeof CATALOGUE] : undefined
}

/** Turns an error into {@link ErrorData}; {@link reviveError} turns it back. */
export function errorToData(error: Error): ErrorData {
  const data: ErrorData = { name: error.name, message: error.message }
  if (typeof error.stack === 'string') data.stack = error.stack
  if (error instanceof EngramError) {
    const fields = error as unknown as Record<string, unknown>
    for (const key of ['code', ...(rowOf(error.name)?.fields ?? [])]) {
      const value = fields[key]
      if (value !== undefined)
        Object.assign(data, { [key]: Array.isArray(value) ? [...value] : value })
    }
  }
  return data
}

/**
 * Rebuilds an error from the {@link ErrorData} that crossed a boundary: a catalogue class by
 * `name` with all its fields, any other name as a plain `Error` carrying that name. Anything
 * that is not error data (an `Error` raised on this side, a thrown string) comes back as it is.
 */
export function reviveError(thrown: unknown): unknown {
  if (!isErrorData(thrown)) return thrown
  const row = rowOf(thrown.name)
  // A real Error of the class, without running its constructor: the fields come from the data.
  const error: Error = Reflect.construct(Error, [thrown.message], row?.of ?? Error)
  error.name = thrown.name
  if (row) {
    const data = thrown as Record<string, unknown>
    for (const key of ['code', ...row.fields]) {
      if (data[key] !== undefined) Object.assign(error, { [key]: data[key] })
    }
  }
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
