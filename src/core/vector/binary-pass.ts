import { TopK } from '../top-k.ts'
import type { VectorHit } from './options.ts'
import type { Refiner } from './refiner.ts'
import type { RowStore } from './row-store.ts'
import { best, memoise, rescore, rowsOf, type SearchFilter, scorer, verdicts } from './search.ts'
import type { SignCodes } from './sign-codes.ts'

/*
 * The binary first pass: the Hamming distance of every row's sign code to the query's (48 B a
 * row at 384 dims, one popcount per 64 bits) picks a pool of rows, and only the pool is scored
 * from the int8 codes and refined. A scan reads 8× the bytes of this pass, which at a million
 * rows is the difference between memory bandwidth and a cache-friendly sweep.
 */

/**
 * The `pool` rows nearest the last hashed query by Hamming distance, at most `maxDistance` bits
 * away and of a group in `mask` (all without one), ties to the lower row; fewer when fewer
 * qualify. One pass over every row's distance files those within the bound (the group test
 * inlined: at a million rows a closure call per row would cost more than the WebAssembly pass
 * itself); the cut is then read from their counts and only they are walked again. Under a
 * `related` bound that is a few hundred rows of a hundred thousand.
 */
export function nearestCodes(
  signs: SignCodes,
  store: RowStore,
  mask: Uint32Array | undefined,
  pool: number,
  maxDistance = signs.words * 32,
): number[] {
  const size = store.size
  const groups = store.groups
  const dists = signs.distances(size)
  const counts = new Uint32Array(maxDistance + 2)
  const within = withinBuffer(size)
  let filed = 0
  for (let r = 0; r < size; r++) {
    const d = dists[r] as number
    if (d > maxDistance) continue
    if (mask) {
      const g = groups[r] as number
      if (((mask[g >>> 5] as number) & (1 << (g & 31))) === 0) continue
    }
    counts[d] = (counts[d] as number) + 1
    within[filed++] = r
  }
  // The cut: the least distance by which `pool` rows have been seen; rows at it fill the rest.
  let cut = 0
  let below = 0
  while (cut <= maxDistance && below + (counts[cut] as number) < pool)
    below += counts[cut++] as number
  const out: number[] = []
  let atCut = pool - below
  for (let k = 0; k < filed; k++) {
    const r = within[k] as number
    const d = dists[r] as number
    if (d < cut) out.push(r)
    else if (d === cut && atCut > 0) {
      out.push(r)
      atCut--
    }
  }
  return out
}

let withinRows = new Int32Array(0)

/** A scratch list of row numbers, grown to `size` and reused by every pass. */
function withinBuffer(size: number): Int32Array {
  if (withinRows.length < size) withinRows = new Int32Array(Math.max(size, withinRows.length * 2))
  return withinRows
}

/**
 * {@link searchRows} with the binary pass in front: the best `pool` rows by Hamming distance are
 * scored by their int8 codes, the best `want` of those are refined, and a rejecting `accept`
 * widens pool and want fourfold until `k` hits are found or every eligible row has been seen.
 */
export function searchBinary(
  store: RowStore,
  refiner: Refiner,
  signs: SignCodes,
  query: Float32Array,
  k: number,
  filter: SearchFilter & { pool: number },
): VectorHit[] {
  const kernel = store.kernel
  const queryScale = kernel.prepare(query)
  signs.hashQuery(query)
  const dots = new Map<number, number>()
  const dotOf = (row: number) => {
    let dot = dots.get(row)
    if (dot === undefined) {
      dot = kernel.dotRow(row)
      dots.set(row, dot)
    }
    return dot
  }
  const precise = scorer(store, refiner, query, queryScale, dotOf)
  const score = filter.accept ? memoise(precise) : precise
  const accepted = verdicts(store.ids, filter.accept)
  const steps = store.steps
  let want = Math.max(filter.rescore ?? filter.depth, 4 * k)
  let pool = Math.max(filter.pool, 2 * want)
  for (;;) {
    const rows = nearestCodes(signs, store, filter.mask, pool)
    const fresh = rows.filter((r) => !dots.has(r))
    const found = kernel.dotRows(fresh)
    for (let i = 0; i < fresh.length; i++) dots.set(fresh[i] as number, found[i] as number)
    const top = new TopK(want)
    // float32 estimates, as the scan's, so a full pool selects what the scan would.
    for (const r of rows) top.push(r, Math.fround(Math.fround(dotOf(r)) * (steps[r] as number)))
    const hits = rescore(rowsOf(top).filter(accepted), score)
    if (hits.length >= k || rows.length < pool) return best(hits, k, store.ids)
    want *= 4
    pool *= 4
  }
}

/**
 * The best `k` rows at `minScore` or more among the `pool` nearest by Hamming distance within
 * `maxDistance` bits (a bound a row at `minScore` exceeds about once in 10^5), every one of them
 * refined: `searchNear` at cosines too low for the SimHash buckets (`related`, from 0.8).
 */
export function nearBinary(
  store: RowStore,
  refiner: Refiner,
  signs: SignCodes,
  query: Float32Array,
  k: number,
  filter: { minScore: number; mask: Uint32Array | undefined; pool: number; maxDistance: number },
): VectorHit[] {
  signs.hashQuery(query)
  const rows = nearestCodes(signs, store, filter.mask, filter.pool, filter.maxDistance)
  if (rows.length === 0) return []
  const kernel = store.kernel
  const queryScale = kernel.prepare(query)
  // One gathered int8 pass over the pool, not a JavaScript dot product per row.
  const dots = kernel.dotRows(rows)
  const at = new Map(rows.map((r, i) => [r, i]))
  const score = scorer(
    store,
    refiner,
    query,
    queryScale,
    (r) => dots[at.get(r) as number] as number,
  )
  const out: VectorHit[] = []
  for (const hit of best(rescore(rows, score), rows.length, store.ids)) {
    if (hit.score < filter.minScore || out.length === k) break
    out.push(hit)
  }
  return out
}
