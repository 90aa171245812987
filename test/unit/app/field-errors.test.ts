import { describe, expect, it } from 'vitest'
import { describeError } from '../../../src/app/field-errors.ts'
import {
  EncryptionError,
  errorToData,
  ImportFormatError,
  InvalidInputError,
  reviveError,
} from '../../../src/core/errors.ts'

describe('describeError', () => {
  it("shows an input error's detail, without its field or code, as a sentence", () => {
    const error = new InvalidInputError('BAD_OPTION', 'tags[2]', 'expected a tag, got ""')
    expect(describeError(error)).toBe('Expected a tag, got ""')
  })

  it('reads the same from an error revived from its data', () => {
    const sent = new InvalidInputError('EMPTY_TEXT', 'text', 'expected text, got nothing')
    expect(describeError(reviveError(structuredClone(errorToData(sent))))).toBe(
      'Expected text, got nothing',
    )
  })

  it("gives an import error's line and detail", () => {
    expect(describeError(new ImportFormatError(4, 'not valid JSON'))).toBe(
      'Line 4: not valid JSON. Nothing from that batch was stored.',
    )
  })

  it('shows a coded error without a [CODE] prefix', () => {
    const error = new EncryptionError('WRONG_KEY', 'the passphrase does not open this memory')
    expect(describeError(error)).toBe('The passphrase does not open this memory')
  })
})
