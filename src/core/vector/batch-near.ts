import { BAND_BITS, keyOf, MAX_BANDS } from './band-index.ts'
import { BAND_FLOOR, centredFloor } from './near-search.ts'
import { hamming, hammingBound, SimHasher } from './simhash.ts'

/** An earlier row of the batch at or above the threshold, and the cosine. */
export interface BatchPair {
  row: number
  score: number
}

/**
 * Up to this many rows a batch is compared pair by pair (every pair of a group, exactly); from
 * it on, through SimHash bands. 512 rows are 131k pairs, most dismissed after a sixth of their
 * dimensions (see {@link exactPairs}): a few milliseconds, and a small batch keeps exact answers.
 */
export const BATCH_EXACT_BELOW = 512

/**
 * The pairs of one batch of new unit vectors that a near-duplicate check wants: for each row,
 * every earlier row of its group at a cosine of `threshold` or more, best first (ties to the
 * earlier row), as exact float32 dot products. Rows with none are absent. The caller walks the
 * rows in order and takes, for each, the best earlier row it kept, so the batch is compared with
 * itself once here instead of searched once per row.
 *
 * Below {@link BATCH_EXACT_BELOW} rows, below `BAND_FLOOR` (0.9) or under 64 dimensions every
 * pair of a group is scored, exactly; otherwise the rows are hashed once each (SimHash, centred
 * on the batch's mean), filed by 16-bit bands with a counting sort per band, and only pairs that
 * share a band and lie within the Hamming distance a pair at `threshold` shows (but for about 1
 * in 10^5) are scored: a pair at 0.97 shares some band with a probability above 99.9 %, as the
 * index's buckets find them (`VectorIndex.searchNear`).
 *
 * @example
 * const a = Float32Array.of(1, 0)
 * batchNearPairs([a, Float32Array.of(0.99, 0.141), Float32Array.of(0, 1)], [0, 0, 0], 0.97)
 * // => Map { 1 => [{ row: 0, score: ~0.99 }] }
 */
export function batchNearPairs(
  vectors: readonly Float32Array[],
  groups: ArrayLike<number>,
  threshold: number,
): Map<number, BatchPair[]> {
  const dims = vectors[0]?.length ?? 0
  const banded = vectors.length >= BATCH_EXACT_BELOW && threshold >= BAND_FLOOR && dims >= 64
  const pairs = banded
    ? bandedPairs(vectors, groups, threshold)
    : exactPairs(vectors, groups, threshold)
  for (const list of pairs.values()) list.sort((x, y) => y.score - x.score || x.row - y.row)
  return pairs
}

/**
 * {@link batchNearPairs} scoring every pair of a group, whatever the batch's size (quadratic,
 * exact): the reference the banded path is measured against (scripts/bench/near-dedup.ts).
 */
export function exactBatchPairs(
  vectors: readonly Float32Array[],
  groups: ArrayLike<number>,
  threshold: number,
): Map<number, BatchPair[]> {
  const pairs = exactPairs(vectors, groups, threshold)
  for (const list of pairs.values()) list.sort((x, y) => y.score - x.score || x.row - y.row)
  return pairs
}

/**
 * Every pair of a group, in blocks of one row against all earlier ones. A pair is dismissed once
 * its dot product over the first `head` dimensions plus the product of the rest's norms (an upper
 * bound on the rest, by Cauchy–Schwarz) is below `threshold`, which for unrelated rows happens
 * at the head: the bound is exact, so nothing at the threshold is lost.
 */
