import type { SignCodes } from './sign-codes.ts'
import { hamming } from './simhash.ts'

/** Bits of the code one band keys on: 65,536 buckets a band. */
export const BAND_BITS = 16

/** Most bands: 24 × 16 bits covers a 384-bit code. */
export const MAX_BANDS = 24

const BUCKETS = 1 << BAND_BITS
const NONE = -1

/**
 * Locality-sensitive buckets over the rows' SimHash codes: each of `bands` disjoint 16-bit
 * slices of a code keys a bucket, and a row sits in one bucket per band. Two rows at angle θ
 * (once centred, see {@link SignCodes.centre}) share a given band with probability
 * (1 − θ/π)^16, so some band with probability
 * 1 − (1 − (1 − θ/π)^16)^bands: at 24 bands 99.2 % for a cosine of 0.95, 99.95 % at 0.97, but
 * 0.6 % for unrelated rows at 0.3. Candidates from the buckets are then filtered by the whole
 * code's Hamming distance and re-scored by the caller.
 *
 * Buckets are doubly linked lists threaded through per-row arrays (node = row × bands + band),
 * so a row joins, leaves or moves in O(bands) and memory is 4 bytes a bucket head plus 8 bytes
 * a row and band, with no object per bucket.
 */
export class BandIndex {
  readonly words: number
  readonly bands: number
  /** The rows' codes, which the caller keeps in step (`set` before `add`, `move` with `move`). */
  readonly signs: SignCodes
  #heads: Int32Array
  #next = new Int32Array(0)
  #prev = new Int32Array(0)
  #stamps = new Uint32Array(0)
  #stamp = 0
  #capacity = 0

  constructor(signs: SignCodes) {
    this.signs = signs
    this.words = signs.words
    this.bands = Math.min(MAX_BANDS, Math.floor((signs.words * 32) / BAND_BITS))
    this.#heads = new Int32Array(this.bands * BUCKETS).fill(NONE)
  }

  reserve(capacity: number): void {
    if (capacity <= this.#capacity) return
    const next = Math.max(capacity, this.#capacity + Math.max(64, this.#capacity >>> 3))
    this.#next = grow(this.#next, next * this.bands)
    this.#prev = grow(this.#prev, next * this.bands)
    this.#stamps = grow(this.#stamps, next)
    this.#capacity = next
  }

  /** Files `row`, whose code {@link SignCodes.set} has written, in its buckets. */
  add(row: number): void {
    this.reserve(row + 1)
    for (let band = 0; band < this.bands; band++) this.#link(row, band)
  }

  /** Takes `row` out of its buckets (its code stays until overwritten). */
  remove(row: number): void {
    for (let band = 0; band < this.bands; band++) this.#unlink(row * this.bands + band)
  }

  /**
   * Moves row `from`, already in its buckets, to the free row `to` (a store's hole filling),
   * once its code has moved there.
   */
  move(from: number, to: number): void {
    for (let band = 0; band < this.bands; band++) {
      this.#unlink(from * this.bands + band)
      this.#link(to, band)
    }
  }

  /**
   * Rows sharing a band with `query` (a code of `words` words) whose whole code differs in at
   * most `maxDistance` bits, each once, in no set order.
   */
  candidates(query: Uint32Array, maxDistance: number): number[] {
    const stamp = this.#nextStamp()
    const stamps = this.#stamps
    const { bands, words } = this
    const codes = this.signs.codes
    const stride = this.signs.stride
    const out: number[] = []
    for (let band = 0; band < bands; band++) {
      let node = this.#heads[band * BUCKETS + keyOf(query, 0, band)] as number
      while (node !== NONE) {
        const row = (node / bands) | 0
        if (stamps[row] !== stamp) {
          stamps[row] = stamp
          if (hamming(codes, row * stride, query, 0, words) <= maxDistance) out.push(row)
        }
        node = this.#next[node] as number
      }
    }
    return out
  }

  /** Bytes of the buckets (the codes are counted by their owner). */
  bytes(): number {
    return (
      this.#heads.byteLength +
      this.#next.byteLength +
      this.#prev.byteLength +
      this.#stamps.byteLength
    )
  }

  #nextStamp(): number {
    this.#stamp = (this.#stamp + 1) >>> 0
    if (this.#stamp === 0) {
      this.#stamps.fill(0)
      this.#stamp = 1
    }
    return this.#stamp
  }

  #link(row: number, band: number): void {
    const node = row * this.bands + band
    const head = band * BUCKETS + keyOf(this.signs.codes, row * this.signs.stride, band)
    const first = this.#heads[head] as number
    this.#next[node] = first
    // A node at a bucket's head keeps −1 − head as its `prev`, so unlinking finds the head.
    this.#prev[node] = NONE - head
    if (first !== NONE) this.#prev[first] = node
    this.#heads[head] = node
  }

  #unlink(node: number): void {
    const next = this.#next[node] as number
    const prev = this.#prev[node] as number
    if (prev >= 0) this.#next[prev] = next
    else this.#heads[NONE - prev] = next
    if (next !== NONE) this.#prev[next] = prev
  }
}

/** Band `band`'s 16 bits of the code at `codes[at ..]`. */
export function keyOf(codes: Uint32Array, at: number, band: number): number {
  const word = codes[at + (band >>> 1)] as number
  return band & 1 ? word >>> 16 : word & 0xffff
}

function grow<T extends Uint32Array | Int32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length)
  next.set(array)
  return next
}
