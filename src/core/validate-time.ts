/** Checks of instants: epoch milliseconds, ISO 8601 strings, a memory's interval of happening. */

import { describe } from './check-options.ts'
import { InvalidInputError } from './errors.ts'

/** Latest instant a `Date` can hold: ±8.64e15 ms around the epoch. */
const MAX_TIME = 8.64e15

/**
 * Validates an instant in epoch milliseconds (`expiresAt`, `createdAt`): a finite number a
 * `Date` can hold.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 * @example
 * validateTime(Date.UTC(2026, 0, 1), 'expiresAt')
 * // => 1767225600000
 */
export function validateTime(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > MAX_TIME) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected epoch milliseconds (a finite number within ±8.64e15), got ${describe(value)}`,
    )
  }
  return value
}

// YYYY-MM-DD, then optionally Thh:mm[:ss[.fff]] and a zone (Z or ±hh[:]mm).
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i

/**
 * Validates an instant given as epoch milliseconds or an ISO 8601 date (`'2023-05-01'`, UTC
 * midnight) or date-time (`'2023-05-01T09:30:00+02:00'`; without a zone it is UTC, never the
 * machine's zone, so one call means the same everywhere). Returns epoch milliseconds.
 *
 * @throws InvalidInputError `BAD_OPTION` for anything else, a day that does not exist included.
 * @example
 * validateInstant('2023-05-01', 'since')
 * // => 1682899200000
 */
export function validateInstant(value: unknown, field: string): number {
  if (typeof value !== 'string') return validateTime(value, field)
  const m = ISO_INSTANT.exec(value.trim())
  const bad = () =>
    new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected epoch milliseconds or an ISO 8601 date or date-time ('2023-05-01', '2023-05-01T09:30Z'), got ${describe(value)}`,
    )
  if (!m) throw bad()
  const [y, mo, d, h = '0', mi = '0', sec = '0', ms = '0'] = m.slice(1, 8).map((p) => p ?? '0')
  const parts = [y, mo, d, h, mi, sec].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const at = Date.UTC(
    parts[0],
    parts[1] - 1,
    parts[2],
    parts[3],
    parts[4],
    parts[5],
    Number(ms.padEnd(3, '0')),
  )
  const date = new Date(at)
  // Date.UTC rolls 31 April over to 1 May; a day or an hour that does not exist is refused.
  if (date.getUTCMonth() !== parts[1] - 1 || date.getUTCDate() !== parts[2]) throw bad()
  if (parts[3] > 23 || parts[4] > 59 || parts[5] > 59) throw bad()
  const zone = m[8]
  if (zone === undefined || zone.toUpperCase() === 'Z') return at
  const digits = zone.replace(':', '')
  const offset = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))
  if (offset > 18 * 60) throw bad()
  return at - (digits[0] === '-' ? -offset : offset) * 60_000
}

/**
 * Checks a memory's interval of happening: `happenedUntil` needs `happenedAt`, and may not come
 * before it. `where` prefixes the field named in the error (`items[2].`, `patch.`).
 *
 * @throws InvalidInputError `BAD_OPTION` at `happenedUntil`.
 * @example
 * validateHappened(Date.UTC(2023, 4, 2), Date.UTC(2023, 4, 1), 'patch.')
 * // => throws InvalidInputError { field: 'patch.happenedUntil' }
 */
export function validateHappened(
  happenedAt: number | undefined,
  happenedUntil: number | undefined,
  where = '',
): void {
  if (happenedUntil === undefined) return
  if (happenedAt === undefined) {
    throw new InvalidInputError(
      'BAD_OPTION',
      `${where}happenedUntil`,
      'expected happenedAt with happenedUntil (an interval needs its start), got happenedUntil alone',
    )
  }
  if (happenedUntil < happenedAt) {
    throw new InvalidInputError(
      'BAD_OPTION',
      `${where}happenedUntil`,
      `expected an instant at or after happenedAt (${happenedAt}), got ${happenedUntil}`,
    )
  }
}
