import { describe, expect, it } from 'vitest'
import {
  EmbedderUnavailableError,
  EncryptionError,
  EngramError,
  ERROR_NAMES,
  errorToData,
  ImportFormatError,
  InvalidInputError,
  MemoryClosedError,
  MemoryNotFoundError,
  RecallBusyError,
  RejectedMemoryError,
  reviveError,
  StorageError,
  SyncKeycheckError,
  SyncStateError,
} from '../../../src/core/errors.ts'

describe('errors as data (one structured clone)', () => {
  it('keeps an id with quotes and a colon intact, where the old message parsing corrupted it', () => {
    const id = 'say "hi": now'
    const revived = reviveError(structuredClone(errorToData(new MemoryNotFoundError(id))))
    expect(revived).toMatchObject({ code: 'NOT_FOUND', id })
  })

  it('sends the rules as a copy, not the live array', () => {
    const rules = ['exfiltration']
    const data = errorToData(new RejectedMemoryError(rules))
    rules.push('later')
    expect(data.rules).toEqual(['exfiltration'])
  })

  it('messages read as sentences, with no [CODE] prefix: code, field and detail are fields', () => {
    expect(new MemoryNotFoundError('x').message).toBe('no memory with id "x"')
    expect(new ImportFormatError(3, 'bad').message).toBe('line 3: bad')
    const invalid = new InvalidInputError('EMPTY_TEXT', 'text', 'expected text, got ""')
    expect(invalid).toMatchObject({
      code: 'EMPTY_TEXT',
      field: 'text',
      detail: 'expected text, got ""',
      message: 'expected text, got "" (text)',
    })
    expect(new InvalidInputError('BAD_OPTION', '', 'expected options').message).toBe(
      'expected options',
    )
    const sealed = new EncryptionError('WRONG_KEY', 'the passphrase does not open this memory')
    expect(sealed).toMatchObject({
      code: 'WRONG_KEY',
      message: 'the passphrase does not open this memory',
    })
    const keycheck = new SyncKeycheckError('KEYCHECK_MISSING', 'the key check is gone')
    expect(keycheck).toMatchObject({ code: 'KEYCHECK_MISSING', message: 'the key check is gone' })
  })

  it('gives each class of one constructor shape its name, code and default message', () => {
    const closed = new MemoryClosedError()
    expect(closed).toBeInstanceOf(EngramError)
    expect(closed).toMatchObject({
      name: 'MemoryClosedError',
      code: 'CLOSED',
      message: 'the memory is closed',
    })
    const cause = new Error('disk')
    expect(new StorageError('the write failed', { cause })).toMatchObject({
      name: 'StorageError',
      code: 'STORAGE',
      message: 'the write failed',
      cause,
    })
    expect(new SyncStateError('SYNC_RUNNING', 'stop it first')).toMatchObject({
      name: 'SyncStateError',
      code: 'SYNC_RUNNING',
    })
  })

  it('lists every catalogue class in ERROR_NAMES and revives each by name with its data fields', () => {
    expect(ERROR_NAMES).toContain('InvalidInputError')
    expect(ERROR_NAMES).toContain('EmbedderUnavailableError')
    const failed = new EmbedderUnavailableError('could not load m: 404', {
      failure: { reason: 'not-found', file: '/models/m/onnx/model.onnx' },
    })
    const data = errorToData(failed)
    expect(data).toMatchObject({
      name: 'EmbedderUnavailableError',
      code: 'EMBEDDER_UNAVAILABLE',
      reason: 'not-found',
      file: '/models/m/onnx/model.onnx',
    })
    const revived = reviveError(structuredClone(data))
    expect(revived).toBeInstanceOf(EmbedderUnavailableError)
    expect(revived).toMatchObject({ reason: 'not-found', file: '/models/m/onnx/model.onnx' })
    const invalid = reviveError(
      structuredClone(errorToData(new InvalidInputError('BAD_ID', 'id', 'expected an id'))),
    )
    expect(invalid).toBeInstanceOf(InvalidInputError)
    expect(invalid).toMatchObject({ code: 'BAD_ID', field: 'id', detail: 'expected an id' })
  })

  it('leaves out the data fields a class does not have', () => {
    expect(Object.keys(errorToData(new RecallBusyError())).sort()).toEqual([
      'code',
      'message',
      'name',
      'stack',
    ])
  })

  it('rebuilds an error outside the catalogue as an Error with its name and message', () => {
    const revived = reviveError(structuredClone(errorToData(new RangeError('k out of range'))))
    expect(revived).toBeInstanceOf(Error)
    expect(revived).not.toBeInstanceOf(EngramError)
    expect(revived).toMatchObject({ name: 'RangeError', message: 'k out of range' })
  })

  it('leaves what is not error data as it is', () => {
    const local = new TypeError('raised on this side')
    expect(reviveError(local)).toBe(local)
    expect(reviveError('a thrown string')).toBe('a thrown string')
    expect(reviveError(undefined)).toBeUndefined()
    const notData = { name: 'InvalidInputError' }
    expect(reviveError(notData)).toBe(notData)
  })

  it('does not mistake a name inherited from Object.prototype for a class', () => {
    const revived = reviveError({ name: 'toString', message: 'odd' })
    expect(revived).toBeInstanceOf(Error)
    expect(revived).toMatchObject({ name: 'toString', message: 'odd' })
  })
})
