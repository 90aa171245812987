/** The vector a caller brings: checked and normalised before it meets the index. */
import { describe } from './check-options.ts'
import { InvalidInputError } from './errors.ts'

/** How far from 1 a norm may be before the vector is rescaled. */
const NORM_TOLERANCE = 1e-3

/**
 * Validates a vector and returns a unit-length `Float32Array` copy: `dims` long, every entry
 * finite, norm not zero. A vector already within 1e-3 of unit length is copied unchanged.
 *
 * @throws InvalidInputError `BAD_VECTOR`.
 * @example
 * validateVector([3, 4], 2)
 * // => Float32Array [0.6, 0.8]
 */
export function validateVector(vector: unknown, dims: number, field = 'vector'): Float32Array {
  const copy = toFloat32(vector, field)
  if (copy.length !== dims)
    throw new InvalidInputError(
      'BAD_VECTOR',
      field,
      `expected ${dims} dimensions, got ${copy.length}`,
    )
  let sum = 0
  for (let i = 0; i < copy.length; i++) {
    const value = copy[i]!
    if (!Number.isFinite(value))
      throw new InvalidInputError(
        'BAD_VECTOR',
        field,
        `expected finite numbers, got ${value} at index ${i}`,
      )
    sum += value * value
  }
  const norm = Math.sqrt(sum)
  if (norm === 0)
    throw new InvalidInputError('BAD_VECTOR', field, 'expected a non-zero vector, got norm 0')
  if (Math.abs(norm - 1) > NORM_TOLERANCE) {
    for (let i = 0; i < copy.length; i++) copy[i] = copy[i]! / norm
  }
  return copy
}

function toFloat32(vector: unknown, field: string): Float32Array {
  if (vector instanceof Float32Array) return vector.slice()
  if (Array.isArray(vector) && vector.every((value) => typeof value === 'number')) {
    return Float32Array.from(vector as number[])
  }
  throw new InvalidInputError(
    'BAD_VECTOR',
    field,
    `expected a Float32Array or an array of numbers, got ${describe(vector)}`,
  )
}
