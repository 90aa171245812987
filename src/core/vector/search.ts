import { TopK } from '../top-k.ts'
import type { VectorFilter, VectorHit } from './options.ts'
import type { Refiner } from './refiner.ts'
import { MAX_GROUP, type RowStore } from './row-store.ts'

/*
 * A search in four stages: scan every row with the integer kernel → select the best `want`
 * candidates by the scan's estimate (group filter applied per row) → rescore the accepted ones
 * precisely → widen `want` fourfold if `accept` left fewer than k, until it has seen every
 * eligible row. Scores and verdicts are memoised across widenings.
 */

/** A row's precise score against the query being searched. */
export type RowScorer = (row: number) => number

/** A search's filter as the pipeline wants it: groups as a bitset, the index's default depth. */
export interface SearchFilter extends Omit<VectorFilter, 'groups'> {
  mask?: Uint32Array | undefined
  depth: number
}

export interface Candidates {
  rows: number[]
  /** Whether the candidates are every eligible row, so widening would find nothing new. */
  exhausted: boolean
}

/** The `k` best rows for `query` under `filter`, best first, ties to the smaller id. */
export function searchRows(
  store: RowStore,
  refiner: Refiner,
  query: Float32Array,
  k: number,
  filter: SearchFilter,
): VectorHit[] {
  const kernel = store.kernel
  const queryScale = kernel.prepare(query)
  const { dots, estimates } = kernel.scan(store.size)
  const precise = scorer(store, refiner, query, queryScale, (row) => dots[row] as number)
  // Only a rejecting `accept` widens, and only then may a row be scored twice.
  const score = filter.accept ? memoise(precise) : precise
  const accepted = verdicts(store.ids, filter.accept)
  let want = Math.max(filter.rescore ?? filter.depth, 4 * k)
  for (;;) {
    const candidates = selectCandidates(store, estimates, filter.mask, want)
    const hits = rescore(candidates.rows.filter(accepted), score)
    if (hits.length >= k || candidates.exhausted) return best(hits, k, store.ids)
    want *= 4
  }
}

/** Scores of the given rows with the same precision as {@link searchRows}, best first. */
export function scoreRows(
  store: RowStore,
  refiner: Refiner,
  query: Float32Array,
  rows: readonly number[],
): VectorHit[] {
  const kernel = store.kernel
  const queryScale = kernel.prepare(query)
  const score = scorer(store, refiner, query, queryScale, (row) => kernel.dotRow(row))
  return best(rescore(rows, score), rows.length, store.ids)
}

/** Rows sampled for a threshold: every SAMPLE_EVERY-th. */
const SAMPLE_EVERY = 16

/**
 * The best `want` eligible rows by estimate, as a full pass would pick them (ties to the lower
 * row). Where the index is large next to `want`, a sample of every 16th row sets a threshold
 * that about 2 × want rows pass, the kernel collects those in one pass, and only they are
 * ranked; if fewer than `want` eligible rows pass, the full pass runs instead.
 */
export function selectCandidates(
  store: RowStore,
  estimates: Float32Array,
  mask: Uint32Array | undefined,
  want: number,
): Candidates {
  const size = store.size
  const eligible = eligibility(store.groups, mask)
  if (size >= 32 * want) {
    const threshold = sampleThreshold(estimates, eligible, size, want)
    if (threshold !== undefined) {
      const top = new TopK(want)
      for (const r of store.kernel.collect(threshold, size)) {
        if (eligible(r)) top.push(r, estimates[r] as number)
      }
      // Not exhausted: at least `want` eligible rows passed, and maybe more lie below.
      if (top.size === want) return { rows: rowsOf(top), exhausted: false }
    }
  }
  return fullSelection(estimates, eligible, size, want)
}

