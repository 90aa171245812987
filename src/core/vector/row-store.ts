import { InvalidInputError } from '../errors.ts'
import type { ScanKernel } from './kernel.ts'
import { quantiseRow, type RowLayout } from './quantise.ts'
import { createKernel } from './wasm-kernel.ts'

export const MAX_GROUP = 0xffff

/** The rows of an index as plain arrays, `size` rows each, as a snapshot stores them. */
export interface RowArrays {
  ids: string[]
  codes: Int8Array
  scales: Float32Array
  residuals: Uint32Array
  groups: Uint16Array
  vectors?: Float32Array
}

/**
 * The rows of a vector index: per row an id, int8 codes (held by the scan kernel), a code step,
 * residual bit planes, a group and, with `exact: 'memory'`, the float32 vector. Rows are dense:
 * a removal moves the last row into the hole.
 */
export class RowStore {
  readonly layout: RowLayout
  readonly #wasm: boolean
  #kernel: ScanKernel
  #capacity = 0
  #residuals = new Uint32Array(0)
  #groups = new Uint16Array(0)
  #vectors: Float32Array | undefined
  #ids: string[] = []
  #rows = new Map<string, number>()

  constructor(layout: RowLayout, options: { wasm: boolean; exact: boolean }) {
    this.layout = layout
    this.#wasm = options.wasm
    this.#kernel = createKernel(layout.stride, options.wasm)
    if (options.exact) this.#vectors = new Float32Array(0)
  }

  get size(): number {
    return this.#ids.length
  }
  get kernel(): ScanKernel {
    return this.#kernel
  }
  /** Per row: the value of one code step (max |component| / 127), held by the kernel. */
  get steps(): Float32Array {
    return this.#kernel.steps
  }
  get residuals(): Uint32Array {
    return this.#residuals
  }
  get groups(): Uint16Array {
    return this.#groups
  }
  /** Float32 copies, row-major, only with `exact: 'memory'`. */
  get vectors(): Float32Array | undefined {
    return this.#vectors
  }
  /** Ids in row order; the live array, not a copy. */
  get ids(): readonly string[] {
    return this.#ids
  }

  rowOf(id: string): number | undefined {
    return this.#rows.get(id)
  }

  /** Writes `vector` under `id`, into its existing row or a new last one. */
  put(id: string, vector: Float32Array, group: number): void {
    if (!Number.isInteger(group) || group < 0 || group > MAX_GROUP) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'group',
        `expected an integer 0..${MAX_GROUP}, got ${group}`,
      )
    }
    let row = this.#rows.get(id)
    if (row === undefined) {
      row = this.#ids.length
      this.reserve(row + 1)
      this.#ids.push(id)
      this.#rows.set(id, row)
    }
    const kernel = this.#kernel
    kernel.steps[row] = quantiseRow(vector, this.layout, kernel.codes, this.#residuals, row)
    this.#groups[row] = group
    this.#vectors?.set(vector, row * this.layout.dims)
  }

  /** Removes `id`; the last row moves into its place. O(dims). */
  delete(id: string): boolean {
    const row = this.#rows.get(id)
    if (row === undefined) return false
    const last = this.#ids.length - 1
    if (row !== last) this.#moveRow(last, row)
    this.#ids.pop()
    this.#rows.delete(id)
    return true
  }

  clear(): void {
    this.#ids = []
    this.#rows.clear()
    this.#capacity = 0
    this.#kernel = createKernel(this.layout.stride, this.#wasm)
    this.#residuals = new Uint32Array(0)
    this.#groups = new Uint16Array(0)
    if (this.#vectors) this.#vectors = new Float32Array(0)
  }

  /** Room for `capacity` rows; growth beyond it is by an eighth, keeping slack under 12.5 %. */
  reserve(capacity: number): void {
    if (capacity <= this.#capacity) return
    const next = Math.max(capacity, this.#capacity + Math.max(64, this.#capacity >>> 3))
    const { dims, words, bits } = this.layout
    this.#kernel.reserve(next)
    this.#residuals = grow(this.#residuals, next * bits * words)
    this.#groups = grow(this.#groups, next)
    if (this.#vectors) this.#vectors = grow(this.#vectors, next * dims)
    this.#capacity = next
  }

  /** Copies of the rows' arrays, sized exactly. */
  export(): RowArrays {
    return this.#arrays(true)
  }

  /**
   * The rows' arrays themselves, as views sized exactly: no copy, so valid only until the store
   * next changes (and a WebAssembly memory that grows detaches them). The ids are the live list.
   */
  view(): RowArrays {
    return this.#arrays(false)
  }

  #arrays(copy: boolean): RowArrays {
    const n = this.size
    const { dims, stride, words, bits } = this.layout
    const cut = <T extends Int8Array | Float32Array | Uint32Array | Uint16Array>(
      array: T,
      length: number,
    ) => (copy ? array.slice(0, length) : array.subarray(0, length)) as T
    const rows: RowArrays = {
      ids: copy ? this.#ids.slice() : this.#ids,
      codes: cut(this.#kernel.codes, n * stride),
      scales: cut(this.#kernel.steps, n),
      residuals: cut(this.#residuals, n * bits * words),
      groups: cut(this.#groups, n),
    }
    if (this.#vectors) rows.vectors = cut(this.#vectors, n * dims)
    return rows
  }

  /**
   * Fills an empty store with `parts`, consecutive rows each, whose lengths the caller has
   * checked, sized exactly. Returns false, leaving the store unusable, when the ids are not
   * unique.
   */
  import(parts: readonly RowArrays[]): boolean {
    let n = 0
    for (const part of parts) n += part.ids.length
    this.reserve(n)
    const { dims, stride, words, bits } = this.layout
    const ids: string[] = []
    for (const part of parts) {
      const at = ids.length
      this.#kernel.codes.set(part.codes, at * stride)
      this.#kernel.steps.set(part.scales, at)
      this.#residuals.set(part.residuals, at * bits * words)
      this.#groups.set(part.groups, at)
      if (this.#vectors && part.vectors) this.#vectors.set(part.vectors, at * dims)
      for (const id of part.ids) ids.push(id)
    }
    this.#ids = ids
    for (let r = 0; r < n; r++) this.#rows.set(ids[r] as string, r)
    return this.#rows.size === n
  }

  /** Bytes of the typed arrays held (WebAssembly memory included), capacity slack included. */
  bytes(): number {
    return (
      this.#kernel.bytes() +
      this.#residuals.byteLength +
      this.#groups.byteLength +
      (this.#vectors?.byteLength ?? 0)
    )
  }

  #moveRow(from: number, to: number): void {
    const { dims, stride, words, bits } = this.layout
    const planes = bits * words
    const kernel = this.#kernel
    kernel.codes.copyWithin(to * stride, from * stride, (from + 1) * stride)
    kernel.steps[to] = kernel.steps[from] as number
    this.#residuals.copyWithin(to * planes, from * planes, (from + 1) * planes)
    this.#groups[to] = this.#groups[from] as number
    this.#vectors?.copyWithin(to * dims, from * dims, (from + 1) * dims)
    const moved = this.#ids[from] as string
    this.#ids[to] = moved
    this.#rows.set(moved, to)
  }
}

function grow<T extends Float32Array | Uint32Array | Uint16Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length)
  next.set(array)
  return next
}
