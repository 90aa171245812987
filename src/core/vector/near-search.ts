import type { BandIndex } from './band-index.ts'
import { nearBinary } from './binary-pass.ts'
import type { VectorHit } from './options.ts'
import type { Refiner } from './refiner.ts'
import type { RowStore } from './row-store.ts'
import { scoreRows, searchRows } from './search.ts'
import type { SignCodes } from './sign-codes.ts'
import { hammingBound } from './simhash.ts'

/** Options of {@link VectorIndex.searchNear}. */
export interface NearOptions {
  /**
   * Least cosine a hit may have. From `BAND_FLOOR` (0.9) up, rows come from the SimHash
   * buckets, which find near duplicates as a scan finds them (0.97: 821 of 821 on MSC + LoCoMo
   * texts, 2,333 of 2,334 on clustered vectors; 0.95: 872 of 872); below it, from the binary
   * pass over every row's sign code (`related`'s 0.8; see `pool`). -1..1.
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
  /**
   * Below `BAND_FLOOR`: rows nearest by Hamming distance that are re-scored. Integer >= 1.
   * @default 64 (`NEAR_POOL`)
   */
  pool?: number
}

export const NEAR_SCAN_BELOW = 4096

/** What {@link searchNearRows} needs beyond the options: the mask made, the default depth. */
export interface NearFilter {
  minScore: number
  mask: Uint32Array | undefined
  depth: number
  rescore?: number | undefined
  pool?: number | undefined
}

/**
 * Least `minScore` served by the SimHash buckets: below it a row shares a band with the query too
 * rarely (58 % of `related` hits at 0.8 on MSC + LoCoMo), so the binary pass runs instead.
 */
export const BAND_FLOOR = 0.9

/**
 * Rows the binary pass of a low-`minScore` `searchNear` refines: the nearest by Hamming distance.
 * `related` wants three hits above 0.8; on MSC + LoCoMo n-gram vectors the exact scan's hits lie
 * within the nearest few dozen codes (scripts/bench/near-dedup.ts), and at 32k rows 64 of them
 * cost a quarter of the scan.
 */
export const NEAR_POOL = 64

/**
 * The best `k` rows at `filter.minScore` or more: the scan's top `k` when `signs` is null; else
 * from `BAND_FLOOR` up the rows sharing a band with the query whose codes lie within the Hamming
 * distance a row at `minScore` shows (but for about 1 in 10^5), re-scored precisely; below it
 * the `NEAR_POOL` rows nearest by Hamming distance within that bound, re-scored.
 */
export function searchNearRows(
  store: RowStore,
  refiner: Refiner,
  signs: SignCodes | null,
  bands: () => BandIndex,
  query: Float32Array,
  k: number,
  filter: NearFilter,
): VectorHit[] {
  if (!signs) {
    const hits = searchRows(store, refiner, query, k, filter)
    return hits.filter((h) => h.score >= filter.minScore)
  }
  const maxDistance = hammingBound(
    centredFloor(query, signs.centre, filter.minScore),
    signs.words * 32,
  )
  if (filter.minScore < BAND_FLOOR) {
    return nearBinary(store, refiner, signs, query, k, {
      minScore: filter.minScore,
      mask: filter.mask,
      pool: filter.pool ?? NEAR_POOL,
      maxDistance,
    })
  }
  const rows = bands().candidates(signs.hashQuery(query), maxDistance)
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
export function centredFloor(query: Float32Array, centre: Float32Array, minScore: number): number {
  let norm = 0
  for (let i = 0; i < query.length; i++) norm += ((query[i] as number) - (centre[i] as number)) ** 2
  const distance = 2 * (1 - minScore)
  return norm > distance ? Math.sqrt(1 - distance / norm) : -1
}
