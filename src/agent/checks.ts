/**
 * Checks of the host's options (not the model's arguments, which `json-schema.ts` checks): the
 * core checks (`core/check-options.ts`), in the argument order the agent's callers use. Each
 * throws `InvalidInputError` `BAD_OPTION` naming the option, `expected …, got …`.
 */
import { integerIn, nonEmptyString, numberIn, oneOf as oneOfList } from '../core/check-options.ts'

export { integerIn as integer, nonEmptyString as nonEmpty }

/** A finite number from `min` to `max`, or the bound itself where that is infinite (no budget). */
export function number(value: unknown, field: string, min: number, max: number): number {
  if (value === max) return max
  return numberIn(value, field, min, max)
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  return oneOfList(value, allowed, field)
}
