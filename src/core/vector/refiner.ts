import type { RowLayout } from './quantise.ts'

/**
 * Re-scores candidate rows without a float copy. Component i is read back as
 * (code + (level + 0.5) / 2^bits − 0.5) × step, the centre of its residual's bin, so each
 * component is off by at most step / 2^(bits+1). On 384-dim unit vectors three bits leave a
 * score off the exact cosine by about 4e-5 on average and 2e-4 at worst (one bit: 1.5e-4, 8e-4). The int8 part comes from the scan (divided by the query scale);
 * each plane's part is Σ of q over its set bits, read a byte at a time from a per-query table of
 * subset sums that every plane shares.
 */
export class Refiner {
  #layout: RowLayout
  /** Allocated by the first `prepare`: an index that never searches (a batch's) needs none. */
  #table = new Float64Array(0)
  /** Σ q × (0.5 / 2^bits − 0.5): the bins' common offset, the same for every row. */
  #offset = 0

  constructor(layout: RowLayout) {
    this.#layout = layout
  }

  /** Makes {@link Refiner.score} score against `query` (O(dims × 32) for the table). */
  prepare(query: Float32Array): this {
    const { dims, words, bits } = this.#layout
    if (bits === 0) return this
    if (this.#table.length === 0) this.#table = new Float64Array(words * 4 * 256)
    const table = this.#table
    for (let p = 0; p < words * 4; p++) {
      const base = p * 256
      for (let b = 1; b < 256; b++) {
        const low = b & -b
        const i = p * 8 + (31 - Math.clz32(low))
        table[base + b] =
          (table[base + (b ^ low)] as number) + (i < dims ? (query[i] as number) : 0)
      }
    }
    let sum = 0
    for (let i = 0; i < dims; i++) sum += query[i] as number
    this.#offset = sum * (0.5 / (1 << bits) - 0.5)
    return this
  }

  /**
   * The refined dot product of the prepared query with `row`, from the scan's integer dot
   * product `scanned` at `queryScale`, the row's residual planes and its code step.
   */
  score(
    scanned: number,
    queryScale: number,
    row: number,
    residuals: Uint32Array,
    step: number,
  ): number {
    const { words, bits } = this.#layout
    const table = this.#table
    let planes = 0
    for (let plane = 0, p = row * bits * words; plane < bits; plane++) {
      let sum = 0
      for (let w = 0; w < words; w++, p++) {
        const word = residuals[p] as number
        const t = w * 1024
        sum +=
          (table[t + (word & 255)] as number) +
          (table[t + 256 + ((word >>> 8) & 255)] as number) +
          (table[t + 512 + ((word >>> 16) & 255)] as number) +
          (table[t + 768 + (word >>> 24)] as number)
      }
      planes += sum * (1 << plane)
    }
    const int8 = queryScale > 0 ? scanned / queryScale : 0
    return (int8 + planes / (1 << bits) + this.#offset) * step
  }

  bytes(): number {
    return this.#table.byteLength
  }
}