function exactPairs(
  vectors: readonly Float32Array[],
  groups: ArrayLike<number>,
  threshold: number,
): Map<number, BatchPair[]> {
  const out = new Map<number, BatchPair[]>()
  const dims = vectors[0]?.length ?? 0
  const head = Math.min(dims, Math.max(16, Math.ceil(dims / 6)))
  const tails = vectors.map((v) => {
    let sum = 0
    for (let d = head; d < dims; d++) sum += (v[d] as number) ** 2
    return Math.sqrt(sum)
  })
  // A hair under the threshold: float32 rounding must not dismiss a pair the exact dot keeps.
  const cut = threshold - 1e-6
  for (let i = 1; i < vectors.length; i++) {
    const a = vectors[i] as Float32Array
    const group = groups[i]
    const tail = tails[i] as number
    for (let j = 0; j < i; j++) {
      if (groups[j] !== group) continue
      const b = vectors[j] as Float32Array
      let dot = 0
      for (let d = 0; d < head; d++) dot += (a[d] as number) * (b[d] as number)
      if (dot + tail * (tails[j] as number) < cut) continue
      for (let d = head; d < dims; d++) dot += (a[d] as number) * (b[d] as number)
      if (dot >= threshold) addPair(out, i, j, dot)
    }
  }
  return out
}

/** The banded path of {@link batchNearPairs}. */
function bandedPairs(
  vectors: readonly Float32Array[],
  groups: ArrayLike<number>,
  threshold: number,
): Map<number, BatchPair[]> {
  const m = vectors.length
  const dims = (vectors[0] as Float32Array).length
  const hasher = new SimHasher(dims)
  const words = hasher.words
  const bits = words * 32
  const centre = new Float32Array(dims)
  for (const v of vectors)
    for (let d = 0; d < dims; d++) centre[d] = (centre[d] as number) + (v[d] as number)
  for (let d = 0; d < dims; d++) centre[d] = (centre[d] as number) / m
  const codes = new Uint32Array(m * words)
  const bounds = new Uint16Array(m)
  for (let i = 0; i < m; i++) {
    const v = vectors[i] as Float32Array
    hasher.hash(v, 0, codes, i * words, 1, centre)
    bounds[i] = hammingBound(centredFloor(v, centre, threshold), bits)
  }
  const out = new Map<number, BatchPair[]>()
  // Pairs already scored, as i × m + j (exact in a double up to 2^53, so up to 9.4e7 rows).
  const scored = new Set<number>()
  const buckets = 1 << BAND_BITS
  const starts = new Int32Array(buckets + 1)
  const order = new Int32Array(m)
  const keys = new Uint16Array(m)
  const bands = Math.min(MAX_BANDS, Math.floor(bits / BAND_BITS))
  for (let band = 0; band < bands; band++) {
    starts.fill(0)
    for (let i = 0; i < m; i++) {
      const key = keyOf(codes, i * words, band)
      keys[i] = key
      starts[key + 1] = (starts[key + 1] as number) + 1
    }
    for (let k = 0; k < buckets; k++)
      starts[k + 1] = (starts[k + 1] as number) + (starts[k] as number)
    // Rows in ascending order within each bucket, so the earlier row of a pair comes first.
    const fill = starts.slice(0, buckets)
    for (let i = 0; i < m; i++) {
      const key = keys[i] as number
      order[fill[key] as number] = i
      fill[key] = (fill[key] as number) + 1
    }
    for (let k = 0; k < buckets; k++) {
      const from = starts[k] as number
      const to = starts[k + 1] as number
      for (let p = from + 1; p < to; p++) {
        const i = order[p] as number
        const group = groups[i]
        const bound = bounds[i] as number
        for (let q = from; q < p; q++) {
          const j = order[q] as number
          if (groups[j] !== group) continue
          if (hamming(codes, i * words, codes, j * words, words) > bound) continue
          const key = i * m + j
          if (scored.has(key)) continue
          scored.add(key)
          const dot = dotOf(vectors[i] as Float32Array, vectors[j] as Float32Array)
          if (dot >= threshold) addPair(out, i, j, dot)
        }
      }
    }
  }
  return out
}

function dotOf(a: Float32Array, b: Float32Array): number {
  let dot = 0
  for (let d = 0; d < a.length; d++) dot += (a[d] as number) * (b[d] as number)
  return dot
}

function addPair(out: Map<number, BatchPair[]>, i: number, j: number, score: number): void {
  const list = out.get(i)
  if (list) list.push({ row: j, score })
  else out.set(i, [{ row: j, score }])
}
