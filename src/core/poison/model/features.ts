/**
 * The learned stage's features: hashed word unigrams and bigrams and character 3- to 5-grams of
 * the folded text (the same fold the rules read: case, marks, look-alikes, markup). A text
 * becomes a sparse vector of bucket counts, divided by the square root of how many there are so
 * a long text and a short one weigh alike (for distinct features, unit length). Pure and platform-independent: FNV-1a over code units, integer counts.
 */
import { fold, type Layer, squeeze } from '../normalise.ts'
import { FNV_OFFSET, fnvStep } from './hash.ts'
import { ROLE, ROLE_COUNT, ROLE_WORDS } from './roles.ts'

/**
 * Hash buckets: 2^16, so the weights are 64 KiB of int8. Small enough to stay in a core's cache
 * while the rules run beside it: at 2^18 the misses cost more than the sums.
 */
export const FEATURE_BITS = 16
export const FEATURE_BUCKETS = 1 << FEATURE_BITS
const MASK = FEATURE_BUCKETS - 1
const CHAR_MIN = 3
const CHAR_MAX = 5
const FORMAT = /\p{Cf}/gu
const SPACE = /\s+/g
const NON_ASCII = /[\u0080-\uffff]/
/** Whitespace that collapsing or trimming would change. */
const UNTIDY = /\s\s|[^\S ]|^\s|\s$/
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
  const norm = (squeezed ?? layer).norm
  // Most texts are ASCII with single spaces: then both replacements and the trim are no-ops.
  const visible = NON_ASCII.test(norm) ? norm.replace(FORMAT, '') : norm
  return UNTIDY.test(visible) ? visible.replace(SPACE, ' ').trim() : visible
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

/** Adds `times` occurrences of `bucket`. */
type Bump = (bucket: number, times: number) => void

// The buckets that depend on roles alone, worked out once: each role, each pair of a role and
// the one before it, each role of a sentence by how it opens, each pair of roles in a sentence.
const roleBucket = Int32Array.from(
  { length: ROLE_COUNT },
  (_, r) => fnvStep(ROLE_SEED, 0x30 + r) & MASK,
)
const pairBucket = Int32Array.from(
  { length: ROLE_COUNT * ROLE_COUNT },
  (_, i) =>
    fnvStep(fnvStep(ROLE_PAIR_SEED, 0x30 + Math.floor(i / ROLE_COUNT)), 0x30 + (i % ROLE_COUNT)) &
    MASK,
)
const opensBucket = Int32Array.from(
  { length: 2 * ROLE_COUNT },
  (_, i) =>
    fnvStep(fnvStep(SENTENCE_SEED, i < ROLE_COUNT ? 0x30 : 0x31), 0x40 + (i % ROLE_COUNT)) & MASK,
)
const togetherBucket = Int32Array.from(
  { length: ROLE_COUNT * ROLE_COUNT },
  (_, i) =>
    fnvStep(
      fnvStep(fnvStep(SENTENCE_SEED, 0x32), 0x40 + Math.floor(i / ROLE_COUNT)),
      0x40 + (i % ROLE_COUNT),
    ) & MASK,
)

/** Continues `hash` with the code units of `text` from `from` to `to`. */
function hashOn(hash: number, text: string, from = 0, to = text.length): number {
  let h = hash
  for (let i = from; i < to; i++) h = fnvStep(h, text.charCodeAt(i))
  return h
}

// Role words by the full hash of their unigram feature, so a word's roles are found from the
// hash the walk computes anyway, without cutting the word out of the text.
const ROLE_BY_HASH = new Map<number, { word: string; roles: number }>()
for (const [word, roles] of ROLE_WORDS) {
  const hash = hashOn(WORD_SEED, word)
  if (ROLE_BY_HASH.has(hash)) throw new Error(`role words share a hash: ${word}`)
  ROLE_BY_HASH.set(hash, { word, roles })
}

function rolesAt(hash: number, read: string, from: number, to: number): number {
  const entry = ROLE_BY_HASH.get(hash)
  return entry && entry.word.length === to - from && read.startsWith(entry.word, from)
    ? entry.roles
    : 0
}

const WORD_CHAR = /^[\p{L}\p{N}]+$/u

/** How many code units of a word character start at `i` (0: none), as `[\p{L}\p{N}]` reads. */
function wordUnits(read: string, i: number): number {
  const c = read.charCodeAt(i)
  if (c < 0x80)
    return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) ? 1 : 0
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = read.charCodeAt(i + 1)
    if (d >= 0xdc00 && d <= 0xdfff) return WORD_CHAR.test(read.slice(i, i + 2)) ? 2 : 0
    return 0
  }
  return WORD_CHAR.test(read[i] as string) ? 1 : 0
}

