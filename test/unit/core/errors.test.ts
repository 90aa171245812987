import { describe, expect, it } from 'vitest'
import {
  EngramError,
  errorToData,
  ImportFormatError,
  InvalidInputError,
  MemoryNotFoundError,
  RejectedMemoryError,
  reviveError,
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

  it('messages read as sentences: only InvalidInputError keeps its [CODE] field: prefix', () => {
    expect(new MemoryNotFoundError('x').message).toBe('no memory with id "x"')
    expect(new ImportFormatError(3, 'bad').message).toBe('line 3: bad')
    expect(new InvalidInputError('EMPTY_TEXT', 'text', 'expected text').message).toBe(
      '[EMPTY_TEXT] text: expected text',
    )
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
