import {
  type AdaptivePolicy,
  adaptiveShares,
  type ModelCalibration,
} from '../../core/adaptive-fusion.ts'
import { combine, type FusedCandidate, fuse, type RankedList } from '../../core/fusion.ts'
import { DEFAULT_FUSION, type FusionSettings, type RetrievalOptions } from '../../core/options.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import type { VectorEvidence } from './vector-list.ts'

/**
 * What query-adaptive fusion reads (issue 13 §3): the query's terms, the terms each keyword
 * candidate matched, and the model whose cosines the vector list holds.
 */
export interface FusionEvidence {
  query: Pick<AnalyzedQuery, 'terms'>
  terms: ReadonlyMap<string, readonly string[]>
  /** The embedder's calibration from the model table; undefined for an uncalibrated model. */
  calibration: Readonly<ModelCalibration> | undefined
  /**
   * The adaptive rule's knobs; recall leaves it out for `DEFAULT_ADAPTIVE_POLICY`. The fusion
   * lab (`scripts/eval/fusion-inputs.ts`) replays recall's own lists through this function
   * under other rules, so what it measures is what recall would do.
   */
  policy?: Readonly<AdaptivePolicy>
}

/** Fused candidates, best first, and the method that fused them (explanations name it). */
export interface Fused {
  candidates: FusedCandidate[]
  method: FusionSettings['fusion']
}

/**
 * Merges the lists by `retrieval.fusion`: weighted RRF, or (the default) the score fusion, where
 * a keyword candidate the vector list left out is scored by its cosine from the deep read, or at
 * most the read's last cosine. BM25 near-ties are left to the vector list; without one, BM25's
 * own order stands.
 */
export function fuseLists(
  lists: readonly RankedList[],
  vector: VectorEvidence | undefined,
  retrieval: Pick<RetrievalOptions, 'fusion' | 'tieEpsilon' | 'rrfK'>,
  evidence?: FusionEvidence,
): Fused {
  const { fusion: method, tieEpsilon } = fusionOf(retrieval)
  if (method === 'rrf') {
    const options = tieEpsilon !== undefined ? { tieEpsilon } : {}
    return { candidates: fuse(lists, retrieval.rrfK, options), method }
  }
  const epsilon = vector?.list ? tieEpsilon : 0
  const cosines = vector?.cosines
  const bound = vector?.cosineBound
  const candidates = combine(lists, {
    outside: { vector: (id) => cosines?.get(id) ?? bound },
    ...(epsilon !== undefined ? { tieEpsilon: epsilon } : {}),
    ...adaptiveOptions(lists, evidence),
  })
  return { candidates, method }
}

/**
 * Per-query shares for a model with a calibration (`calibrationFor` of the model table: the
 * n-gram embedder, USE-lite): the keyword list trusted by how much of the query its top hit matched, the vector
 * list by how far its top cosine stands out. Models without one (bge, until calibrated on real
 * weights) keep the static shares, which were measured for them.
 */
function adaptiveOptions(lists: readonly RankedList[], evidence: FusionEvidence | undefined) {
  const vector = lists.find((list) => list.name === 'vector')
  if (!evidence?.calibration || !vector) return {}
  const queryTerms = new Set(evidence.query.terms)
  const keyword = lists.find((list) => list.name === 'keyword')?.items ?? []
  const top = keyword[0]
  const matched = top ? (evidence.terms.get(top.id) ?? []).filter((t) => queryTerms.has(t)) : []
  const decision = adaptiveShares(
    {
      queryTerms: queryTerms.size,
      topMatched: new Set(matched).size,
      cosines: vector.items.slice(0, 2).map((item) => item.score),
      keywordScores: keyword.slice(0, 2).map((item) => item.score),
    },
    evidence.calibration,
    evidence.policy,
  )
  return { shares: decision.shares, floors: decision.floors }
}

/** The fusion settings of `retrieval`, defaults filled in. */
export function fusionOf(
  retrieval: Pick<RetrievalOptions, 'fusion' | 'tieEpsilon'>,
): FusionSettings {
  const { fusion, tieEpsilon } = retrieval
  return {
    fusion: fusion ?? DEFAULT_FUSION.fusion,
    ...(tieEpsilon !== undefined ? { tieEpsilon } : {}),
  }
}
