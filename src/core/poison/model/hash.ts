/**
 * FNV-1a, 32-bit, over UTF-16 code units: the feature hash of the learned stage. Written out
 * with `Math.imul` so every JavaScript engine computes the same bucket for the same text, which
 * is what lets committed weights score a text identically on every platform.
 */

const OFFSET = 0x811c9dc5
const PRIME = 0x01000193

/** Continues an FNV-1a hash with one code unit. */
export function fnvStep(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, PRIME) >>> 0
}

/**
 * The hash of `text` after `seed` (a one-letter kind, so a word and a character n-gram that
 * spell the same never share a hash on purpose).
 *
 * @example
 * fnv1a('a')
 * // => 3826002220
 */
export function fnv1a(text: string, seed = ''): number {
  let hash = OFFSET
  for (let i = 0; i < seed.length; i++) hash = fnvStep(hash, seed.charCodeAt(i))
  for (let i = 0; i < text.length; i++) hash = fnvStep(hash, text.charCodeAt(i))
  return hash
}

export const FNV_OFFSET = OFFSET