/**
 * A word's roles (`rolesOf`) as features: each role, each role next to the previous word
 * or its roles, and the previous role next to this word ("in ‹your›", "‹your› ‹reply›").
 * `wordHash` and `previousHash` continue the role-word and word-role seeds (-1: no previous word).
 */
function bumpRoles(
  bump: Bump,
  roles: number,
  before: number,
  previousHash: number,
  wordHash: number,
) {
  for (let r = 0; r < ROLE_COUNT; r++) {
    if ((before & (1 << r)) !== 0) bump(fnvStep(wordHash, 0x30 + r) & MASK, ROLE_WEIGHT)
    if ((roles & (1 << r)) === 0) continue
    bump(roleBucket[r] as number, ROLE_WEIGHT)
    if (previousHash >= 0) bump(fnvStep(previousHash, 0x30 + r) & MASK, ROLE_WEIGHT)
    for (let q = 0; q < ROLE_COUNT; q++) {
      if ((before & (1 << q)) !== 0) bump(pairBucket[q * ROLE_COUNT + r] as number, ROLE_WEIGHT)
    }
  }
}

/**
 * One sentence's roles as features: each pair of roles it holds, and each role beside whether
 * the sentence opens with an imperative ("Add … to your reply" holds both ‹your› and ‹reply›,
 * and opens with one).
 */
function bumpSentence(bump: Bump, roles: number, imperative: boolean): void {
  const opens = imperative ? ROLE_COUNT : 0
  for (let a = 0; a < ROLE_COUNT; a++) {
    if ((roles & (1 << a)) === 0) continue
    bump(opensBucket[opens + a] as number, ROLE_WEIGHT)
    for (let b = a + 1; b < ROLE_COUNT; b++) {
      if ((roles & (1 << b)) !== 0) bump(togetherBucket[a * ROLE_COUNT + b] as number, ROLE_WEIGHT)
    }
  }
}

/**
 * The words of an already {@link readable} string, each hashed once: `[\p{L}\p{N}]+` runs,
 * scanned and hashed a code unit at a time (the same as fnv1a(token, 'w') and
 * fnv1a(`${previous} ${token}`, 'b')) without cutting them out. The scorer reads several
 * overlapping windows of one reading: the words are hashed for the reading, not for each window.
 */
class WordRuns {
  read = ''
  count = 0
  from = new Int32Array(0)
  to = new Int32Array(0)
  /** Each word's unigram bucket. */
  unigram = new Int32Array(0)
  /** The bucket of the bigram a word ends (with the word before it in the reading). */
  bigram = new Int32Array(0)
  roles = new Int32Array(0)
  /** Whether the gap before a word ends a sentence (see {@link breaksBetween}). */
  breakBefore = new Uint8Array(0)
  /** A word's hash after the role-word seed, where the word before it has roles. */
  roleWord = new Uint32Array(0)
  /** A word's hash after the word-role seed, where the word after it has roles. */
  wordRole = new Uint32Array(0)

  /** Cuts and hashes the words of `read`, reusing the arrays when they are long enough. */
  of(read: string): this {
    this.read = read
    const most = (read.length >> 1) + 1
    if (this.from.length < most) {
      const size = Math.max(most, this.from.length * 2)
      this.from = new Int32Array(size)
      this.to = new Int32Array(size)
      this.unigram = new Int32Array(size)
      this.bigram = new Int32Array(size)
      this.roles = new Int32Array(size)
      this.breakBefore = new Uint8Array(size)
      this.roleWord = new Uint32Array(size)
      this.wordRole = new Uint32Array(size)
    }
    const n = read.length
    let j = 0
    for (let i = 0; i < n; ) {
      let step = wordUnits(read, i)
      if (step === 0) {
        i++
        continue
      }
      const from = i
      while (step > 0) {
        i += step
        step = i < n ? wordUnits(read, i) : 0
      }
      const hash = hashOn(WORD_SEED, read, from, i)
      this.from[j] = from
      this.to[j] = i
      this.unigram[j] = hash & MASK
      this.roles[j] = rolesAt(hash, read, from, i)
      this.breakBefore[j] = 0
      if (j > 0) {
        const pf = this.from[j - 1] as number
        const pt = this.to[j - 1] as number
        this.bigram[j] =
          hashOn(fnvStep(hashOn(BIGRAM_SEED, read, pf, pt), 0x20), read, from, i) & MASK
        this.breakBefore[j] = breaksBetween(read, pt, from) ? 1 : 0
        if (this.roles[j - 1] !== 0) this.roleWord[j] = hashOn(ROLE_WORD_SEED, read, from, i)
        if (this.roles[j] !== 0) this.wordRole[j - 1] = hashOn(WORD_ROLE_SEED, read, pf, pt)
      }
      j++
    }
    this.count = j
    return this
  }

