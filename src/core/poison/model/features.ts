/**
 * The learned stage's features: hashed word unigrams and bigrams and character 3- to 5-grams of
 * the folded text (the same fold the rules read: case, marks, look-alikes, markup). A text
 * becomes a sparse vector of bucket counts, scaled to unit length so a long text and a short one
 * weigh alike. Pure and platform-independent: FNV-1a over code units, integer counts.
 */
import { fold, type Layer, squeeze } from '../normalise.ts'
import { FNV_OFFSET, fnv1a, fnvStep } from './hash.ts'

/** Hash buckets: 2^18, so the weights are 256 KiB of int8. */
export const FEATURE_BITS = 18
export const FEATURE_BUCKETS = 1 << FEATURE_BITS
const MASK = FEATURE_BUCKETS - 1
const CHAR_MIN = 3
const CHAR_MAX = 5
const WORD = /[\p{L}\p{N}]+/gu
const FORMAT = /\p{Cf}/gu
const SPACE = /\s+/g
const CHAR_SEED = fnvStep(FNV_OFFSET, 0x63)

/** A text as the model reads it: distinct buckets, their counts, and `Σ count²`. */
export interface Features {
  buckets: Int32Array
  counts: Int32Array
  norm2: number
  /** The word n-gram behind each word bucket, when asked for (explanations only). */
  words?: Map<number, string>
}

/**
 * The form the features are cut from: one reading of the rules (folded, split words joined),
 * format characters dropped, spaces collapsed. Training and scoring both read texts this way.
 */
export function readingOf(layer: Layer): string {
  return (squeeze(layer) ?? layer).norm.replace(FORMAT, '').replace(SPACE, ' ').trim()
}

/** {@link readingOf} a raw text. */
export function readable(text: string): string {
  return readingOf(fold(text))
}

// One scratch table for the whole module: featurising is synchronous and single-threaded.
const scratch = new Int32Array(FEATURE_BUCKETS)

/** The features of an already {@link readable} string. */
export function featuresOf(read: string, explain = false): Features {
  const touched: number[] = []
  const bump = (bucket: number) => {
    if (scratch[bucket] === 0) touched.push(bucket)
    scratch[bucket] = (scratch[bucket] ?? 0) + 1
  }
  const words = explain ? new Map<number, string>() : undefined
  const tokens = read.match(WORD) ?? []
  let previous = ''
  for (const token of tokens) {
    const one = fnv1a(token, 'w') & MASK
    bump(one)
    words?.set(one, token)
    if (previous) {
      const two = fnv1a(`${previous} ${token}`, 'b') & MASK
      bump(two)
      words?.set(two, `${previous} ${token}`)
    }
    previous = token
  }
  const padded = ` ${read} `
  for (let i = 0; i + CHAR_MIN <= padded.length; i++) {
    let hash = CHAR_SEED
    for (let n = 0; n < CHAR_MAX && i + n < padded.length; n++) {
      hash = fnvStep(hash, padded.charCodeAt(i + n))
      if (n + 1 >= CHAR_MIN) bump((hash ^ (n + 1)) & MASK)
    }
  }
  touched.sort((a, b) => a - b)
  const buckets = Int32Array.from(touched)
  const counts = new Int32Array(buckets.length)
  let norm2 = 0
  for (let k = 0; k < buckets.length; k++) {
    const bucket = buckets[k] as number
    const count = scratch[bucket] as number
    counts[k] = count
    norm2 += count * count
    scratch[bucket] = 0
  }
  return words ? { buckets, counts, norm2, words } : { buckets, counts, norm2 }
}
