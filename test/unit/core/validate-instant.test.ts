import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors.ts'
import { validateHappened, validateInstant } from '../../../src/core/validate.ts'

describe('validateInstant', () => {
  it('reads epoch milliseconds, ISO dates at UTC midnight and date-times in their zone', () => {
    expect(validateInstant(1_682_899_200_000, 'since')).toBe(Date.UTC(2023, 4, 1))
    expect(validateInstant('2023-05-01', 'since')).toBe(Date.UTC(2023, 4, 1))
    expect(validateInstant('2023-05-01T09:30Z', 'since')).toBe(Date.UTC(2023, 4, 1, 9, 30))
    expect(validateInstant('2023-05-01T09:30:00+02:00', 'since')).toBe(Date.UTC(2023, 4, 1, 7, 30))
    expect(validateInstant('2023-05-01T09:30:00-0130', 'since')).toBe(Date.UTC(2023, 4, 1, 11))
    expect(validateInstant('2023-05-01T09:30:01.5', 'since')).toBe(
      Date.UTC(2023, 4, 1, 9, 30, 1, 500),
    )
  })

  it('refuses days and hours that do not exist, other formats and other types, naming the field', () => {
    for (const bad of ['2023-04-31', '2023-13-01', '2023-05-01T24:00', 'May 2023', '', null, {}]) {
      const error = (() => {
        try {
          validateInstant(bad, 'until')
        } catch (x) {
          return x
        }
      })()
      expect(error, String(bad)).toBeInstanceOf(InvalidInputError)
      expect((error as InvalidInputError).field).toBe('until')
    }
  })
})

describe('validateHappened', () => {
  it('accepts an instant, an interval and an instant interval, and refuses an end alone or first', () => {
    expect(() => validateHappened(5, undefined)).not.toThrow()
    expect(() => validateHappened(5, 9)).not.toThrow()
    expect(() => validateHappened(5, 5)).not.toThrow()
    expect(() => validateHappened(undefined, 5, 'items[0].')).toThrow(
      /happenedAt with happenedUntil/,
    )
    expect(() => validateHappened(6, 5, 'patch.')).toThrow(InvalidInputError)
  })
})
