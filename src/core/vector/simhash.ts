/**
 * Sign-random-projection (SimHash) codes: bit j of a vector's code is the sign of its j-th
 * coordinate after a fixed pseudo-random rotation, so two unit vectors at angle θ differ in
 * each bit with probability θ / π (cosine 0.97: 7.8 % of bits; 0.8: 20 %; 0.3: 40 %). The
 * rotation is two rounds of random signs and a Walsh–Hadamard transform over the vector padded
 * to a power of two — O(dims × log dims) a vector where a dense Gaussian projection costs
 * O(dims²) (147k multiply-adds at 384 dims, about 15 s for 100k vectors in JavaScript).
 */

/** Code bits per vector: dims rounded up to whole 32-bit words (384 → 384, 100 → 128). */
export function codeWords(dims: number): number {
  return Math.ceil(dims / 32)
}

/** The rotation's fixed seed: codes must agree between sessions and between snapshots. */
const ROTATION_SEED = 0x51a1_4a5e

/** Turns vectors into SimHash codes; holds its sign diagonals and a scratch buffer. */
export class SimHasher {
  readonly dims: number
  readonly words: number
  readonly #size: number
  readonly #first: Float64Array
  readonly #second: Float64Array
  readonly #scratch: Float64Array

  constructor(dims: number) {
    this.dims = dims
    this.words = codeWords(dims)
    let size = 1
    while (size < this.words * 32) size *= 2
    this.#size = size
    const next = xorshift(ROTATION_SEED ^ dims)
    this.#first = Float64Array.from({ length: size }, () => (next() & 1 ? 1 : -1))
    this.#second = Float64Array.from({ length: size }, () => (next() & 1 ? 1 : -1))
    this.#scratch = new Float64Array(size)
  }

  /**
   * Writes the code of `values[base .. base + dims)` × `scale` − `centre` into
   * `out[at .. at + words)`: int8 codes with their step give the row's vector back.
   */
  hash(
    values: ArrayLike<number>,
    base: number,
    out: Uint32Array,
    at: number,
    scale = 1,
    centre?: Float32Array,
  ): void {
    const x = this.#scratch
    const dims = this.dims
    const first = this.#first
    if (centre) {
      for (let i = 0; i < dims; i++) {
        x[i] = ((values[base + i] as number) * scale - (centre[i] as number)) * (first[i] as number)
      }
    } else {
      for (let i = 0; i < dims; i++)
        x[i] = (values[base + i] as number) * scale * (first[i] as number)
    }
    x.fill(0, dims)
    hadamard(x)
    for (let i = 0; i < this.#size; i++) x[i] = (x[i] as number) * (this.#second[i] as number)
    hadamard(x)
    // Branch-free: a sign bit is a coin toss, which a branch mispredicts half the time.
    for (let w = 0; w < this.words; w++) {
      let word = 0
      for (let b = 0, base = w * 32; b < 32; b++) word |= ((x[base + b] as number) > 0 ? 1 : 0) << b
      out[at + w] = word
    }
  }
}

/** Bits that differ between the codes at `a[i ..]` and `b[j ..]`, `words` words each. */
export function hamming(
  a: Uint32Array,
  i: number,
  b: Uint32Array,
  j: number,
  words: number,
): number {
  let count = 0
  for (let w = 0; w < words; w++) count += popcount((a[i + w] as number) ^ (b[j + w] as number))
  return count
}

export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/**
 * The most differing bits a vector at cosine `cosine` or more from the query shows, but for a
 * chance of about 1 in 10^5: the binomial mean plus 4.5 standard deviations, plus two bits for
 * the rounding of int8-derived codes near a hyperplane.
 */
export function hammingBound(cosine: number, bits: number): number {
  const p = Math.acos(Math.max(-1, Math.min(1, cosine))) / Math.PI
  return Math.min(bits, Math.ceil(bits * p + 4.5 * Math.sqrt(bits * p * (1 - p)) + 2))
}

/**
 * In-place unnormalised fast Walsh–Hadamard transform; the length is a power of two. Two
 * butterfly stages a pass (radix 4) halve the passes over the array, about twice as fast as one
 * stage a pass, with the same additions in the same order (so the same codes).
 */
function hadamard(x: Float64Array): void {
  const n = x.length
  let h = 1
  for (; h * 4 <= n; h *= 4) {
    const h2 = 2 * h
    const h3 = 3 * h
    for (let i = 0; i < n; i += 4 * h) {
      for (let j = i; j < i + h; j++) {
        const a = x[j] as number
        const b = x[j + h] as number
        const c = x[j + h2] as number
        const d = x[j + h3] as number
        const s0 = a + b
        const s1 = a - b
        const s2 = c + d
        const s3 = c - d
        x[j] = s0 + s2
        x[j + h] = s1 + s3
        x[j + h2] = s0 - s2
        x[j + h3] = s1 - s3
      }
    }
  }
  for (; h < n; h *= 2) {
    for (let i = 0; i < n; i += 2 * h) {
      for (let j = i; j < i + h; j++) {
        const a = x[j] as number
        const b = x[j + h] as number
        x[j] = a + b
        x[j + h] = a - b
      }
    }
  }
}

function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    return s
  }
}
