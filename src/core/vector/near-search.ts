import type { BandIndex } from './band-index.ts'
import type { VectorHit } from './options.ts'
import type { Refiner } from './refiner.ts'
import type { RowStore } from './row-store.ts'
import { scoreRows, searchRows } from './search.ts'
import { hammingBound, SimHasher } from './simhash.ts'

/** Options of {@link VectorIndex.searchNear}. */
export interface NearOptions {
  /**
   * Least cosine a hit may have. Near duplicates are found as a scan finds them (0.97: 821 of
   * 821 on MSC + LoCoMo texts, 2,333 of 2,334 on clustered vectors; 0.95: 872 of 872); lower
   * cosines are missed more often (0.8..0.97: 58 % found), so `related` keeps the scan
   * (docs/benchmarks.md). -1..1.
   */
  minScore: number
  /** Only rows added with one of these groups. */
  groups?: ReadonlySet<number> | readonly number[]
  /**
   * Below this many rows the index is scanned instead (exactly what `search` finds, filtered by
   * `minScore`): a scan of a few thousand rows costs less than hashing and bucket walks, and
   * small stores keep exact answers. Integer >= 0; 0 always uses the buckets, `Infinity` never.
   * @default 4096 (`NEAR_SCAN_BELOW`)
   */
  scanBelow?: number
  /** Candidates re-scored on the scan path, as `VectorFilter.rescore`. @default the index's */
  rescore?: number
}

export const NEAR_SCAN_BELOW = 4096

/** What {@link searchNearRows} needs beyond the options: the mask made, the default depth. */
export interface NearFilter {
  minScore: number
  mask: Uint32Array | undefined
  depth: number
  rescore?: number | undefined
}

const hashers = new Map<number, { hasher: SimHasher; code: Uint32Array }>()

/**
 * The best `k` rows at `filter.minScore` or more: the scan's top `k` when `bands` is null, else
 * the rows sharing a band with the query whose codes lie within the Hamming distance a row at
 * `minScore` shows (but for about 1 in 10^5), re-scored precisely.
 */
export function searchNearRows(
  store: RowStore,
  refiner: Refiner,
  bands: BandIndex | null,
  query: Float32Array,
  k: number,
  filter: NearFilter,
): VectorHit[] {
  if (!bands) {
    const hits = searchRows(store, refiner, query, k, filter)
    return hits.filter((h) => h.score >= filter.minScore)
  }
  const { hasher, code } = hasherFor(query.length)
  hasher.hash(query, 0, code, 0, 1, bands.centre)
  const rows = bands.candidates(
    code,
    hammingBound(centredFloor(query, bands.centre, filter.minScore), bands.words * 32),
  )
  const mask = filter.mask
  const eligible = mask
    ? rows.filter((r) => {
        const g = store.groups[r] as number
        return ((mask[g >>> 5] as number) & (1 << (g & 31))) !== 0
      })
    : rows
  if (eligible.length === 0) return []
  const hits = scoreRows(store, refiner, query, eligible)
  const out: VectorHit[] = []
  for (const hit of hits) {
    if (hit.score < filter.minScore || out.length === k) break
    out.push(hit)
  }
  return out
}

/**
 * The least cosine, after both are centred, between `query` and a unit row at `minScore` or
 * more from it. Centring keeps their distance d ≤ √(2 (1 − minScore)) but shortens both; over
 * every length the row may have, the cosine is least at √(1 − d² / |query − centre|²).
 */
function centredFloor(query: Float32Array, centre: Float32Array, minScore: number): number {
  let norm = 0
  for (let i = 0; i < query.length; i++) norm += ((query[i] as number) - (centre[i] as number)) ** 2
  const distance = 2 * (1 - minScore)
  return norm > distance ? Math.sqrt(1 - distance / norm) : -1
}

/** One hasher per dimension count: its rotation is fixed, so every index shares it. */
function hasherFor(dims: number): { hasher: SimHasher; code: Uint32Array } {
  let entry = hashers.get(dims)
  if (!entry) {
    const hasher = new SimHasher(dims)
    entry = { hasher, code: new Uint32Array(hasher.words) }
    hashers.set(dims, entry)
  }
  return entry
}
