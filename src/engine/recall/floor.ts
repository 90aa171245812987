import type { ModelCalibration } from '../../core/adaptive-fusion.ts'
import { DEFAULT_RETRIEVAL } from '../../core/defaults/recall.ts'
import {
  applyCosineBar,
  applyFloor,
  type FloorPolicy,
  type HitEvidence,
  liftOf,
} from '../../core/recall/floor.ts'
import type { Memory, RecallHit } from '../../core/types.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import type { RecallLists } from './lists.ts'
import type { Ranked } from './rank.ts'

/** What the floor stage reads besides the ranked candidates. */
export interface FloorInput {
  q: AnalyzedQuery
  found: Pick<RecallLists, 'terms' | 'cosines' | 'vector'>
  /** The embedder's calibration; undefined for a model nobody calibrated. */
  calibration: Readonly<ModelCalibration> | undefined
  /** The bars, or null when the caller switched the floor off (`floor: false`). */
  policy: FloorPolicy | null
  /** Index terms of a memory's text (the keyword index's `termsOf`). */
  termsOf: (memory: Memory) => readonly string[]
  /** The recall's `k`: `filtered` counts the dropped candidates that ranked within it. */
  k: number
  /**
   * How deep the vector list was asked to read (`retrieval.listDepth`): a read that came back
   * shorter covered the scope. @default DEFAULT_RETRIEVAL.listDepth
   */
  listDepth?: number
  /**
   * The query's best cosine to the open world, read for a small store ({@link smallRead}); the
   * floor then judges the store's best hit against it (`SMALL_STORE_FLOOR`).
   */
  openWorld?: number
}

/** The candidates that cleared the floor, in order, and what recall reports about it. */
export interface Floored {
  kept: Ranked[]
  /** Candidates within the top `k` (before the floor) that the floor dropped. */
  filtered: number
  /** Lift of each kept candidate that matched no query term and stayed on its cosine alone. */
  cosineOnly: Map<string, number>
}

/**
 * The relevance floor as a recall stage (issue 13): every candidate's evidence — the share of
 * the query's terms it matched, its cosine, whether an exact list named it — judged on the
 * model's scale by {@link applyFloor}; order is kept. Without a vector list no calibration is
 * needed (every keyword match stands). A model without a calibration cannot have its cosines
 * read on its scale, so when the vector list ran only the raw `minCosine` bar applies (off by
 * default): too lax beats losing answers.
 */
export function floorCandidates(ranked: readonly Ranked[], input: FloorInput): Floored {
  const { policy, calibration, found } = input
  const vectorRan = found.vector?.list !== undefined
  if (policy === null) return { kept: [...ranked], filtered: 0, cosineOnly: new Map() }
  const evidence = evidenceReader(input)
  if (vectorRan && calibration === undefined) {
    if (policy.minCosine <= -1) return { kept: [...ranked], filtered: 0, cosineOnly: new Map() }
    const { kept } = applyCosineBar(ranked, evidence, policy.minCosine)
    return { kept, filtered: countFiltered(ranked, kept, input.k), cosineOnly: new Map() }
  }
  const scale = calibration ?? UNUSED_SCALE
  const memories = smallRead(input)
  const read =
    input.openWorld === undefined ? { memories } : { memories, openWorld: input.openWorld }
  const { kept } = applyFloor(ranked, evidence, scale, policy, read)
  const filtered = countFiltered(ranked, kept, input.k)
  const cosineOnly = new Map<string, number>()
  for (const r of kept) {
    const e = evidence(r)
    if (!e.exact && e.coverage === 0 && e.cosine !== undefined) {
      cosineOnly.set(r.memory.id, liftOf(e.cosine, scale))
    }
  }
  return { kept, filtered, cosineOnly }
}

/** Candidates within the top `k` (before the floor) that the floor dropped. */
function countFiltered(ranked: readonly Ranked[], kept: readonly Ranked[], k: number): number {
  const keptSet = new Set(kept)
  return ranked.slice(0, k).filter((r) => !keptSet.has(r)).length
}

/**
 * How many cosines the query's standing rests on: the whole scope when the store is smaller than
 * one list's read (`listDepth`), so that the vector read came back short, semantic and hybrid
 * alike; else many (the bar is then `queryLift`). A semantic read cut at `listDepth` looks the same
 * as a store of that size, and a store that fills a list has a distribution of its own to judge
 * by: on the tuning sets the expected-maximum bar at 45 memories let 2 more of 16 off-topic
 * queries through and saved no question (docs/quality.md).
 */
export function smallRead({
  found,
  listDepth = DEFAULT_RETRIEVAL.listDepth,
}: Pick<FloorInput, 'found' | 'listDepth'>): number {
  if (!found.vector?.list || found.vector.cosineBound !== undefined) return Number.POSITIVE_INFINITY
  const read = found.cosines.size
  return read < listDepth ? read : Number.POSITIVE_INFINITY
}

/** Keyword-only recall reads no cosine; a scale is still needed to satisfy the signature. */
const UNUSED_SCALE: Readonly<ModelCalibration> = {
  unrelated: 0,
  spread: 1,
  nearDuplicate: 1,
  vectorShare: 0,
}

/**
 * Each candidate's {@link HitEvidence}, memoised. Coverage counts the query terms BM25 matched
 * (text, aliases, tags; a joined compound such as `authhandler` included), or, for a candidate
 * BM25 did not return, the query terms in its text. With quoted phrases every keyword hit holds
 * them all, so it is exact; alias and tag hits name a query word, so they are exact too. A
 * hybrid candidate beyond the deep vector read is given the read's last cosine, an upper bound.
 */
function evidenceReader(input: FloorInput): (r: Ranked) => HitEvidence {
  const { q, found } = input
  const unique = new Set(q.terms)
  const searched = new Set([...q.terms, ...q.searchTerms])
  const cache = new Map<Ranked, HitEvidence>()
  return (r) => {
    let e = cache.get(r)
    if (e) return e
    const { lists } = r.candidate
    const bm25 = found.terms.get(r.memory.id)
    const matched = bm25 ?? input.termsOf(r.memory)
    const counted = bm25 ? searched : unique
    let hits = 0
    for (const term of new Set(matched)) if (counted.has(term)) hits++
    const phraseHit = q.phrases.length > 0 && lists.keyword !== undefined
    e = {
      coverage: unique.size > 0 ? Math.min(1, hits / unique.size) : lists.keyword ? 1 : 0,
      exact: phraseHit || lists.alias !== undefined || lists.tag !== undefined,
    }
    const cosine = found.cosines.get(r.memory.id) ?? found.vector?.cosineBound
    if (cosine !== undefined && found.vector?.list) e.cosine = cosine
    cache.set(r, e)
    return e
  }
}

/** Appends to each explained hit that stayed on its cosine alone how far above noise it stood. */
export function explainFloor(hits: RecallHit[], floored: Floored): void {
  for (const hit of hits) {
    const lift = floored.cosineOnly.get(hit.id)
    if (lift !== undefined && hit.explanation) {
      hit.explanation += `; floor: no term matched, cosine ${lift.toFixed(1)} spreads above unrelated`
    }
  }
}
