import { InvalidInputError } from './errors'
import type { ListEvidence, ListName } from './types'

/** One entry of a ranked list: a memory id and the list's raw score for it. */
export interface RankedItem {
  id: string
  score: number
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

/**
 * Default tie epsilons. BM25 scores of templated facts ("X's brother is Y", "X's sister is Z")
 * differ only through length normalisation, about 6 % per token of length on short facts, while a
 * real keyword preference moves the score by 25 % (a repeated term) to 100 % or more (an extra
 * matched term, which MiniSearch also multiplies in): keyword gaps up to 10 % are ties, 20 % and
 * beyond are clear. Cosines sit on a fine absolute scale where 0.83 against 0.81 is a real
 * preference, so the vector list keeps its ranks; alias and tag hits all score 1 and tie anyway.
 */
export const DEFAULT_TIE_EPSILON: Readonly<Record<ListName, number>> = Object.freeze({
  keyword: 0.1,
  vector: 0,
  alias: 0,
  tag: 0,
})

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
    if (weight === 0) continue
    const items = uniqueItems(list)
    const ranks = sharedRanks(items, tieEpsilonFor(list.name, options.tieEpsilon))
    const top = items.reduce((max, item) => Math.max(max, Math.abs(item.score)), 0)
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as RankedItem
      const rank = ranks[i] as number
      let acc = byId.get(item.id)
      if (!acc) {
        acc = {
          candidate: { id: item.id, fused: 0, lists: {}, fusionRanks: {} },
          listCount: 0,
          bestRank: Number.POSITIVE_INFINITY,
          agreement: 0,
        }
        byId.set(item.id, acc)
      }
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

function compareAccumulators(a: Accumulator, b: Accumulator): number {
  const fa = a.candidate.fused
  const fb = b.candidate.fused
  if (Math.abs(fa - fb) > FUSED_EQUALITY * Math.max(fa, fb)) return fb - fa
  if (a.listCount !== b.listCount) return b.listCount - a.listCount
  if (a.bestRank !== b.bestRank) return a.bestRank - b.bestRank
  if (a.agreement !== b.agreement) return b.agreement - a.agreement
  return a.candidate.id < b.candidate.id ? -1 : a.candidate.id > b.candidate.id ? 1 : 0
}
