/**
 * Errors over a real MessageChannel, the way the worker sends them: the far side simply throws
 * behind `Comlink.expose`, and the one `'throw'` transfer handler (`sendErrorsAsData`, which
 * the host and the client's `watchEndpoint` register) carries them as data and rebuilds the
 * class by name on the near side.
 */
import * as Comlink from 'comlink'
import { afterEach, describe, expect, it } from 'vitest'
import { watchEndpoint } from '../../../src/client/endpoint-watch.ts'
import {
  AccessDeniedError,
  EmbedderUnavailableError,
  EncryptionError,
  EngramError,
  ERROR_NAMES,
  ImportFormatError,
  InvalidInputError,
  MemoryClosedError,
  MemoryLockedError,
  MemoryNotFoundError,
  RecallBusyError,
  RejectedMemoryError,
  StorageError,
  StorageFullError,
  SyncKeycheckError,
  SyncKeyError,
  SyncServerError,
  SyncStateError,
  WorkerTerminatedError,
} from '../../../src/core/errors.ts'
import { errorsAsData, sendErrorsAsData } from '../../../src/host/errors-as-data.ts'

/** One of each catalogue class, with awkward values: quotes, colons, `: ` inside fields. */
const EXAMPLES: EngramError[] = [
  new InvalidInputError('BAD_OPTION', 'meta["a: b"]', 'expected plain data, got "x": y'),
  new MemoryNotFoundError('say "hi": now'),
  new RejectedMemoryError(['instruction-override', 'exfiltration'], 'items[2]: text matched'),
  new StorageError('the write failed: "AbortError"'),
  new StorageFullError(),
  new MemoryClosedError('another tab upgraded the database'),
  new EmbedderUnavailableError('model "x/y" could not load: 404', {
    failure: { reason: 'not-found', file: 'https://a.example/x/y/onnx/model.onnx' },
  }),
  new WorkerTerminatedError('the memory worker failed: out of memory'),
  new ImportFormatError(7, 'line 3: looks like a line number but is the message'),
  new AccessDeniedError('https://a.example:8443', 'https://a.example:8443 was "denied": revoked'),
  new SyncKeyError(),
  new SyncKeycheckError('KEYCHECK_REPLACED', 'the server\'s key check is not the one pinned: "x"'),
  new SyncServerError('could not reach "http://127.0.0.1:1/db": refused'),
  new SyncStateError('SYNC_RUNNING', 'a sync of "notes" runs: stop it first'),
  new MemoryLockedError(),
  new EncryptionError('WRONG_KEY', 'the passphrase or key does not open this memory'),
  new RecallBusyError('too many recalls at once: expected at most 4 running and 256 waiting'),
]

/** Every own field of an error but its stack: what must survive the trip. */
function fields(error: Error): Record<string, unknown> {
  const own = Object.fromEntries(
    Object.getOwnPropertyNames(error).map((key) => [key, (error as never)[key]]),
  )
  delete own.stack
  return { ...own, name: error.name, message: error.message }
}

interface Thrower {
  fail(index: number): Promise<void>
  failWith(value: unknown): Promise<void>
}

const ports: MessagePort[] = []
afterEach(() => {
  for (const port of ports.splice(0)) port.close()
})

function connect() {
  const { port1, port2 } = new MessageChannel()
  ports.push(port1, port2)
  const far: Thrower = {
    fail: async (index) => {
      throw EXAMPLES[index]
    },
    failWith: async (value) => {
      throw value
    },
  }
  sendErrorsAsData()
  Comlink.expose(far, port1)
  const remote = Comlink.wrap<Thrower>(port2)
  const link = watchEndpoint(port2, () => {})
  return { remote, link }
}

describe('errors crossing a MessageChannel as data', () => {
  it('has an example for every class the client rebuilds', () => {
    expect(EXAMPLES.map((e) => e.name).sort()).toEqual([...ERROR_NAMES].sort())
  })

  it.each(EXAMPLES.map((e, i) => [e.name, i] as const))(
    '%s arrives as its own class with every field',
    async (_name, index) => {
      const { remote, link } = connect()
      const error = await link.guard(remote.fail(index)).catch((e: unknown) => e)
      const sent = EXAMPLES[index]!
      expect(error).toBeInstanceOf(sent.constructor)
      expect(error).toBeInstanceOf(EngramError)
      expect(fields(error as Error)).toEqual(fields(sent))
      expect((error as Error).stack).toBe(sent.stack)
    },
  )

  it('keeps an id with quotes and a colon intact (regression: the message regex cut it)', async () => {
    const { remote, link } = connect()
    const error = await link.guard(remote.fail(1)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MemoryNotFoundError)
    expect((error as MemoryNotFoundError).id).toBe('say "hi": now')
  })

  it('rebuilds an error outside the catalogue with its name, and leaves a thrown string alone', async () => {
    const { remote, link } = connect()
    const range = await link
      .guard(remote.failWith(new RangeError('k out of range')))
      .catch((e: unknown) => e)
    expect(range).toBeInstanceOf(Error)
    expect(range).toMatchObject({ name: 'RangeError', message: 'k out of range' })
    const text = await link.guard(remote.failWith('plain words')).catch((e: unknown) => e)
    expect(text).toBe('plain words')
  })

  it('rebuilds each class without the guard too: the handler, not a wrapper, does it', async () => {
    const { remote } = connect()
    for (const [index, sent] of EXAMPLES.entries()) {
      const error = await remote.fail(index).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(sent.constructor)
      expect(error).toMatchObject({ name: sent.name, code: sent.code, message: sent.message })
    }
  })

  it('carries the code, field and detail of an InvalidInputError, and the message without a [CODE] prefix', async () => {
    const { remote } = connect()
    const error = await remote.fail(0).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toMatchObject({
      code: 'BAD_OPTION',
      field: 'meta["a: b"]',
      detail: 'expected plain data, got "x": y',
      message: 'expected plain data, got "x": y (meta["a: b"])',
    })
  })

  it('carries why a model failed to load as data', async () => {
    const { remote } = connect()
    const error = await remote.fail(6).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    expect(error).toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      reason: 'not-found',
      file: 'https://a.example/x/y/onnx/model.onnx',
    })
  })

  it('rebuilds a thrown TypeError as an Error with its name, message and stack', async () => {
    const { remote } = connect()
    const sent = new TypeError('cannot read "x" of undefined')
    const error = await remote.failWith(sent).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ name: 'TypeError', message: 'cannot read "x" of undefined' })
    expect((error as Error).stack).toBe(sent.stack)
  })

  it('is registered once: a second registration keeps the same handler', () => {
    sendErrorsAsData()
    sendErrorsAsData()
    expect(Comlink.transferHandlers.get('throw')).toBe(errorsAsData)
  })

  it("sends Comlink's own wire shape, so an end without the handler still reads name and message", () => {
    const [wire] = errorsAsData.serialize({ value: new RecallBusyError() })
    expect(wire).toMatchObject({
      isError: true,
      value: { name: 'RecallBusyError', code: 'RECALL_BUSY', message: expect.any(String) },
    })
    expect(() => errorsAsData.deserialize(wire)).toThrow(RecallBusyError)
  })
})
