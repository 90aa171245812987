import { expectOptions, expectString, integerIn } from '../../core/check-options.ts'
import { InvalidInputError } from '../../core/errors.ts'
import type { AtRestSecret } from '../../core/types.ts'
import { DEFAULT_KDF_ITERATIONS } from './kdf.ts'

/**
 * Checks an {@link AtRestSecret}: exactly one of a non-empty `passphrase` (with optional
 * `iterations`, {@link DEFAULT_KDF_ITERATIONS}..10 000 000: the floor sync holds its passphrases
 * to) and an HKDF `key`. A test that wants a fast encrypted memory passes a `key`.
 *
 * @throws InvalidInputError `BAD_OPTION` at `field` or one of its keys.
 * @example
 * checkAtRestSecret({ passphrase: '' }, 'encryption')
 * // => throws InvalidInputError { code: 'BAD_OPTION', field: 'encryption.passphrase' }: expected a non-empty passphrase, got ''
 */
export function checkAtRestSecret(value: unknown, field: string): AtRestSecret {
  const o = expectOptions(value, field, ['passphrase', 'iterations', 'key'], `${field}.`, true)
  if ('key' in o) {
    if ('passphrase' in o || 'iterations' in o) {
      throw new InvalidInputError('BAD_OPTION', field, 'expected a passphrase or a key, got both')
    }
    const key = o.key as Partial<CryptoKey> | undefined
    if (
      typeof CryptoKey === 'undefined' ||
      !(key instanceof CryptoKey) ||
      key.algorithm?.name !== 'HKDF'
    ) {
      throw new InvalidInputError('BAD_OPTION', `${field}.key`, 'expected an HKDF CryptoKey')
    }
    return o as AtRestSecret
  }
  const passphrase = expectString(o.passphrase, `${field}.passphrase`)
  if (passphrase === '') {
    throw new InvalidInputError(
      'BAD_OPTION',
      `${field}.passphrase`,
      "expected a non-empty passphrase, got ''",
    )
  }
  if (o.iterations !== undefined) {
    integerIn(o.iterations, `${field}.iterations`, DEFAULT_KDF_ITERATIONS, 10_000_000)
  }
  return o as AtRestSecret
}
