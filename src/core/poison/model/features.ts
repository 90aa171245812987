/**
 * The learned stage's features: hashed word unigrams and bigrams and character 3- to 5-grams of
 * the folded text (the same fold the rules read: case, marks, look-alikes, markup). A text
 * becomes a sparse vector of bucket counts, divided by the square root of how many there are so
 * a long text and a short one weigh alike (for distinct features, unit length). Pure and platform-independent: FNV-1a over code units, integer counts.
 */
import { fold, type Layer, squeeze } from '../normalise.ts'
import { FNV_OFFSET, fnvStep } from './hash.ts'
import { ROLE, ROLE_COUNT, rolesOf } from './roles.ts'

/**
 * Hash buckets: 2^16, so the weights are 64 KiB of int8. Small enough to stay in a core's cache
 * while the rules run beside it: at 2^18 the misses cost more than the sums.
 */
export const FEATURE_BITS = 16
export const FEATURE_BUCKETS = 1 << FEATURE_BITS
const MASK = FEATURE_BUCKETS - 1
const CHAR_MIN = 3
const CHAR_MAX = 5
const WORD = /[\p{L}\p{N}]+/gu
const FORMAT = /\p{Cf}/gu
const SPACE = /\s+/g
const CHAR_SEED = fnvStep(FNV_OFFSET, 0x63)

/** A text as the model reads it: distinct buckets, their counts, and `Σ count`. */
export interface Features {
  buckets: Int32Array
  counts: Int32Array
  /** How many feature occurrences the text holds: the normaliser is its square root. */
  total: number
  /** The word n-gram behind each word bucket, when asked for (explanations only). */
  words?: Map<number, string>
}

/**
 * The form the features are cut from: one reading of the rules (folded, split words joined),
 * format characters dropped, spaces collapsed. Training and scoring both read texts this way.
 * `squeezed` is `squeeze(layer)` when the caller has it already.
 */
export function readingOf(layer: Layer, squeezed: Layer | null = squeeze(layer)): string {
  return (squeezed ?? layer).norm.replace(FORMAT, '').replace(SPACE, ' ').trim()
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

/** Role features count this many times over, so a few of them are not drowned by the n-grams. */
const ROLE_WEIGHT = 4
/** Whether the gap between two words holds punctuation that ends a sentence, or a colon. */
function breaksBetween(read: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = read.charCodeAt(i)
    // . ! ? : ; and the CJK full stop, exclamation and question marks.
    if (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3a || c === 0x3b) return true
    if (c === 0x3002 || c === 0xff01 || c === 0xff1f) return true
  }
  return false
}
const ROLE_SEED = fnvStep(FNV_OFFSET, 0x72)
const ROLE_PAIR_SEED = fnvStep(FNV_OFFSET, 0x71)
const WORD_ROLE_SEED = fnvStep(FNV_OFFSET, 0x6c)
const ROLE_WORD_SEED = fnvStep(FNV_OFFSET, 0x6d)
const SENTENCE_SEED = fnvStep(FNV_OFFSET, 0x73)

type Bump = (bucket: number) => void

function bumpTimes(bump: Bump, bucket: number): void {
  for (let i = 0; i < ROLE_WEIGHT; i++) bump(bucket)
}

/**
 * A word's roles ({@link rolesOf}) as features: each role, each role next to the previous word
 * or its roles, and the previous role next to this word ("in ‹your›", "‹your› ‹reply›").
 */
function bumpRoles(bump: Bump, roles: number, before: number, previous: string, word: string) {
  for (let r = 0; r < ROLE_COUNT; r++) {
    if ((before & (1 << r)) !== 0) {
      bumpTimes(bump, fnvStep(hashOn(ROLE_WORD_SEED, word), 0x30 + r) & MASK)
    }
    if ((roles & (1 << r)) === 0) continue
    bumpTimes(bump, fnvStep(ROLE_SEED, 0x30 + r) & MASK)
    if (previous) bumpTimes(bump, fnvStep(hashOn(WORD_ROLE_SEED, previous), 0x30 + r) & MASK)
    for (let q = 0; q < ROLE_COUNT; q++) {
      if ((before & (1 << q)) !== 0) {
        bumpTimes(bump, fnvStep(fnvStep(ROLE_PAIR_SEED, 0x30 + q), 0x30 + r) & MASK)
      }
    }
  }
}

