import { InvalidInputError } from './errors'
import { TopK } from './top-k'

/** Options of a {@link VectorIndex}. */
export interface VectorIndexOptions {
  /**
   * How candidates from the int8 scan are re-scored. `'none'` keeps no float copy: candidates are
   * re-scored from their int8 codes refined by one stored residual bit per dimension (a 9-bit
   * reconstruction: scores within about ±0.0005 of the exact cosine, recall@10 against an exact
   * scan about 0.99 where neighbours crowd within 0.001 of each other), about 442 bytes per
   * 384-dim vector. `'memory'` also keeps every vector as float32 and re-scores exactly: the
   * results of an exact scan at 4.5× the memory (about 1980 bytes per 384-dim vector).
   * @default 'none'
   */
  exact?: 'none' | 'memory'
  /**
   * Candidates taken from the int8 scan and re-scored, at least 4 × k. More costs a little time
   * and buys recall on very dense neighbourhoods, or with a selective `accept`. Integer >= 1;
   * 50..1000 is sensible.
   * @default 200
   */
  rescore?: number
  /**
   * Scan with WebAssembly SIMD where the runtime allows it (about 15× a JS scan); `false` forces
   * the plain JS scan, which gives the same results.
   * @default true
   */
  wasm?: boolean
}

export const DEFAULT_VECTOR_INDEX_OPTIONS: Readonly<Required<VectorIndexOptions>> = Object.freeze({
  exact: 'none',
  rescore: 200,
  wasm: true,
})

/** Restricts a search. Both conditions must hold. */
export interface VectorFilter {
  /** Only rows added with one of these groups: a bitset test per row as scan scores are read. */
  groups?: ReadonlySet<number> | readonly number[]
  /** Called for candidates only, never per row; the search over-fetches to fill `k`. */
  accept?: (id: string) => boolean
  /**
   * Candidates re-scored for this search, overriding the index's `rescore` (still at least
   * 4 × k). A near-duplicate check wants one hit above 0.97 and can afford far fewer.
   */
  rescore?: number
}

export interface VectorHit {
  id: string
  /** Dot product with the query: the cosine for unit vectors (see `exact` for precision). */
  score: number
}

/**
 * A structured-clone-friendly image of a {@link VectorIndex}: typed arrays plus the id list, to be
 * stored in IndexedDB as is. Row `r` owns `codes[r*stride .. r*stride+stride)` and
 * `signs[r*words ..]` with `words = ceil(dims / 32)`.
 */
export interface VectorIndexSnapshot {
  version: number
  dims: number
  stride: number
  exact: 'none' | 'memory'
  rescore: number
  ids: string[]
  codes: Int8Array
  /** Per row: the value of one code step (max |component| / 127). */
  scales: Float32Array
  /** Per row and dimension: whether the quantisation residual was >= 0. */
  signs: Uint32Array
  groups: Uint16Array
  /** Float32 copies, only when `exact` is `'memory'`. */
  vectors?: Float32Array
}

/** Bumped whenever the snapshot layout or the quantisation changes. */
export const VECTOR_SNAPSHOT_VERSION = 1

const MAX_DIMS = 16_384
const MAX_GROUP = 0xffff
const CODE_MAX = 127

