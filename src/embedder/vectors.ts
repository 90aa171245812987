/** What both model embedders do with a model's output: rows made unit length, inputs in batches. */

import { EmbedderUnavailableError } from '../core/errors.ts'

/** Copies one row out of an output tensor and rescales it to exactly unit length in float32. */
export function unitRow(
  data: ArrayLike<number>,
  offset: number,
  dims: number,
  index: number,
): Float32Array {
  let sum = 0
  for (let j = 0; j < dims; j++) {
    const x = data[offset + j]!
    sum += x * x
  }
  const norm = Math.sqrt(sum)
  if (!Number.isFinite(norm) || norm === 0) {
    throw new EmbedderUnavailableError(
      `the model produced a zero or non-finite vector for text ${index}`,
    )
  }
  const v = new Float32Array(dims)
  for (let j = 0; j < dims; j++) v[j] = data[offset + j]! / norm
  return v
}

/** `items` in consecutive slices of at most `size`, each with the index of its first item. */
export function* batches<T>(items: readonly T[], size: number): Generator<[T[], number]> {
  for (let start = 0; start < items.length; start += size) {
    yield [items.slice(start, start + size), start]
  }
}