  /** The first word starting at or after `at`. */
  firstFrom(at: number): number {
    let lo = 0
    let hi = this.count
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.from[mid] as number) < at) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/**
 * Every word feature of the words `first` to `end` (exclusive) of `runs`, read as a text of
 * their own, in text order, to `bump`: word unigrams and bigrams, then word roles, then each
 * sentence's roles. `words` collects the word n-gram behind each word bucket (explanations only).
 */
function walkRuns(
  runs: WordRuns,
  first: number,
  end: number,
  bump: Bump,
  words?: Map<number, string>,
): void {
  let sentence = 0
  let opensWithImperative = false
  let start = true
  for (let j = first; j < end; j++) {
    if (!start && runs.breakBefore[j] === 1) {
      bumpSentence(bump, sentence, opensWithImperative)
      sentence = 0
      start = true
    }
    const unigram = runs.unigram[j] as number
    bump(unigram, 1)
    words?.set(unigram, runs.read.slice(runs.from[j], runs.to[j]))
    if (j > first) {
      const two = runs.bigram[j] as number
      bump(two, 1)
      words?.set(
        two,
        `${runs.read.slice(runs.from[j - 1], runs.to[j - 1])} ${runs.read.slice(runs.from[j], runs.to[j])}`,
      )
    }
    const roles = runs.roles[j] as number
    const previousRoles = j > first ? (runs.roles[j - 1] as number) : 0
    if (start) opensWithImperative = (roles & ROLE.imperative) !== 0
    if (roles !== 0 || previousRoles !== 0) {
      const wordHash = previousRoles !== 0 ? (runs.roleWord[j] as number) : 0
      const previousHash = roles !== 0 && j > first ? (runs.wordRole[j - 1] as number) : -1
      bumpRoles(bump, roles, previousRoles, previousHash, wordHash)
    }
    sentence |= roles
    start = false
  }
  if (end > first) bumpSentence(bump, sentence, opensWithImperative)
}

// The words of the text being featurised or weighed whole (synchronous, single-threaded, never
// nested): most texts are short facts, which must not pay for arrays of their own.
const scratchRuns = new WordRuns()

/** Every word feature of an already {@link readable} string: {@link walkRuns} of all its words. */
function walkWords(read: string, bump: Bump, words?: Map<number, string>): void {
  const runs = scratchRuns.of(read)
  walkRuns(runs, 0, runs.count, bump, words)
}

/** The code unit at `i` of ` ${read} `, without building it. */
const paddedAt = (read: string, i: number) =>
  i === 0 || i === read.length + 1 ? 0x20 : read.charCodeAt(i - 1)

/** Every character 3- to 5-gram of ` ${read} `, to `bump`. */
function charGrams(read: string, bump: Bump): void {
  const n = read.length + 2
  for (let i = 0; i + CHAR_MIN <= n; i++) {
    let hash = CHAR_SEED
    for (let k = 0; k < CHAR_MAX && i + k < n; k++) {
      hash = fnvStep(hash, paddedAt(read, i + k))
      if (k + 1 >= CHAR_MIN) bump((hash ^ (k + 1)) & MASK, 1)
    }
  }
}

/** Every feature occurrence of an already {@link readable} string: words, roles, characters. */
function walk(read: string, bump: Bump, words?: Map<number, string>): void {
  walkWords(read, bump, words)
  charGrams(read, bump)
}

/**
 * The features of an already {@link readable} string. Buckets come out in ascending order, so
 * training sums in one fixed order.
 */