/**
 * Flat in-memory vector index for cosine top-k over unit vectors, sized for 100k × 384 in a
 * browser worker. Each vector is stored as int8 codes with a per-row scale and one residual bit
 * per dimension; a search scans every row with an integer dot product (WebAssembly SIMD, JS
 * fallback), keeps the best `rescore` by that estimate and re-scores them precisely (see
 * {@link VectorIndexOptions.exact}).
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
  #words: number
  #exact: 'none' | 'memory'
  #rescore: number
  #useWasm: boolean
  #capacity = 0
  #kernel: ScanKernel
  #scales = new Float32Array(0)
  #signs = new Uint32Array(0)
  #groups = new Uint16Array(0)
  #vectors: Float32Array | undefined
  #ids: string[] = []
  #rows = new Map<string, number>()
  #groupMask: Uint32Array | undefined
  #refiner: Refiner | undefined
  #queryCodes: Int16Array | undefined

  constructor(dims: number, options: VectorIndexOptions = {}) {
    if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'dims',
        `expected an integer 1..${MAX_DIMS}, got ${dims}`,
      )
    }
    const exact = options.exact ?? DEFAULT_VECTOR_INDEX_OPTIONS.exact
    if (exact !== 'none' && exact !== 'memory') {
      throw new InvalidInputError(
        'BAD_OPTION',
        'exact',
        `expected 'none' or 'memory', got ${String(exact)}`,
      )
    }
    const rescore = options.rescore ?? DEFAULT_VECTOR_INDEX_OPTIONS.rescore
    if (!Number.isInteger(rescore) || rescore < 1) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'rescore',
        `expected an integer >= 1, got ${rescore}`,
      )
    }
    this.dims = dims
    this.stride = strideFor(dims)
    this.#words = Math.ceil(dims / 32)
    this.#exact = exact
    this.#rescore = rescore
    this.#useWasm = options.wasm ?? DEFAULT_VECTOR_INDEX_OPTIONS.wasm
    this.#kernel = createKernel(this.stride, this.#useWasm)
    if (exact === 'memory') this.#vectors = new Float32Array(0)
  }

  get size(): number {
    return this.#ids.length
  }

  /** Which scan runs: `'wasm'` (SIMD) or `'js'`. */
  get backend(): 'wasm' | 'js' {
    return this.#kernel.kind
  }

  has(id: string): boolean {
    return this.#rows.has(id)
  }

  /** Ids in row order (which changes on removal). */
  ids(): string[] {
    return this.#ids.slice()
  }

  /**
   * Adds a vector, or replaces the one stored under `id` (keeping its row). `group` is a small
   * integer 0..65535 the caller maps its filters to (namespace + type, say). Amortised O(dims).
   */
  add(id: string, vector: Float32Array, group = 0): void {
    this.#checkVector(vector, 'vector')
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
    this.#write(row, vector, group)
  }

  /** Removes `id`; the last row moves into its place. O(dims). */
  remove(id: string): boolean {
    const row = this.#rows.get(id)
    if (row === undefined) return false
    const last = this.#ids.length - 1
    if (row !== last) {
      const { stride } = this
      const words = this.#words
      this.#kernel.codes.copyWithin(row * stride, last * stride, (last + 1) * stride)
      this.#signs.copyWithin(row * words, last * words, (last + 1) * words)
      this.#scales[row] = this.#scales[last] as number
      this.#groups[row] = this.#groups[last] as number
      this.#vectors?.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims)
      const moved = this.#ids[last] as string
      this.#ids[row] = moved
      this.#rows.set(moved, row)
    }
    this.#ids.pop()
    this.#rows.delete(id)
    return true
  }

  clear(): void {
    this.#ids = []
    this.#rows.clear()
    this.#capacity = 0
    this.#kernel = createKernel(this.stride, this.#useWasm)
    this.#scales = new Float32Array(0)
    this.#signs = new Uint32Array(0)
    this.#groups = new Uint16Array(0)
    if (this.#vectors) this.#vectors = new Float32Array(0)
  }

  /**
   * Makes room for `capacity` rows at once (a rebuild that knows its count), so growth leaves no
   * slack. Growth on `add` is by an eighth, keeping slack under 12.5 %.
   */
  reserve(capacity: number): void {
    if (capacity <= this.#capacity) return
    const next = Math.max(capacity, this.#capacity + Math.max(64, this.#capacity >>> 3))
    this.#kernel.reserve(next)
    this.#scales = grow(this.#scales, next)
    this.#signs = grow(this.#signs, next * this.#words)
    this.#groups = grow(this.#groups, next)
    if (this.#vectors) this.#vectors = grow(this.#vectors, next * this.dims)
    this.#capacity = next
  }

  /**
   * The `k` rows most similar to `query`, best first; ties go to the smaller id. Scores are
   * re-scored dot products (exact with `exact: 'memory'`).
   */
  search(query: Float32Array, k: number, filter: VectorFilter = {}): VectorHit[] {
    this.#checkVector(query, 'query')
    if (!Number.isInteger(k) || k < 0) {
      throw new InvalidInputError('BAD_OPTION', 'k', `expected an integer >= 0, got ${k}`)
    }
    const size = this.#ids.length
    if (k === 0 || size === 0) return []
    const { scores, scale: queryScale } = this.#kernel.scan(query, size)
    let refine: Refiner | undefined
    if (!this.#vectors) {
      this.#refiner ??= new Refiner(this.dims, this.#words)
      refine = this.#refiner.prepare(query)
    }
    const scales = this.#scales
    const groups = this.#groups
    const mask = filter.groups ? this.#maskOf(filter.groups) : undefined
    const accept = filter.accept
    const precise = new Map<number, number>()
    const verdicts = new Map<number, boolean>()
    let want = Math.max(filter.rescore ?? this.#rescore, 4 * k)
    for (;;) {
      const top = new TopK(Math.min(want, size))
      let threshold = top.threshold
      let eligible = 0
      for (let r = 0; r < size; r++) {
        if (mask) {
          const g = groups[r] as number
          if (((mask[g >>> 5] as number) & (1 << (g & 31))) === 0) continue
        }
        eligible++
        const estimate = (scores[r] as number) * (scales[r] as number)
        if (estimate >= threshold) {
          top.push(r, estimate)
          threshold = top.threshold
        }
      }
      const candidates = top.drain()
      const hits: { row: number; score: number }[] = []
      for (const { index: row } of candidates) {
        if (accept) {
          let ok = verdicts.get(row)
          if (ok === undefined) {
            ok = accept(this.#ids[row] as string)
            verdicts.set(row, ok)
          }
          if (!ok) continue
        }
        let score = precise.get(row)
        if (score === undefined) {
          score = refine
            ? refine.score(scores[row] as number, queryScale, row, this.#signs, this.#scales)
            : this.#exactScore(query, row)
          precise.set(row, score)
        }
        hits.push({ row, score })
      }
      if (hits.length >= k || candidates.length >= eligible) {
        const ids = this.#ids
        hits.sort(
          (a, b) => b.score - a.score || compareIds(ids[a.row] as string, ids[b.row] as string),
        )
        return hits.slice(0, k).map((h) => ({ id: ids[h.row] as string, score: h.score }))
      }
      want *= 4
    }
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
      const row = this.#rows.get(id)
      if (row !== undefined) rows.push(row)
    }
    if (rows.length === 0) return []
    const hits: { row: number; score: number }[] = []
    if (this.#vectors) {
      for (const row of rows) hits.push({ row, score: this.#exactScore(query, row) })
    } else {
      const { stride } = this
      this.#queryCodes ??= new Int16Array(stride)
      const q = this.#queryCodes
      const queryScale = quantiseQuery(query, q, stride)
      this.#refiner ??= new Refiner(this.dims, this.#words)
      const refine = this.#refiner.prepare(query)
      const codes = this.#kernel.codes
      for (const row of rows) {
        // The integer dot product the scan kernels compute, for this row only.
        let dot = 0
        for (let i = 0, base = row * stride; i < stride; i++) {
          dot += (codes[base + i] as number) * (q[i] as number)
        }
        hits.push({ row, score: refine.score(dot, queryScale, row, this.#signs, this.#scales) })
      }
    }
    const all = this.#ids
    hits.sort((a, b) => b.score - a.score || compareIds(all[a.row] as string, all[b.row] as string))
    return hits.map((h) => ({ id: all[h.row] as string, score: h.score }))
  }

  /** A copy of the index as typed arrays; see {@link VectorIndexSnapshot}. */
  serialize(): VectorIndexSnapshot {
    const n = this.#ids.length
    const snapshot: VectorIndexSnapshot = {
      version: VECTOR_SNAPSHOT_VERSION,
      dims: this.dims,
      stride: this.stride,
      exact: this.#exact,
      rescore: this.#rescore,
      ids: this.#ids.slice(),
      codes: this.#kernel.codes.slice(0, n * this.stride),
      scales: this.#scales.slice(0, n),
      signs: this.#signs.slice(0, n * this.#words),
      groups: this.#groups.slice(0, n),
    }
    if (this.#vectors) snapshot.vectors = this.#vectors.slice(0, n * this.dims)
    return snapshot
  }

  /**
   * Rebuilds an index from {@link VectorIndex.serialize}'s output, sized exactly. `options`
   * override the snapshot's; asking for `exact: 'memory'` from a snapshot without vectors throws.
   * Throws `InvalidInputError` (`BAD_OPTION`, field `snapshot`) on any mismatch, so the caller
   * rebuilds instead of loading something half right.
   */
  static deserialize(snapshot: VectorIndexSnapshot, options: VectorIndexOptions = {}): VectorIndex {
    const bad = (why: string) => new InvalidInputError('BAD_OPTION', 'snapshot', why)
    if (snapshot?.version !== VECTOR_SNAPSHOT_VERSION) {
      throw bad(`expected version ${VECTOR_SNAPSHOT_VERSION}, got ${String(snapshot?.version)}`)
    }
    const index = new VectorIndex(snapshot.dims, {
      exact: snapshot.exact,
      rescore: snapshot.rescore,
      ...options,
    })
    const n = snapshot.ids.length
    if (snapshot.stride !== index.stride) {
      throw bad(`expected stride ${index.stride}, got ${snapshot.stride}`)
    }
    const sized =
      snapshot.codes.length === n * index.stride &&
      snapshot.scales.length === n &&
      snapshot.signs.length === n * index.#words &&
      snapshot.groups.length === n
    if (!sized) throw bad(`array lengths do not match ${n} rows of ${snapshot.dims} dimensions`)
    if (index.#vectors && snapshot.vectors?.length !== n * snapshot.dims) {
      throw bad(`exact 'memory' needs ${n * snapshot.dims} stored vector components`)
    }
    index.reserve(n)
    index.#kernel.codes.set(snapshot.codes)
    index.#scales.set(snapshot.scales)
    index.#signs.set(snapshot.signs)
    index.#groups.set(snapshot.groups)
    if (index.#vectors && snapshot.vectors) index.#vectors.set(snapshot.vectors)
    index.#ids = snapshot.ids.slice()
    for (let r = 0; r < n; r++) index.#rows.set(index.#ids[r] as string, r)
    if (index.#rows.size !== n) throw bad('ids are not unique')
    return index
  }

  /** Bytes of the typed arrays held (WebAssembly memory included), capacity slack included. */
  memoryBytes(): number {
    return (
      this.#kernel.bytes() +
      this.#scales.byteLength +
      this.#signs.byteLength +
      this.#groups.byteLength +
      (this.#vectors?.byteLength ?? 0) +
      (this.#groupMask?.byteLength ?? 0) +
      (this.#refiner?.bytes() ?? 0)
    )
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

  /** Quantises `vector` into `row`: code = round(x / step), residual sign kept as one bit. */
  #write(row: number, vector: Float32Array, group: number): void {
    let max = 0
    for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i] as number))
    const inv = max > 0 ? CODE_MAX / max : 0
    const codes = this.#kernel.codes
    const base = row * this.stride
    const signBase = row * this.#words
    const signs = this.#signs
    signs.fill(0, signBase, signBase + this.#words)
    // Padding must be zero: WebAssembly memory reused from the scratch scores is not.
    codes.fill(0, base + vector.length, base + this.stride)
    for (let i = 0; i < vector.length; i++) {
      const t = (vector[i] as number) * inv
      const code = Math.round(t)
      codes[base + i] = code
      const word = signBase + (i >>> 5)
      if (t >= code) signs[word] = (signs[word] as number) | (1 << (i & 31))
    }
    this.#scales[row] = max / CODE_MAX
    this.#groups[row] = group
    this.#vectors?.set(vector, row * this.dims)
  }

  #exactScore(query: Float32Array, row: number): number {
    const v = this.#vectors as Float32Array
    const base = row * this.dims
    let sum = 0
    for (let i = 0; i < this.dims; i++) sum += (query[i] as number) * (v[base + i] as number)
    return sum
  }

  /** A bitset of the wanted groups, reused between searches. */
  #maskOf(groups: ReadonlySet<number> | readonly number[]): Uint32Array {
    this.#groupMask ??= new Uint32Array((MAX_GROUP + 1) / 32)
    const mask = this.#groupMask
    mask.fill(0)
    for (const g of groups) {
      if (Number.isInteger(g) && g >= 0 && g <= MAX_GROUP) {
        mask[g >>> 5] = (mask[g >>> 5] as number) | (1 << (g & 31))
      }
    }
    return mask
  }
}

/**
 * Re-scores rows from the 9-bit reconstruction code + (bit ? 0.25 : -0.25): the residual was
 * uniform in [-0.5, 0.5) and its sign halves the error. The int8 part comes from the scan
 * (divided by the query scale); the bit part is Σ over set bits of q, read a byte at a time from
 * a per-query table of subset sums.
 */
class Refiner {
  #dims: number
  #words: number
  #table: Float64Array
  #quarterSum = 0

  constructor(dims: number, words: number) {
    this.#dims = dims
    this.#words = words
    this.#table = new Float64Array(words * 4 * 256)
  }

  prepare(query: Float32Array): this {
    const table = this.#table
    const dims = this.#dims
    for (let p = 0; p < this.#words * 4; p++) {
      const row = p * 256
      for (let b = 1; b < 256; b++) {
        const low = b & -b
        const i = p * 8 + (31 - Math.clz32(low))
        table[row + b] = (table[row + (b ^ low)] as number) + (i < dims ? (query[i] as number) : 0)
      }
    }
    let sum = 0
    for (let i = 0; i < dims; i++) sum += query[i] as number
    this.#quarterSum = sum / 4
    return this
  }

  score(
    scanned: number,
    queryScale: number,
    row: number,
    signs: Uint32Array,
    scales: Float32Array,
  ): number {
    const table = this.#table
    let bits = 0
    for (let w = 0, p = row * this.#words; w < this.#words; w++, p++) {
      const word = signs[p] as number
      const t = w * 1024
      bits +=
        (table[t + (word & 255)] as number) +
        (table[t + 256 + ((word >>> 8) & 255)] as number) +
        (table[t + 512 + ((word >>> 16) & 255)] as number) +
        (table[t + 768 + (word >>> 24)] as number)
    }
    const int8 = queryScale > 0 ? scanned / queryScale : 0
    return (int8 + bits / 2 - this.#quarterSum) * (scales[row] as number)
  }

  bytes(): number {
    return this.#table.byteLength
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function grow<T extends Float32Array | Uint32Array | Uint16Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length)
  next.set(array)
  return next
}

/**
 * Row length in bytes: dims padded to 16-byte SIMD blocks, and to a whole number of unrolled
 * chunks of at most 32 blocks (384 → 384, 1536 → 1536, 100 → 112).
 */
export function strideFor(dims: number): number {
  const blocks = Math.ceil(dims / 16)
  const chunks = Math.ceil(blocks / MAX_UNROLL)
  return chunks * Math.ceil(blocks / chunks) * 16
}

// ---------------------------------------------------------------------------------------------
// Scan kernels: int32 dot products of every row's int8 codes with an int16 query.

interface ScanKernel {
  readonly kind: 'wasm' | 'js'
  /** capacity × stride codes; replaced when the kernel grows. */
  readonly codes: Int8Array
  reserve(capacity: number): void
  /**
   * Scores of rows [0, rows) against `query` quantised as round(query × scale), in a buffer
   * reused by the next scan.
   */
  scan(query: Float32Array, rows: number): { scores: Int32Array; scale: number }
  bytes(): number
}

const MAX_UNROLL = 32

/** Largest |query code|: keeps Σ over the row of 127 × q within int32 (no wrap in i32 lanes). */
function queryMax(stride: number): number {
  return Math.min(32_767, Math.floor(0x7fffffff / (stride * CODE_MAX)))
}

function quantiseQuery(query: Float32Array, out: Int16Array, stride: number): number {
  let max = 0
  for (let i = 0; i < query.length; i++) max = Math.max(max, Math.abs(query[i] as number))
  const scale = max > 0 ? queryMax(stride) / max : 0
  for (let i = 0; i < query.length; i++) out[i] = Math.round((query[i] as number) * scale)
  return scale
}

function createKernel(stride: number, wasm: boolean): ScanKernel {
  const module = wasm ? scanModule(stride) : undefined
  return module ? new WasmKernel(module, stride) : new JsKernel(stride)
}

class JsKernel implements ScanKernel {
  readonly kind = 'js'
  codes = new Int8Array(0)
  #stride: number
  #query: Int16Array
  #scores = new Int32Array(0)

  constructor(stride: number) {
    this.#stride = stride
    this.#query = new Int16Array(stride)
  }

  reserve(capacity: number): void {
    const codes = new Int8Array(capacity * this.#stride)
    codes.set(this.codes)
    this.codes = codes
    this.#scores = new Int32Array(capacity)
  }

  scan(query: Float32Array, rows: number): { scores: Int32Array; scale: number } {
    const stride = this.#stride
    const q = this.#query
    const codes = this.codes
    const scores = this.#scores
    const scale = quantiseQuery(query, q, stride)
    // Integers stay below 2^31, so these sums equal the SIMD kernel's exactly.
    for (let r = 0, base = 0; r < rows; r++, base += stride) {
      let a0 = 0
      let a1 = 0
      let a2 = 0
      let a3 = 0
      for (let i = 0; i < stride; i += 4) {
        a0 += (codes[base + i] as number) * (q[i] as number)
        a1 += (codes[base + i + 1] as number) * (q[i + 1] as number)
        a2 += (codes[base + i + 2] as number) * (q[i + 2] as number)
        a3 += (codes[base + i + 3] as number) * (q[i + 3] as number)
      }
      scores[r] = a0 + a1 + a2 + a3
    }
    return { scores, scale }
  }

  bytes(): number {
    return this.codes.byteLength + this.#scores.byteLength + this.#query.byteLength
  }
}

const PAGE = 65_536

/** Memory layout: [query int16 × stride][codes capacity × stride][scores int32 × capacity]. */
class WasmKernel implements ScanKernel {
  readonly kind = 'wasm'
  codes = new Int8Array(0)
  #stride: number
  #memory: WebAssembly.Memory
  #scanFn: (query: number, codes: number, rows: number, out: number) => void
  #codesOffset: number
  #scoresOffset = 0
  #query = new Int16Array(0)
  #scores = new Int32Array(0)

  constructor(module: WebAssembly.Module, stride: number) {
    this.#stride = stride
    this.#codesOffset = stride * 2
    this.#memory = new WebAssembly.Memory({ initial: 1 })
    const instance = new WebAssembly.Instance(module, { e: { m: this.#memory } })
    this.#scanFn = instance.exports.scan as (q: number, c: number, r: number, o: number) => void
    this.reserve(0)
  }

  reserve(capacity: number): void {
    // Codes stay in place as the memory grows; only the scratch scores move past them.
    this.#scoresOffset = this.#codesOffset + capacity * this.#stride
    const needed = this.#scoresOffset + capacity * 4
    const have = this.#memory.buffer.byteLength
    if (needed > have) this.#memory.grow(Math.ceil((needed - have) / PAGE))
    const buffer = this.#memory.buffer
    this.#query = new Int16Array(buffer, 0, this.#stride)
    this.codes = new Int8Array(buffer, this.#codesOffset, capacity * this.#stride)
    this.#scores = new Int32Array(buffer, this.#scoresOffset, capacity)
  }

  scan(query: Float32Array, rows: number): { scores: Int32Array; scale: number } {
    const scale = quantiseQuery(query, this.#query, this.#stride)
    this.#scanFn(0, this.#codesOffset, rows, this.#scoresOffset)
    return { scores: this.#scores, scale }
  }

  bytes(): number {
    return this.#memory.buffer.byteLength
  }
}

const modules = new Map<number, WebAssembly.Module | null>()

/** The compiled scan for `stride`, or `undefined` where WebAssembly SIMD is unavailable. */
function scanModule(stride: number): WebAssembly.Module | undefined {
  let module = modules.get(stride)
  if (module === undefined) {
    try {
      module = new WebAssembly.Module(scanModuleBytes(stride))
    } catch {
      // No WebAssembly, no SIMD, or a CSP without 'wasm-unsafe-eval': the JS scan takes over.
      module = null
    }
    modules.set(stride, module)
  }
  return module ?? undefined
}

/**
 * Hand-assembled WebAssembly (SIMD) for
 * `scan(q, codes, rows, out)`: for each row, out[r] = Σ codes[r][i] × q[i] in int32, where q is
 * int16. Per 16 codes: one load, sign-extension of each half to int16, two i32x4.dot_i16x8_s
 * against the query, two adds. Blocks are unrolled in chunks of at most 32 (a small module, well
 * under the 4 KB synchronous-compile limit of browser main threads).
 */
function scanModuleBytes(stride: number): Uint8Array<ArrayBuffer> {
  const blocks = stride / 16
  const chunks = Math.ceil(blocks / MAX_UNROLL)
  const unroll = blocks / chunks
  const [Q, CODES, ROWS, OUT, V, ACC, QP, END] = [0, 1, 2, 3, 4, 5, 6, 7]
  const get = (local: number) => [0x20, local]
  const set = (local: number) => [0x21, local]
  const simd = (op: number) => [0xfd, ...uleb(op)]
  const load = (offset: number) => [...simd(0x00), 0, ...uleb(offset)]
  const [I16X8_EXTEND_LOW_S, I16X8_EXTEND_HIGH_S, I32X4_DOT_I16X8_S, I32X4_ADD] = [
    0x87, 0x88, 0xba, 0xae,
  ]
  const body: number[] = [
    ...[0x02, 0x40, ...get(ROWS), 0x45, 0x0d, 0], // block; if rows == 0 exit
    ...[0x03, 0x40], // loop over rows
    ...[...simd(0x0c), ...new Array<number>(16).fill(0), ...set(ACC)], // acc = 0
    ...[...get(Q), ...set(QP), ...get(CODES), 0x41, ...sleb(stride), 0x6a, ...set(END)],
    ...[0x03, 0x40, ...get(ACC)], // loop over chunks
  ]
  for (let b = 0; b < unroll; b++) {
    body.push(...get(CODES), ...load(16 * b), ...set(V))
    body.push(...get(V), ...simd(I16X8_EXTEND_LOW_S), ...get(QP), ...load(32 * b))
    body.push(...simd(I32X4_DOT_I16X8_S))
    body.push(...get(V), ...simd(I16X8_EXTEND_HIGH_S), ...get(QP), ...load(32 * b + 16))
    body.push(...simd(I32X4_DOT_I16X8_S), ...simd(I32X4_ADD), ...simd(I32X4_ADD))
  }
  body.push(
    ...set(ACC),
    ...[...get(QP), 0x41, ...sleb(32 * unroll), 0x6a, ...set(QP)],
    ...[...get(CODES), 0x41, ...sleb(16 * unroll), 0x6a, 0x22, CODES, ...get(END), 0x47, 0x0d, 0],
    0x0b, // end chunk loop; codes now points at the next row
    ...get(OUT),
    ...[...get(ACC), ...simd(0x1b), 0, ...get(ACC), ...simd(0x1b), 1, 0x6a],
    ...[...get(ACC), ...simd(0x1b), 2, 0x6a, ...get(ACC), ...simd(0x1b), 3, 0x6a],
    ...[0x36, 2, 0], // i32.store
    ...[...get(OUT), 0x41, 4, 0x6a, ...set(OUT)],
    ...[...get(ROWS), 0x41, 1, 0x6b, 0x22, ROWS, 0x0d, 0], // rows--; continue while rows != 0
    ...[0x0b, 0x0b, 0x0b],
  )
  const code = [
    ...vec([
      [2, 0x7b],
      [2, 0x7f],
    ]),
    ...body,
  ] // locals: 2 × v128, 2 × i32
  const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))]
  const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content]
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, vec([[0x60, ...vec([[0x7f], [0x7f], [0x7f], [0x7f]]), 0]])), // (i32 × 4) -> ()
    ...section(2, vec([[...name('e'), ...name('m'), 0x02, 0x00, 1]])), // import memory, min 1 page
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('scan'), 0x00, 0]])),
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ])
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()]
}

function uleb(value: number): number[] {
  const out: number[] = []
  let n = value >>> 0
  do {
    let byte = n & 0x7f
    n >>>= 7
    if (n !== 0) byte |= 0x80
    out.push(byte)
  } while (n !== 0)
  return out
}

function sleb(value: number): number[] {
  const out: number[] = []
  let n = value | 0
  for (;;) {
    const byte = n & 0x7f
    n >>= 7
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}
