import { InvalidInputError } from './errors'
import { DEFAULT_SCORE_FLOORS, DEFAULT_SCORE_SHARES, DEFAULT_TIE_EPSILON } from './options'
import type { ListEvidence, ListName } from './types'

/** One entry of a ranked list: a memory id and the list's raw score for it. */
export interface RankedItem {
  id: string
  score: number
  /**
   * For {@link combine}: only items of one list with the same group can be near-ties (recall
   * groups keyword hits by the query terms they matched, so a length-normalisation wobble is a
   * tie but a different matched term is not). @default one group for the whole list
   */
  tieGroup?: string
}

/**
 * One retrieval list, best first (position = index + 1). Ranks used for fusion come from the
 * scores (see {@link FuseOptions.tieEpsilon}); give items distinct scores, e.g. `-index`, when
 * only their order means something.
 */
export interface RankedList {
  name: ListName
  items: RankedItem[]
  /** Relative say of this list in fusion; 0 leaves it out. @default 1 */
  weight?: number
}

/** A memory after fusion, with what each list said about it. */
export interface FusedCandidate {
  id: string
  /** Σ weight / (rrfK + rank) over the lists that found it, with tie-shared ranks. */
  fused: number
  /** Each list's position (1-based) and raw score for this memory. */
  lists: Partial<Record<ListName, ListEvidence>>
  /** The rank each list contributed to `fused`: its position, shared with near-tied neighbours. */
  fusionRanks: Partial<Record<ListName, number>>
}

/** Options for {@link fuse}. */
export interface FuseOptions {
  /**
   * How close two raw scores of one list must be, relative to the larger, for the list to count
   * as unable to tell them apart. Fusion ranks are fractional: an item's rank is 1 + Σ over the
   * other items of how surely each outscores it, where a relative gap up to `tieEpsilon` is a tie
   * (counts 1/2, so near-tied items share their average rank and the other lists decide between
   * them), a gap of `2 × tieEpsilon` or more is clear (counts 1: the plain position, so RRF is
   * unchanged where a list is sure), and gaps between blend linearly, so ranks move smoothly
   * with scores.
   *
   * One number applies to every list; a record sets it per list and falls back to
   * {@link DEFAULT_TIE_EPSILON} for the others. Range `[0, 0.5)`; 0 shares exact ties only.
   * @default DEFAULT_TIE_EPSILON: keyword 0.1, vector 0, alias 0, tag 0
   */
  tieEpsilon?: number | Partial<Record<ListName, number>>
}

interface Accumulator {
  candidate: FusedCandidate
  listCount: number
  bestRank: number
  agreement: number
}

/** Fused scores closer than this, relative, are equal: sums in another order differ in ulps. */
const FUSED_EQUALITY = 1e-12

/**
 * Weighted reciprocal rank fusion: fused = Σ weight / (rrfK + rank) over the lists that found
 * each id. A list's near-tied items share a rank (see {@link FuseOptions.tieEpsilon}), so a list
 * that cannot tell candidates apart does not outvote one that can. Sorted by fused score; ties go
 * to the candidate found by more lists, then the better fusion rank, then the higher sum of
 * weight × score / list's top score, then the smaller id.
 *
 * @example
 * fuse([
 *   { name: 'keyword', items: [{ id: 'a', score: 9 }, { id: 'b', score: 4 }] },
 *   { name: 'vector', items: [{ id: 'b', score: 0.8 }] },
 * ], 60).map((c) => [c.id, c.fused.toFixed(4)])
 * // => [['b', '0.0325'], ['a', '0.0164']]
 */
