/**
 * The learned stage's features: hashed word unigrams and bigrams and character 3- to 5-grams of
 * the folded text (the same fold the rules read: case, marks, look-alikes, markup). A text
 * becomes a sparse vector of bucket counts, scaled to unit length so a long text and a short one
 * weigh alike. Pure and platform-independent: FNV-1a over code units, integer counts.
 */
import { fold, type Layer, squeeze } from '../normalise.ts'
import { FNV_OFFSET, fnvStep } from './hash.ts'

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
const touched = new Int32Array(FEATURE_BUCKETS)
const WORD_SEED = fnvStep(FNV_OFFSET, 0x77)
const BIGRAM_SEED = fnvStep(FNV_OFFSET, 0x62)

/** Continues `hash` with every code unit of `text`. */
function hashOn(hash: number, text: string): number {
  let h = hash
  for (let i = 0; i < text.length; i++) h = fnvStep(h, text.charCodeAt(i))
  return h
}

/**
 * The features of an already {@link readable} string. Buckets come out in ascending order, so
 * training sums in one fixed order; `sorted: false` skips that for scoring, whose integer sums
 * do not depend on it.
 */
export function featuresOf(read: string, explain = false, sorted = true): Features {
  let n = 0
  const bump = (bucket: number) => {
    if (scratch[bucket] === 0) touched[n++] = bucket
    scratch[bucket] = (scratch[bucket] as number) + 1
  }
  const words = explain ? new Map<number, string>() : undefined
  const tokens = read.match(WORD) ?? []
  let previous = ''
  for (const token of tokens) {
    // Hashed a code unit at a time: the same as fnv1a(token, 'w') and
    // fnv1a(`${previous} ${token}`, 'b'), without building the strings.
    const one = hashOn(WORD_SEED, token) & MASK
    bump(one)
    words?.set(one, token)
    if (previous) {
      const two = hashOn(fnvStep(hashOn(BIGRAM_SEED, previous), 0x20), token) & MASK
      bump(two)
      words?.set(two, `${previous} ${token}`)
    }
    previous = token
  }
  const padded = ` ${read} `
  for (let i = 0; i + CHAR_MIN <= padded.length; i++) {
    let hash = CHAR_SEED
    for (let k = 0; k < CHAR_MAX && i + k < padded.length; k++) {
      hash = fnvStep(hash, padded.charCodeAt(i + k))
      if (k + 1 >= CHAR_MIN) bump((hash ^ (k + 1)) & MASK)
    }
  }
  const buckets = touched.slice(0, n)
  if (sorted) buckets.sort()
  const counts = new Int32Array(n)
  let norm2 = 0
  for (let k = 0; k < n; k++) {
    const bucket = buckets[k] as number
    const count = scratch[bucket] as number
    counts[k] = count
    norm2 += count * count
    scratch[bucket] = 0
  }
  return words ? { buckets, counts, norm2, words } : { buckets, counts, norm2 }
}

/** The shipped form: `logit = bias + Σ q·count / 2^shift / √Σcount²`. */
export interface QuantisedModel {
  weights: Int8Array
  shift: number
  bias: number
}
