/**
 * Checks of the host's options (not the model's arguments, which `json-schema.ts` checks): each
 * throws `InvalidInputError` `BAD_OPTION` naming the option, saying what was expected and got.
 */
import { InvalidInputError } from '../core/errors.ts'

export function integer(value: unknown, field: string, min: number, max: number): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected an integer ${min}..${max}, got ${String(value)}`,
    )
  }
  return value as number
}

export function number(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !(value >= min && value <= max)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a number ${min}..${max}, got ${String(value)}`,
    )
  }
  return value
}

export function nonEmpty(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected a non-empty string, got ${JSON.stringify(value)}`,
    )
  }
  return value
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      field,
      `expected one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${JSON.stringify(value)}`,
    )
  }
  return value as T
}