export function fuse(
  lists: readonly RankedList[],
  rrfK: number,
  options: FuseOptions = {},
): FusedCandidate[] {
  if (!Number.isFinite(rrfK) || rrfK < 0) {
    throw new InvalidInputError('BAD_OPTION', 'rrfK', `expected a finite number >= 0, got ${rrfK}`)
  }
  const seen = new Set<ListName>()
  const byId = new Map<string, Accumulator>()
  for (const list of lists) {
    const weight = checkedWeight(list, seen)
    if (weight === 0) continue
    const items = uniqueItems(list)
    const ranks = sharedRanks(items, tieEpsilonFor(list.name, options.tieEpsilon))
    const top = items.reduce((max, item) => Math.max(max, Math.abs(item.score)), 0)
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as RankedItem
      const rank = ranks[i] as number
      const acc = accumulatorOf(byId, item.id)
      acc.candidate.fused += weight / (rrfK + rank)
      acc.candidate.lists[list.name] = { rank: i + 1, score: item.score }
      acc.candidate.fusionRanks[list.name] = rank
      acc.listCount++
      acc.bestRank = Math.min(acc.bestRank, rank)
      acc.agreement += weight * (top > 0 ? item.score / top : item.score)
    }
  }
  return [...byId.values()].sort(compareAccumulators).map((acc) => acc.candidate)
}

/**
 * Fusion ranks of a best-first list (see {@link FuseOptions.tieEpsilon}): 1 + Σ over the other
 * items of how surely each outscores this one — 1 when higher by 2 × epsilon (relative) or
 * more, 1/2 within epsilon, 0 when lower by 2 × epsilon or more, linear between. Scores all
 * farther apart than that give the plain positions 1, 2, 3….
 *
 * @example
 * sharedRanks([{ id: 'a', score: 4.4 }, { id: 'b', score: 4.2 }, { id: 'c', score: 1 }], 0.1)
 * // => [1.5, 1.5, 3]
 */
export function sharedRanks(items: readonly RankedItem[], epsilon: number): number[] {
  const n = items.length
  const score = (i: number) => (items[i] as RankedItem).score
  const sorted = items.every((item, i) => i === 0 || score(i - 1) >= item.score)
  const ranks: number[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const si = score(i)
    let rank = 1
    if (!sorted) {
      for (let j = 0; j < n; j++) if (j !== i) rank += outscores(score(j), si, epsilon)
    } else {
      // Sureness only grows with distance in a sorted list, so once a neighbour is clearly
      // apart every item beyond it is too: walk out from i until then.
      for (let j = i - 1; j >= 0; j--) {
        const o = outscores(score(j), si, epsilon)
        if (o === 1) {
          rank += j + 1
          break
        }
        rank += o
      }
      for (let j = i + 1; j < n; j++) {
        const o = outscores(score(j), si, epsilon)
        if (o === 0) break
        rank += o
      }
    }
    ranks[i] = rank
  }
  return ranks
}

/** How surely score a beats score b, in [0, 1]: 1/2 within epsilon, 0 or 1 beyond twice it. */
function outscores(a: number, b: number, epsilon: number): number {
  if (a === b) return 0.5
  // Gap over the larger magnitude first: epsilon × a tiny score would lose precision.
  const relative = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b))
  // Infinite scores give NaN: clearly apart, as is any gap when epsilon is 0.
  const sureness = epsilon > 0 && !Number.isNaN(relative) ? clamp(relative / epsilon - 1) : 1
  return a > b ? 0.5 + sureness / 2 : 0.5 - sureness / 2
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x))
}

function tieEpsilonFor(name: ListName, option: FuseOptions['tieEpsilon']): number {
  const epsilon =
    typeof option === 'number' ? option : (option?.[name] ?? DEFAULT_TIE_EPSILON[name])
  if (!(epsilon >= 0 && epsilon < 0.5)) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'tieEpsilon',
      `expected 0 <= epsilon < 0.5, got ${epsilon}`,
    )
  }
  return epsilon
}

/** The first occurrence of each id: a list that repeats an id meant its best position. */
function uniqueItems(list: RankedList): RankedItem[] {
  const seen = new Set<string>()
  const out: RankedItem[] = []
  for (const item of list.items) {
    if (Number.isNaN(item.score)) {
      throw new InvalidInputError('BAD_OPTION', `lists.${list.name}`, `score of ${item.id} is NaN`)
    }
    if (seen.has(item.id)) continue
    seen.add(item.id)
    out.push(item)
  }
  return out
}