export function featuresOf(read: string, explain = false): Features {
  let n = 0
  const bump: Bump = (bucket, times) => {
    if (scratch[bucket] === 0) touched[n++] = bucket
    scratch[bucket] = (scratch[bucket] as number) + times
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
const weigh: Bump = (bucket, times) => {
  weighed += (weighing[bucket] as number) * times
  occurrences += times
}

/**
 * `Σ w·count` and `Σ count` of a {@link readable} string's features under `weights`, without
 * building them: the scoring path. Integer sums, so the same on every platform.
 */
export function weightOf(read: string, weights: Int8Array): { sum: number; total: number } {
  const words = wordWeight(read, weights)
  const chars = charWeight(read, weights)
  return { sum: words.sum + chars.sum, total: words.total + chars.total }
}

/** The word features' share of {@link weightOf}. */
function wordWeight(read: string, weights: Int8Array): { sum: number; total: number } {
  const runs = scratchRuns.of(read)
  return runsWeight(runs, 0, runs.count, weights)
}

/** Σ w·count and Σ count of the word features of words `first` to `end` of `runs`. */
function runsWeight(
  runs: WordRuns,
  first: number,
  end: number,
  weights: Int8Array,
): { sum: number; total: number } {
  weighing = weights
  weighed = 0
  occurrences = 0
  walkRuns(runs, first, end, weigh)
  return { sum: weighed, total: occurrences }
}

/** The character n-grams' share of {@link weightOf}: {@link charGrams}, summed inline. */
function charWeight(read: string, weights: Int8Array): { sum: number; total: number } {
  const n = read.length + 2
  let sum = 0
  let count = 0
  for (let i = 0; i + CHAR_MIN <= n; i++) {
    let hash = CHAR_SEED
    for (let k = 0; k < CHAR_MAX && i + k < n; k++) {
      hash = fnvStep(hash, paddedAt(read, i + k))
      if (k + 1 >= CHAR_MIN) {
        sum += weights[(hash ^ (k + 1)) & MASK] as number
        count++
      }
    }
  }
  return { sum, total: count }
}

// The one reading being weighed (see ReadingWeights): its words and prefix sums, grown as needed.
const readingRuns = new WordRuns()
let readingPrefix = Array.from({ length: CHAR_MAX - CHAR_MIN + 1 }, () => new Int32Array(0))
let readingsMade = 0

/**
 * {@link weightOf} of the windows of one reading, which overlap (each character is in about
 * three: its sentence and two strided windows): the reading's words are hashed once
 * ({@link WordRuns}) and its character n-gram weights summed once, as prefix sums a length, so a
 * window costs a walk over its words' hashes. A window whose ends are spaces or the reading's
 * ends pads to a stretch of ` ${read} `, so its n-grams are the reading's within that stretch;
 * another window is weighed on its own. The same sums as {@link weightOf} of the window's text.
 */
export class ReadingWeights {
  readonly #read: string
  readonly #weights: Int8Array
  readonly #runs: WordRuns
  /** `#prefix[k - CHAR_MIN][p]`: Σ weights of the k-grams of ` ${read} ` starting before `p`. */
  readonly #prefix: Int32Array[]
  readonly #made = ++readingsMade

  /**
   * Weighs `read` into the module's one set of reading arrays (an import screens tens of
   * thousands of readings, and arrays of their own were 250 MB of garbage for 10 MB of chats):
   * valid until the next `ReadingWeights` is made, which `scoreReading`'s one at a time allows.
   */
  constructor(read: string, weights: Int8Array) {
    this.#read = read
    this.#weights = weights
    this.#runs = readingRuns.of(read)
    const n = read.length + 2
    if ((readingPrefix[0] as Int32Array).length < n + 1) {
      const size = Math.max(n + 1, (readingPrefix[0] as Int32Array).length * 2)
      readingPrefix = readingPrefix.map(() => new Int32Array(size))
    }
    this.#prefix = readingPrefix
    const prefix = this.#prefix
    for (const sums of prefix) sums[0] = 0
    for (let i = 0; i < n; i++) {
      let hash = CHAR_SEED
      for (let k = 0; k < CHAR_MAX; k++) {
        if (i + k < n) hash = fnvStep(hash, paddedAt(read, i + k))
        if (k + 1 < CHAR_MIN) continue
        const sums = prefix[k + 1 - CHAR_MIN] as Int32Array
        const w = i + k < n ? (weights[(hash ^ (k + 1)) & MASK] as number) : 0
        sums[i + 1] = (sums[i] as number) + w
      }
    }
  }

  /** {@link weightOf}`(read.slice(from, to))`. */
  window(from: number, to: number): { sum: number; total: number } {
    if (this.#made !== readingsMade)
      throw new Error('ReadingWeights used after a later one was made')
    const read = this.#read
    const spaced =
      (from === 0 || read.charCodeAt(from - 1) === 0x20) &&
      (to === read.length || read.charCodeAt(to) === 0x20)
    if (!spaced) return weightOf(read.slice(from, to), this.#weights)
    const runs = this.#runs
    const words = runsWeight(runs, runs.firstFrom(from), runs.firstFrom(to), this.#weights)
    let { sum, total } = words
    // In padded coordinates the window is [from, to + 2): a k-gram starting at p fits if
    // p + k <= to + 2.
    for (let k = CHAR_MIN; k <= CHAR_MAX; k++) {
      const end = to + 3 - k
      if (end <= from) continue
      const sums = this.#prefix[k - CHAR_MIN] as Int32Array
      sum += (sums[end] as number) - (sums[from] as number)
      total += end - from
    }
    return { sum, total }
  }
}

/** The shipped form: `logit = bias + Σ q·count / 2^shift / √Σcount`. */
export interface QuantisedModel {
  weights: Int8Array
  shift: number
  bias: number
}