function fullSelection(
  estimates: Float32Array,
  eligible: (row: number) => boolean,
  size: number,
  want: number,
): Candidates {
  const top = new TopK(Math.min(want, size))
  let threshold = top.threshold
  let count = 0
  for (let r = 0; r < size; r++) {
    if (!eligible(r)) continue
    count++
    const estimate = estimates[r] as number
    if (estimate >= threshold) {
      top.push(r, estimate)
      threshold = top.threshold
    }
  }
  const rows = rowsOf(top)
  return { rows, exhausted: rows.length >= count }
}

/** An estimate that about 2 × want eligible rows reach, or undefined if the sample is too thin. */
function sampleThreshold(
  estimates: Float32Array,
  eligible: (row: number) => boolean,
  size: number,
  want: number,
): number | undefined {
  const top = new TopK(Math.ceil((2 * want) / SAMPLE_EVERY) + 8)
  for (let r = 0; r < size; r += SAMPLE_EVERY) {
    if (eligible(r)) top.push(r, estimates[r] as number)
  }
  return top.size === top.k ? top.threshold : undefined
}

/** Whether a row passes the group filter: a bit test of its group in the mask. */
export function eligibility(
  groups: Uint16Array,
  mask: Uint32Array | undefined,
): (row: number) => boolean {
  if (!mask) return () => true
  return (row) => {
    const g = groups[row] as number
    return ((mask[g >>> 5] as number) & (1 << (g & 31))) !== 0
  }
}

export function rowsOf(top: TopK): number[] {
  return top.drain().map((c) => c.index)
}

export function rescore(
  rows: readonly number[],
  score: RowScorer,
): { row: number; score: number }[] {
  return rows.map((row) => ({ row, score: score(row) }))
}

/** The first `k` hits by score, ties to the smaller id, as ids. */
export function best(
  hits: { row: number; score: number }[],
  k: number,
  ids: readonly string[],
): VectorHit[] {
  hits.sort((a, b) => b.score - a.score || compareIds(ids[a.row] as string, ids[b.row] as string))
  return hits.slice(0, k).map((h) => ({ id: ids[h.row] as string, score: h.score }))
}

/** Exact from the float copies when the store keeps them, else refined from codes and planes. */
export function scorer(
  store: RowStore,
  refiner: Refiner,
  query: Float32Array,
  queryScale: number,
  scanned: (row: number) => number,
): RowScorer {
  const vectors = store.vectors
  if (vectors) return (row) => exactDot(query, vectors, row)
  refiner.prepare(query)
  const { residuals, steps } = store
  return (row) => refiner.score(scanned(row), queryScale, row, residuals, steps[row] as number)
}

function exactDot(query: Float32Array, vectors: Float32Array, row: number): number {
  const dims = query.length
  let sum = 0
  for (let i = 0, base = row * dims; i < dims; i++) {
    sum += (query[i] as number) * (vectors[base + i] as number)
  }
  return sum
}

export function memoise(score: RowScorer): RowScorer {
  const known = new Map<number, number>()
  return (row) => {
    let value = known.get(row)
    if (value === undefined) {
      value = score(row)
      known.set(row, value)
    }
    return value
  }
}

/** `accept` by row, asked at most once per row; everything passes without it. */
export function verdicts(
  ids: readonly string[],
  accept: ((id: string) => boolean) | undefined,
): (row: number) => boolean {
  if (!accept) return () => true
  const known = new Map<number, boolean>()
  return (row) => {
    let ok = known.get(row)
    if (ok === undefined) {
      ok = accept(ids[row] as string)
      known.set(row, ok)
    }
    return ok
  }
}

export const GROUP_MASK_WORDS = (MAX_GROUP + 1) / 32

/** A bitset of the wanted groups, written into `mask`; out-of-range groups never match. */
export function fillGroupMask(
  mask: Uint32Array,
  groups: ReadonlySet<number> | readonly number[],
): Uint32Array {
  mask.fill(0)
  for (const g of groups) {
    if (Number.isInteger(g) && g >= 0 && g <= MAX_GROUP) {
      mask[g >>> 5] = (mask[g >>> 5] as number) | (1 << (g & 31))
    }
  }
  return mask
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