/** The accumulator of `id`, created empty on first sight. */
function accumulatorOf(byId: Map<string, Accumulator>, id: string): Accumulator {
  let acc = byId.get(id)
  if (!acc) {
    acc = {
      candidate: { id, fused: 0, lists: {}, fusionRanks: {} },
      listCount: 0,
      bestRank: Number.POSITIVE_INFINITY,
      agreement: 0,
    }
    byId.set(id, acc)
  }
  return acc
}

function compareAccumulators(a: Accumulator, b: Accumulator): number {
  const fa = a.candidate.fused
  const fb = b.candidate.fused
  if (Math.abs(fa - fb) > FUSED_EQUALITY * Math.max(fa, fb)) return fb - fa
  if (a.listCount !== b.listCount) return b.listCount - a.listCount
  if (a.bestRank !== b.bestRank) return a.bestRank - b.bestRank
  if (a.agreement !== b.agreement) return b.agreement - a.agreement
  return a.candidate.id < b.candidate.id ? -1 : a.candidate.id > b.candidate.id ? 1 : 0
}

/** Options for {@link combine}. */
export interface CombineOptions {
  /**
   * The least score each list can give: a list's scores are mapped onto `[0, 1]` by
   * `(score - floor) / (top - floor)`, with `top` the best score the list returned for this
   * query. Theoretical floors rather than the lowest score seen, so a list whose candidates all
   * score alike (a weak embedder's cosines, say) spreads them over a sliver near 1 instead of
   * over the whole range, and has little say in the order. @default DEFAULT_SCORE_FLOORS
   */
  floors?: Partial<Record<ListName, number>>
  /**
   * Lists whose scores are already on `[0, 1]` (alias and tag hits scored by how selective the
   * name is); they are not rescaled by their top. @default ['alias', 'tag']
   */
  absolute?: readonly ListName[]
  /**
   * Each list's share of the combination, multiplied by the list's `weight` (the caller's knob,
   * 1 by default). @default DEFAULT_SCORE_SHARES
   */
  shares?: Partial<Record<ListName, number>>
  /**
   * Scores of one list closer than this, relative to the larger, are ones the list cannot tell
   * apart: each score is replaced by the mean of the scores within epsilon of it before
   * normalising, so BM25's length-normalisation wobble over templated facts leaves the decision
   * to the other lists. A number for every list or a record per list; range `[0, 1)`.
   * @default DEFAULT_TIE_EPSILON (keyword 0.1, others 0), as in {@link fuse}
   */
  tieEpsilon?: number | Partial<Record<ListName, number>>
  /**
   * The raw score a list would give a candidate it did not return, or undefined for none (the
   * candidate then gets 0 from that list). Recall passes exact cosines for keyword-only
   * candidates, so the vector evidence of every candidate is weighed, not just of those that
   * made the vector list's cut. @default none
   */
  outside?: Partial<Record<ListName, (id: string) => number | undefined>>
}

/**
 * Score fusion: a convex combination of each list's normalised scores (Bruch et al., "An
 * Analysis of Fusion Functions for Hybrid Retrieval", 2023: theoretical-min/observed-max
 * normalisation, "TM2C2"): fused = Σ weight × share × (score − floor) / (top − floor) over the
 * lists, with near-ties smoothed first ({@link CombineOptions.tieEpsilon}) and a candidate a list
 * did not return scored by {@link CombineOptions.outside} (else 0).
 *
 * Unlike RRF it listens to how sure each list is: near-tied BM25 scores (templated facts) leave
 * the decision to the vector list, a clear BM25 winner keeps its lead, and a list that scores its
 * candidates alike, like a weak embedder, hardly reorders the others. Like RRF, no list can add
 * more than its weight × share. Ties are broken as in {@link fuse}; `fusionRanks` holds list
 * positions.
 *
 * @example
 * combine([
 *   { name: 'keyword', items: [{ id: 'a', score: 9 }, { id: 'b', score: 4 }] },
 *   { name: 'vector', items: [{ id: 'b', score: 0.8 }, { id: 'a', score: 0.6 }] },
 * ]).map((c) => [c.id, c.fused.toFixed(3)])
 * // => [['a', '1.356'], ['b', '0.844']]
 */
