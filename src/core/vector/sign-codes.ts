import { hammingModuleBytes, MAX_HAMMING_WORDS64 } from './hamming-module.ts'
import { popcount, type SimHasher } from './simhash.ts'

const PAGE = 65_536

type HammingFn = (q: number, codes: number, rows: number, out: number) => void

/**
 * Every row's SimHash code (1 bit a dimension: 48 B at 384 dims), hashed from the row's int8
 * codes less {@link SignCodes.centre}, and the Hamming distance of every row to a query code in
 * one pass: the binary first pass of {@link VectorIndex.search} at scale and of `searchNear`,
 * and the codes {@link BandIndex} keys its buckets on. Derived from the rows alone, so a
 * snapshot needs none of it. Codes live in WebAssembly memory when the runtime has it (one i64
 * popcount per 64 bits), in plain arrays otherwise; both give the same distances.
 */
export class SignCodes {
  /** 32-bit words of a code: ceil(dims / 32). */
  readonly words: number
  /** 32-bit words a row takes: `words` rounded up to whole 64-bit words. */
  readonly stride: number
  /**
   * Subtracted from every vector before hashing: the rows' mean when the codes were first built.
   * Sentence embeddings share a common direction, which would put the same bits in most codes;
   * centred, the Hamming distance tracks the angle between what sets two rows apart.
   */
  readonly centre: Float32Array
  readonly #hasher: SimHasher
  readonly #fn: HammingFn | undefined
  readonly #memory: WebAssembly.Memory | undefined
  #codes = new Uint32Array(0)
  #query = new Uint32Array(0)
  #dists = new Uint16Array(0)
  #capacity = 0

  constructor(hasher: SimHasher, centre: Float32Array, wasm = true) {
    this.#hasher = hasher
    this.centre = centre
    this.words = hasher.words
    this.stride = hasher.words + (hasher.words & 1)
    const instance = wasm ? hammingInstance(this.stride / 2) : undefined
    this.#fn = instance?.fn
    this.#memory = instance?.memory
    this.reserve(0)
  }

  /** Which distance pass runs. */
  get kind(): 'wasm' | 'js' {
    return this.#fn ? 'wasm' : 'js'
  }

  /** Codes of every row, `stride` words a row (the live array; replaced on growth). */
  get codes(): Uint32Array {
    return this.#codes
  }

  reserve(capacity: number): void {
    if (capacity <= this.#capacity && this.#codes.length > 0) return
    const next = Math.max(capacity, this.#capacity + Math.max(64, this.#capacity >>> 3))
    const stride = this.stride
    const memory = this.#memory
    if (!memory) {
      const codes = new Uint32Array(next * stride)
      codes.set(this.#codes)
      this.#codes = codes
      this.#query = new Uint32Array(stride)
      this.#dists = new Uint16Array(next)
    } else {
      // [query][codes: capacity × stride words][distances: u16 × capacity]; codes stay in place.
      const needed = stride * 4 + next * stride * 4 + next * 2
      const have = memory.buffer.byteLength
      if (needed > have) memory.grow(Math.ceil((needed - have) / PAGE))
      const buffer = memory.buffer
      this.#query = new Uint32Array(buffer, 0, stride)
      this.#codes = new Uint32Array(buffer, stride * 4, next * stride)
      this.#dists = new Uint16Array(buffer, stride * 4 + next * stride * 4, next)
    }
    this.#capacity = next
  }

  /** Hashes `values[base .. base + dims)` × `scale` (a row's int8 codes and step) as `row`'s code. */
  set(row: number, values: ArrayLike<number>, base: number, scale: number): void {
    this.reserve(row + 1)
    this.#hasher.hash(values, base, this.#codes, row * this.stride, scale, this.centre)
    // The pad word must be zero (as the query's is): grown memory may hold old distances.
    if (this.stride > this.words) this.#codes[row * this.stride + this.words] = 0
  }

  /** Copies row `from`'s code to row `to` (a store's hole filling). */
  move(from: number, to: number): void {
    const s = this.stride
    this.#codes.copyWithin(to * s, from * s, (from + 1) * s)
  }

  /** Writes the code of the unit vector `query` (centred like the rows) and returns it. */
  hashQuery(query: Float32Array): Uint32Array {
    this.#hasher.hash(query, 0, this.#query, 0, 1, this.centre)
    return this.#query
  }

  /**
   * The Hamming distance of rows [0, rows) to the last {@link SignCodes.hashQuery}'s code, in a
   * buffer the next call reuses.
   */
  distances(rows: number): Uint16Array {
    const dists = this.#dists
    if (rows === 0) return dists
    if (this.#fn) {
      this.#fn(0, this.#codes.byteOffset, rows, dists.byteOffset)
      return dists
    }
    const codes = this.#codes
    const q = this.#query
    const { stride, words } = this
    for (let r = 0, base = 0; r < rows; r++, base += stride) {
      let count = 0
      for (let w = 0; w < words; w++)
        count += popcount((codes[base + w] as number) ^ (q[w] as number))
      dists[r] = count
    }
    return dists
  }

  bytes(): number {
    return this.#memory
      ? this.#memory.buffer.byteLength
      : this.#codes.byteLength + this.#dists.byteLength
  }
}

const modules = new Map<number, WebAssembly.Module | null>()

/** A fresh instance over its own memory, or undefined where WebAssembly is unavailable. */
function hammingInstance(
  words64: number,
): { fn: HammingFn; memory: WebAssembly.Memory } | undefined {
  if (words64 > MAX_HAMMING_WORDS64) return undefined
  let module = modules.get(words64)
  if (module === undefined) {
    try {
      module = new WebAssembly.Module(hammingModuleBytes(words64))
    } catch {
      // No WebAssembly, or a CSP without 'wasm-unsafe-eval': the JS pass takes over.
      module = null
    }
    modules.set(words64, module)
  }
  if (!module) return undefined
  const memory = new WebAssembly.Memory({ initial: 1 })
  const instance = new WebAssembly.Instance(module, { e: { m: memory } })
  return { fn: instance.exports.hamming as HammingFn, memory }
}
