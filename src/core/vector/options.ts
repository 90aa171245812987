import { InvalidInputError } from '../errors.ts'
import { MAX_REFINE_BITS } from './quantise.ts'

/** Options of a {@link VectorIndex}. */
export interface VectorIndexOptions {
  /**
   * How candidates from the int8 scan are re-scored. `'none'` keeps no float copy: candidates are
   * re-scored from their int8 codes refined by `refineBits` residual bits per dimension (see
   * there), about 550 bytes per 384-dim vector at the default. `'memory'` also keeps every
   * vector as float32 and re-scores exactly: the results of an exact scan at about 4× the memory
   * (about 2080 bytes per 384-dim vector).
   * @default 'none'
   */
  exact?: 'none' | 'memory'
  /**
   * Residual bits kept per dimension beyond the int8 code, for re-scoring candidates when
   * `exact` is `'none'`. Each bit costs dims / 8 bytes per vector and halves the re-scoring
   * error. Recall@10 against an exact float32 scan of 384-dim vectors, 10k..100k of them, on
   * random, clustered and n-gram sets (`scripts/bench/vector.ts`): 1 bit 0.979..0.992, 2 bits
   * 0.988..0.997, 3 bits 0.992..0.999. 0 re-scores from the int8 codes alone. Integer 0..8.
   * @default 3
   */
  refineBits?: number
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
  /**
   * From this many rows on, `search` runs a binary first pass (every row's 1-bit sign code, 48 B
   * at 384 dims, by Hamming distance) and scores only its best `binaryPool` rows from the int8
   * codes, instead of scanning every row's int8 codes (384 B): the scan reads memory at a
   * million rows where the binary pass stays in cache. Integer >= 0; `Infinity` never.
   * @default 200000
   */
  binaryAbove?: number
  /**
   * Rows the binary first pass hands on to the int8 scoring (one gathered SIMD pass), at least
   * 2 × the re-scored candidates. Recall@10 against exact float32 at 1000
   * (`scripts/bench/vector-binary.ts`): 0.995 on 100k clustered vectors (the int8 scan's 0.995),
   * 0.996 on 33.6k MSC + LoCoMo n-gram vectors (scan 0.997); isotropic random vectors, which
   * have no neighbourhoods for the codes to find, fall to 0.54 (0.80 at 4000), so keep
   * `binaryAbove` out of reach for such data. Integer >= 1.
   * @default 1000
   */
  binaryPool?: number
}

export const DEFAULT_VECTOR_INDEX_OPTIONS: Readonly<Required<VectorIndexOptions>> = Object.freeze({
  exact: 'none',
  refineBits: 3,
  rescore: 200,
  wasm: true,
  binaryAbove: 200_000,
  binaryPool: 1000,
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

export const MAX_DIMS = 16_384

/** `options` with defaults filled in, or `InvalidInputError` (`BAD_OPTION`) naming the field. */
export function resolveOptions(
  dims: number,
  options: VectorIndexOptions,
): Required<VectorIndexOptions> {
  const resolved = { ...DEFAULT_VECTOR_INDEX_OPTIONS, ...definedOnly(options) }
  const bad = (field: string, expected: string, got: unknown) =>
    new InvalidInputError('BAD_OPTION', field, `expected ${expected}, got ${String(got)}`)
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) {
    throw bad('dims', `an integer 1..${MAX_DIMS}`, dims)
  }
  if (resolved.exact !== 'none' && resolved.exact !== 'memory') {
    throw bad('exact', `'none' or 'memory'`, resolved.exact)
  }
  const bits = resolved.refineBits
  if (!Number.isInteger(bits) || bits < 0 || bits > MAX_REFINE_BITS) {
    throw bad('refineBits', `an integer 0..${MAX_REFINE_BITS}`, bits)
  }
  if (!Number.isInteger(resolved.rescore) || resolved.rescore < 1) {
    throw bad('rescore', 'an integer >= 1', resolved.rescore)
  }
  const above = resolved.binaryAbove
  if (!(Number.isInteger(above) || above === Number.POSITIVE_INFINITY) || above < 0) {
    throw bad('binaryAbove', 'an integer >= 0 or Infinity', above)
  }
  if (!Number.isInteger(resolved.binaryPool) || resolved.binaryPool < 1) {
    throw bad('binaryPool', 'an integer >= 1', resolved.binaryPool)
  }
  return resolved
}

/** Drops keys set to `undefined`, so they fall back to the defaults as absent keys do. */
function definedOnly(options: VectorIndexOptions): VectorIndexOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined))
}
