import { InvalidInputError } from '../errors.ts'
import { BandIndex } from './band-index.ts'
import { searchBinary } from './binary-pass.ts'
import { NEAR_SCAN_BELOW, type NearOptions, searchNearRows } from './near-search.ts'
import {
  resolveOptions,
  type VectorFilter,
  type VectorHit,
  type VectorIndexOptions,
} from './options.ts'
import { rowLayout } from './quantise.ts'
import { Refiner } from './refiner.ts'
import { type RowArrays, RowStore } from './row-store.ts'
import { fillGroupMask, GROUP_MASK_WORDS, scoreRows, searchRows } from './search.ts'
import { SignCodes } from './sign-codes.ts'
import { SimHasher } from './simhash.ts'
import {
  badSnapshot,
  checkVersion,
  snapshotRows,
  VECTOR_SNAPSHOT_VERSION,
  type VectorIndexSnapshot,
} from './snapshot.ts'

/**
 * Flat in-memory vector index for cosine top-k over unit vectors, sized for 100k × 384 in a
 * browser worker. Each vector is stored as int8 codes with a per-row step and `refineBits`
 * residual bits per dimension; a search scans every row with an integer dot product
 * (WebAssembly SIMD, JS fallback), keeps the best `rescore` by that estimate and re-scores them
 * precisely (see {@link VectorIndexOptions.exact}). Large indexes put a binary first pass in
 * front (1-bit sign codes derived from the int8 codes, compared by popcount), which picks the
 * rows worth the int8 dot product.
 *
 * @example
 * const index = new VectorIndex(3)
 * index.add('a', Float32Array.of(1, 0, 0))
 * index.add('b', Float32Array.of(0, 1, 0), 7)
 * index.search(Float32Array.of(0.6, 0.8, 0), 1)
 * // => [{ id: 'b', score: ~0.8 }]
 * index.search(Float32Array.of(0.6, 0.8, 0), 1, { groups: [0] })
 * // => [{ id: 'a', score: ~0.6 }]
 */
export class VectorIndex {
  readonly dims: number
  readonly stride: number
  /** Residual bit planes kept per row (see {@link VectorIndexOptions.refineBits}). */
  readonly refineBits: number
  readonly #exact: 'none' | 'memory'
  readonly #rescore: number
  readonly #store: RowStore
  readonly #refiner: Refiner
  readonly #wasm: boolean
  readonly #binaryAbove: number
  readonly #binaryPool: number
  #groupMask: Uint32Array | undefined
  /**
   * Every row's sign code, for the binary first pass and the SimHash buckets: built from the
   * rows' int8 codes at the first search that wants them and kept in step by `add` and `remove`
   * from then on; a small index (or a restored one until a large search) pays nothing for it.
   */
  #signs: SignCodes | undefined
  /** SimHash buckets over `#signs` for {@link VectorIndex.searchNear}, built the same way. */
  #bands: BandIndex | undefined

  constructor(dims: number, options: VectorIndexOptions = {}) {
    const resolved = resolveOptions(dims, options)
    const layout = rowLayout(dims, resolved.refineBits)
    this.dims = dims
    this.stride = layout.stride
    this.refineBits = resolved.refineBits
    this.#exact = resolved.exact
    this.#rescore = resolved.rescore
    this.#wasm = resolved.wasm
    this.#binaryAbove = resolved.binaryAbove
    this.#binaryPool = resolved.binaryPool
    this.#store = new RowStore(layout, { wasm: resolved.wasm, exact: resolved.exact === 'memory' })
    this.#refiner = new Refiner(layout)
  }

  get size(): number {
    return this.#store.size
  }

  /** Which scan runs: `'wasm'` (SIMD) or `'js'`. */
  get backend(): 'wasm' | 'js' {
    return this.#store.kernel.kind
  }

  has(id: string): boolean {
    return this.#store.rowOf(id) !== undefined
  }

  /** Ids in row order (which changes on removal). */
  ids(): string[] {
    return this.#store.ids.slice()
  }