export function combine(
  lists: readonly RankedList[],
  options: CombineOptions = {},
): FusedCandidate[] {
  const floors = { ...DEFAULT_SCORE_FLOORS, ...options.floors }
  const shares = { ...DEFAULT_SCORE_SHARES, ...options.shares }
  const absolute = options.absolute ?? ['alias', 'tag']
  const seen = new Set<ListName>()
  const byId = new Map<string, Accumulator>()
  const active: { name: ListName; share: number; floor: number; span: number }[] = []
  for (const list of lists) {
    const weight = checkedWeight(list, seen)
    if (weight === 0 || shares[list.name] === 0) continue
    const items = uniqueItems(list)
    if (items.length === 0) continue
    const share = weight * shares[list.name]
    const scores = smoothTies(items, tieEpsilonFor(list.name, options.tieEpsilon))
    const floor = floors[list.name]
    // A loop, not Math.max(...scores): a spread of a long list overflows the call stack.
    const top = absolute.includes(list.name) ? 1 : maxOf(scores)
    const span = top - floor
    active.push({ name: list.name, share, floor, span })
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as RankedItem
      const normal = span > 0 ? clamp01(((scores[i] as number) - floor) / span) : 1
      const acc = accumulatorOf(byId, item.id)
      acc.candidate.fused += share * normal
      acc.candidate.lists[list.name] = { rank: i + 1, score: item.score }
      acc.candidate.fusionRanks[list.name] = i + 1
      acc.listCount++
      acc.bestRank = Math.min(acc.bestRank, i + 1)
      acc.agreement += share * normal
    }
  }
  for (const { name, share, floor, span } of active) {
    const outside = options.outside?.[name]
    if (!outside) continue
    for (const acc of byId.values()) {
      if (acc.candidate.lists[name] !== undefined) continue
      const score = outside(acc.candidate.id)
      if (score !== undefined && span > 0)
        acc.candidate.fused += share * clamp01((score - floor) / span)
    }
  }
  return [...byId.values()].sort(compareAccumulators).map((acc) => acc.candidate)
}

/**
 * Each item's score replaced by the mean of the scores of its group (see
 * {@link RankedItem.tieGroup}) within `epsilon` of it, relative to the larger; scores farther
 * apart, or of other groups, are untouched, so a list keeps every preference it is sure of.
 *
 * @example
 * smoothTies(items(['a', 4.2], ['b', 4.1], ['c', 4.0], ['d', 2]), 0.1) // => [4.1, 4.1, 4.1, 2]
 */
export function smoothTies(items: readonly RankedItem[], epsilon: number): number[] {
  if (epsilon <= 0) return items.map((item) => item.score)
  return items.map((a) => {
    let sum = 0
    let n = 0
    for (const b of items) {
      if (a.tieGroup !== b.tieGroup) continue
      const gap = Math.abs(a.score - b.score)
      if (gap <= epsilon * Math.max(Math.abs(a.score), Math.abs(b.score))) {
        sum += b.score
        n++
      }
    }
    return sum / n
  })
}

function maxOf(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY
  for (const value of values) if (value > max) max = value
  return max
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x))
}

/** A list's weight, after checking that the list is new and its weight a finite number >= 0. */
function checkedWeight(list: RankedList, seen: Set<ListName>): number {
  if (seen.has(list.name)) {
    throw new InvalidInputError('BAD_OPTION', 'lists', `list ${list.name} given twice`)
  }
  seen.add(list.name)
  const weight = list.weight ?? 1
  if (!Number.isFinite(weight) || weight < 0) {
    throw new InvalidInputError(
      'BAD_OPTION',
      `weights.${list.name}`,
      `expected a finite number >= 0, got ${weight}`,
    )
  }
  return weight
}