/**
 * One sentence's roles as features: each pair of roles it holds, and each role beside whether
 * the sentence opens with an imperative ("Add … to your reply" holds both ‹your› and ‹reply›,
 * and opens with one).
 */
function bumpSentence(bump: Bump, roles: number, imperative: boolean): void {
  const opens = imperative ? 0x31 : 0x30
  for (let a = 0; a < ROLE_COUNT; a++) {
    if ((roles & (1 << a)) === 0) continue
    bumpTimes(bump, fnvStep(fnvStep(SENTENCE_SEED, opens), 0x40 + a) & MASK)
    for (let b = a + 1; b < ROLE_COUNT; b++) {
      if ((roles & (1 << b)) !== 0) {
        bumpTimes(bump, fnvStep(fnvStep(fnvStep(SENTENCE_SEED, 0x32), 0x40 + a), 0x40 + b) & MASK)
      }
    }
  }
}

/** Continues `hash` with every code unit of `text`. */
function hashOn(hash: number, text: string): number {
  let h = hash
  for (let i = 0; i < text.length; i++) h = fnvStep(h, text.charCodeAt(i))
  return h
}

/**
 * Every feature occurrence of an already {@link readable} string, in text order, to `bump`:
 * word unigrams and bigrams, word roles, then character n-grams. `words` collects the word
 * n-gram behind each word bucket (explanations only).
 */
function walk(read: string, bump: Bump, words?: Map<number, string>): void {
  let previous = ''
  let previousRoles = 0
  let sentence = 0
  let opensWithImperative = false
  let start = true
  let end = 0
  WORD.lastIndex = 0
  for (let m = WORD.exec(read); m; m = WORD.exec(read)) {
    const token = m[0]
    if (!start && breaksBetween(read, end, m.index)) {
      bumpSentence(bump, sentence, opensWithImperative)
      sentence = 0
      start = true
    }
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
    const roles = rolesOf(token)
    if (start) opensWithImperative = (roles & ROLE.imperative) !== 0
    if (roles !== 0 || previousRoles !== 0) bumpRoles(bump, roles, previousRoles, previous, token)
    sentence |= roles
    start = false
    previous = token
    previousRoles = roles
    end = m.index + token.length
  }
  if (previous) bumpSentence(bump, sentence, opensWithImperative)
  const padded = ` ${read} `
  for (let i = 0; i + CHAR_MIN <= padded.length; i++) {
    let hash = CHAR_SEED
    for (let k = 0; k < CHAR_MAX && i + k < padded.length; k++) {
      hash = fnvStep(hash, padded.charCodeAt(i + k))
      if (k + 1 >= CHAR_MIN) bump((hash ^ (k + 1)) & MASK)
    }
  }
}

/**
 * The features of an already {@link readable} string. Buckets come out in ascending order, so
 * training sums in one fixed order.
 */
export function featuresOf(read: string, explain = false): Features {
  let n = 0
  const bump = (bucket: number) => {
    if (scratch[bucket] === 0) touched[n++] = bucket
    scratch[bucket] = (scratch[bucket] as number) + 1
  }
  const words = explain ? new Map<number, string>() : undefined
  walk(read, bump, words)
  const buckets = touched.slice(0, n).sort()
  const counts = new Int32Array(n)
  let total = 0
  for (let k = 0; k < n; k++) {
    const bucket = buckets[k] as number
    const count = scratch[bucket] as number
    counts[k] = count
    total += count
    scratch[bucket] = 0
  }
  return words ? { buckets, counts, total, words } : { buckets, counts, total }
}

// The scorer's running sums: one pass, no table of counts, since Σ w·count is the sum of `w`
// over every occurrence and the normaliser is the number of occurrences.
let weighing: Int8Array = new Int8Array(FEATURE_BUCKETS)
let weighed = 0
let occurrences = 0
const weigh: Bump = (bucket) => {
  weighed += weighing[bucket] as number
  occurrences++
}

/**
 * `Σ w·count` and `Σ count` of a {@link readable} string's features under `weights`, without
 * building them: the scoring path. Integer sums, so the same on every platform.
 */
export function weightOf(read: string, weights: Int8Array): { sum: number; total: number } {
  weighing = weights
  weighed = 0
  occurrences = 0
  walk(read, weigh)
  return { sum: weighed, total: occurrences }
}

/** The shipped form: `logit = bias + Σ q·count / 2^shift / √Σcount`. */
export interface QuantisedModel {
  weights: Int8Array
  shift: number
  bias: number
}