  /**
   * Adds a vector, or replaces the one stored under `id` (keeping its row). `group` is a small
   * integer 0..65535 the caller maps its filters to (namespace + type, say). Amortised O(dims).
   */
  add(id: string, vector: Float32Array, group = 0): void {
    this.#checkVector(vector, 'vector')
    const bands = this.#bands
    const held = bands ? this.#store.rowOf(id) : undefined
    if (bands && held !== undefined) bands.remove(held)
    this.#store.put(id, vector, group)
    if (this.#signs) this.#fileRow(this.#store.rowOf(id) as number)
  }

  /** Removes `id`; the last row moves into its place. O(dims). */
  remove(id: string): boolean {
    const signs = this.#signs
    if (signs) {
      const row = this.#store.rowOf(id)
      if (row === undefined) return false
      const last = this.#store.size - 1
      this.#bands?.remove(row)
      if (row !== last) {
        signs.move(last, row)
        this.#bands?.move(last, row)
      }
    }
    return this.#store.delete(id)
  }

  clear(): void {
    this.#store.clear()
    this.#signs = undefined
    this.#bands = undefined
  }

  /**
   * Makes room for `capacity` rows at once (a rebuild that knows its count), so growth leaves no
   * slack. Growth on `add` is by an eighth, keeping slack under 12.5 %.
   */
  reserve(capacity: number): void {
    this.#store.reserve(capacity)
  }

  /**
   * Builds now what {@link VectorIndex.searchNear} builds the first time it runs past
   * `scanBelow` rows (every row's sign code and the SimHash buckets), so that cost (~13 µs a
   * row) lands at the end of a bulk import rather than in the next `remember`. Rows added later
   * are filed as they come. A no-op below `scanBelow` rows or once built.
   */
  prepareNear(scanBelow = NEAR_SCAN_BELOW): void {
    if (this.size >= scanBelow) this.#bandIndex()
  }

  /**
   * The `k` rows most similar to `query`, best first; ties go to the smaller id. Scores are
   * re-scored dot products (exact with `exact: 'memory'`). From `binaryAbove` rows the int8
   * scan is replaced by the binary first pass (see {@link VectorIndexOptions.binaryAbove}).
   */
  search(query: Float32Array, k: number, filter: VectorFilter = {}): VectorHit[] {
    this.#checkVector(query, 'query')
    if (!Number.isInteger(k) || k < 0) {
      throw new InvalidInputError('BAD_OPTION', 'k', `expected an integer >= 0, got ${k}`)
    }
    if (k === 0 || this.size === 0) return []
    const mask = filter.groups ? this.#maskOf(filter.groups) : undefined
    const options = { ...filter, mask, depth: this.#rescore }
    if (this.size >= this.#binaryAbove) {
      return searchBinary(this.#store, this.#refiner, this.#signCodes(), query, k, {
        ...options,
        pool: this.#binaryPool,
      })
    }
    return searchRows(this.#store, this.#refiner, query, k, options)
  }

  /**
   * The `k` rows most similar to `query` among those at a cosine of `options.minScore` or more,
   * best first (ties to the smaller id), found through SimHash buckets (from a `minScore` of
   * 0.9) or the binary first pass over every row's sign code (below it) rather than a scan once
   * the index holds `options.scanBelow` rows: for near-duplicate checks and `related`
   * neighbours, which want a few rows above a high cosine and are asked once per write. Scores
   * have {@link VectorIndex.search}'s precision; a row at or above `minScore` is missed with a
   * probability that grows as `minScore` falls (see {@link NearOptions}).
   *
   * @example
   * index.searchNear(Float32Array.of(0.6, 0.8, 0), 3, { minScore: 0.7 })
   * // => [{ id: 'b', score: ~0.8 }]
   */
  searchNear(query: Float32Array, k: number, options: NearOptions): VectorHit[] {
    this.#checkVector(query, 'query')
    if (!Number.isInteger(k) || k < 0) {
      throw new InvalidInputError('BAD_OPTION', 'k', `expected an integer >= 0, got ${k}`)
    }
    if (k === 0 || this.size === 0) return []
    const mask = options.groups ? this.#maskOf(options.groups) : undefined
    const signs = this.size >= (options.scanBelow ?? NEAR_SCAN_BELOW) ? this.#signCodes() : null
    const bands = () => this.#bandIndex()
    return searchNearRows(this.#store, this.#refiner, signs, bands, query, k, {
      minScore: options.minScore,
      mask,
      depth: this.#rescore,
      rescore: options.rescore,
      pool: options.pool,
    })
  }

  /**
   * Scores of the given ids against `query`, best first (ties to the smaller id), with the same
   * precision as {@link VectorIndex.search}'s: for candidates another list found, when their
   * cosines are wanted too. Costs O(ids × dims) — no scan — where a `search` filtered to a few
   * ids widens its candidate pool until it has covered them, up to the whole index. Unknown ids
   * are left out.
   *
   * @example
   * index.scoreIds(Float32Array.of(0.6, 0.8, 0), ['a', 'b', 'zz'])
   * // => [{ id: 'b', score: ~0.8 }, { id: 'a', score: ~0.6 }]
   */
  scoreIds(query: Float32Array, ids: Iterable<string>): VectorHit[] {
    this.#checkVector(query, 'query')
    const rows: number[] = []
    for (const id of ids) {
      const row = this.#store.rowOf(id)
      if (row !== undefined) rows.push(row)
    }
    if (rows.length === 0) return []
    return scoreRows(this.#store, this.#refiner, query, rows)
  }

  /** A copy of the index as typed arrays; see {@link VectorIndexSnapshot}. */
  serialize(): VectorIndexSnapshot {
    return this.#snapshotOf(this.#store.export())
  }

  /**
   * {@link serialize}'s snapshot without the copy: views of the index's own arrays, to read at
   * once (hash, copy out a part) and let go. Valid only until the index next changes; a
   * structured clone of a view clones the whole buffer under it, so never store one.
   */
  view(): VectorIndexSnapshot {
    return this.#snapshotOf(this.#store.view())
  }

  #snapshotOf({ residuals, ...rows }: RowArrays): VectorIndexSnapshot {
    return {
      version: VECTOR_SNAPSHOT_VERSION,
      dims: this.dims,
      stride: this.stride,
      exact: this.#exact,
      refineBits: this.refineBits,
      rescore: this.#rescore,
      ...rows,
      signs: residuals,
    }
  }

  /**
   * Rebuilds an index from {@link VectorIndex.serialize}'s output, sized exactly, or from such a
   * snapshot cut in parts (consecutive rows each, the same settings): the rows are copied once,
   * into the index, where joining the parts first copied them twice (issue 25: 53 MB at 100k).
   * `options` override the snapshot's; asking for `exact: 'memory'` from a snapshot without
   * vectors, or for other `refineBits` than it has, throws. Throws `InvalidInputError`
   * (`BAD_OPTION`, field `snapshot`) on any mismatch, so the caller rebuilds instead of loading
   * something half right.
   */
  static deserialize(
    snapshot: VectorIndexSnapshot | readonly VectorIndexSnapshot[],
    options: VectorIndexOptions = {},
  ): VectorIndex {
    const parts: readonly VectorIndexSnapshot[] = isParts(snapshot) ? snapshot : [snapshot]
    const first = parts[0]
    if (!first) throw badSnapshot('expected at least one part, got none')
    for (const part of parts) {
      checkVersion(part)
      if (part.dims !== first.dims || part.exact !== first.exact) {
        throw badSnapshot('expected parts of one snapshot, got differing settings')
      }
    }
    const index = new VectorIndex(first.dims, {
      exact: first.exact,
      refineBits: first.refineBits,
      rescore: first.rescore,
      ...options,
    })
    const store = index.#store
    const shape = {
      dims: index.dims,
      stride: index.stride,
      words: store.layout.words,
      refineBits: index.refineBits,
      needsVectors: index.#exact === 'memory',
    }
    const rows = parts.map((part) => snapshotRows(part, shape))
    if (!store.import(rows)) throw badSnapshot('ids are not unique')
    return index
  }

  /** Bytes of the typed arrays held (WebAssembly memory included), capacity slack included. */
  memoryBytes(): number {
    return (
      this.#store.bytes() +
      (this.#groupMask?.byteLength ?? 0) +
      this.#refiner.bytes() +
      (this.#signs?.bytes() ?? 0) +
      (this.#bands?.bytes() ?? 0)
    )
  }

  /** The rows' sign codes, hashed from every row's int8 codes the first time they are wanted. */
  #signCodes(): SignCodes {
    if (this.#signs) return this.#signs
    const { codes, steps } = this.#store.kernel
    const centre = new Float32Array(this.dims)
    for (let row = 0; row < this.size; row++) {
      const step = (steps[row] as number) / this.size
      for (let i = 0, base = row * this.stride; i < this.dims; i++) {
        centre[i] = (centre[i] as number) + (codes[base + i] as number) * step
      }
    }
    const signs = new SignCodes(new SimHasher(this.dims), centre, this.#wasm)
    // An eighth of slack, as the rows keep: sized exactly, the next add would copy them all.
    signs.reserve(withSlack(this.size))
    this.#signs = signs
    for (let row = 0; row < this.size; row++) this.#fileRow(row)
    return signs
  }

  /** The SimHash buckets over the sign codes, filed the first time they are wanted. */
  #bandIndex(): BandIndex {
    if (this.#bands) return this.#bands
    const bands = new BandIndex(this.#signCodes())
    bands.reserve(withSlack(this.size))
    for (let row = 0; row < this.size; row++) bands.add(row)
    this.#bands = bands
    return bands
  }

  /** Hashes a row from its int8 codes (so the codes derive from the rows alone) and files it. */
  #fileRow(row: number): void {
    const { codes, steps } = this.#store.kernel
    this.#signs?.set(row, codes, row * this.stride, steps[row] as number)
    this.#bands?.add(row)
  }

  #checkVector(vector: Float32Array, field: string): void {
    if (!(vector instanceof Float32Array) || vector.length !== this.dims) {
      const got = vector instanceof Float32Array ? `${vector.length} dimensions` : typeof vector
      throw new InvalidInputError(
        'BAD_VECTOR',
        field,
        `expected a Float32Array of ${this.dims} dimensions, got ${got}`,
      )
    }
    for (let i = 0; i < vector.length; i++) {
      if (!Number.isFinite(vector[i])) {
        throw new InvalidInputError(
          'BAD_VECTOR',
          field,
          `expected finite components, got ${vector[i]} at ${i}`,
        )
      }
    }
  }

  /** A bitset of the wanted groups, its buffer reused between searches. */
  #maskOf(groups: ReadonlySet<number> | readonly number[]): Uint32Array {
    this.#groupMask ??= new Uint32Array(GROUP_MASK_WORDS)
    return fillGroupMask(this.#groupMask, groups)
  }
}

function isParts(
  snapshot: VectorIndexSnapshot | readonly VectorIndexSnapshot[],
): snapshot is readonly VectorIndexSnapshot[] {
  return Array.isArray(snapshot)
}

/** `rows` and an eighth more: the growth step of the row store, the codes and the buckets. */
export function withSlack(rows: number): number {
  return rows + Math.max(64, rows >>> 3)
}
