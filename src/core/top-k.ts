/** One selected entry: the caller's index and its score. */
export interface Scored {
  index: number
  score: number
}

/**
 * Bounded top-k selection over `(index, score)` pairs: a min-heap of the best `k` seen so far, held
 * in typed arrays so pushing allocates nothing. Ties go to the lower index; `NaN` scores are
 * ignored. Cost: O(log k) per accepted push, O(1) for a push below {@link TopK.threshold}.
 *
 * @example
 * const top = new TopK(2)
 * top.push(0, 0.1); top.push(1, 0.9); top.push(2, 0.5); top.push(3, 0.9)
 * top.drain()
 * // => [{ index: 1, score: 0.9 }, { index: 3, score: 0.9 }]
 */
export class TopK {
  readonly k: number
  #index: Int32Array
  #score: Float64Array
  #size = 0

  constructor(k: number) {
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`TopK: expected k >= 0, got ${k}`)
    this.k = k
    this.#index = new Int32Array(k)
    this.#score = new Float64Array(k)
  }

  /** Entries held, at most `k`. */
  get size(): number {
    return this.#size
  }

  /**
   * The score a push must reach to be kept: the worst kept score once `k` entries are held, else
   * `-Infinity` (`+Infinity` when `k` is 0). A push equal to it is kept only with a lower index.
   */
  get threshold(): number {
    if (this.k === 0) return Number.POSITIVE_INFINITY
    return this.#size < this.k ? Number.NEGATIVE_INFINITY : (this.#score[0] as number)
  }

  push(index: number, score: number): void {
    if (Number.isNaN(score) || this.k === 0) return
    const idx = this.#index
    const sc = this.#score
    if (this.#size < this.k) {
      let i = this.#size++
      // Sift up: the root holds the worst entry.
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!worse(score, index, sc[parent] as number, idx[parent] as number)) break
        sc[i] = sc[parent] as number
        idx[i] = idx[parent] as number
        i = parent
      }
      sc[i] = score
      idx[i] = index
      return
    }
    if (!worse(sc[0] as number, idx[0] as number, score, index)) return
    this.#siftDown(index, score)
  }

  /** The kept entries, best first, and an empty selector ready for reuse. */
  drain(): Scored[] {
    const out: Scored[] = new Array(this.#size)
    for (let i = this.#size - 1; i >= 0; i--) {
      out[i] = { index: this.#index[0] as number, score: this.#score[0] as number }
      this.#size--
      if (this.#size > 0) {
        this.#siftDown(this.#index[this.#size] as number, this.#score[this.#size] as number)
      }
    }
    return out
  }

  clear(): void {
    this.#size = 0
  }

  /** Places `(index, score)` at the root and restores the heap over the first `size` slots. */
  #siftDown(index: number, score: number): void {
    const idx = this.#index
    const sc = this.#score
    const n = this.#size
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= n) break
      const right = left + 1
      let child = left
      if (
        right < n &&
        worse(sc[right] as number, idx[right] as number, sc[left] as number, idx[left] as number)
      ) {
        child = right
      }
      if (!worse(sc[child] as number, idx[child] as number, score, index)) break
      sc[i] = sc[child] as number
      idx[i] = idx[child] as number
      i = child
    }
    sc[i] = score
    idx[i] = index
  }
}

/** Whether entry a ranks below entry b: a lower score, or an equal score with a higher index. */
function worse(scoreA: number, indexA: number, scoreB: number, indexB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && indexA > indexB)
}
