/**
 * Candidate fusion functions for the lab (scripts/eval/fusion-lab.ts): the engine's default
 * score fusion, RRF, and query-adaptive score fusion (src/core/adaptive-fusion.ts).
 */
import {
  type AdaptivePolicy,
  adaptiveShares,
  DEFAULT_ADAPTIVE_POLICY,
  type ModelCalibration,
  type QueryEvidence,
} from '../../src/core/adaptive-fusion.ts'
import { combine, fuse, type RankedList } from '../../src/core/fusion.ts'
import { calibrationFor, NGRAM_MODEL, USE_LITE_MODEL } from '../../src/embedder/model-table.ts'
import { replayFusion } from './fusion-inputs.ts'
import { type Fusion, recallLists } from './fusion-score.ts'
import type { QueryLists } from './lists.ts'

/** Model ids of the lab's embedder names. */
export const MODEL_OF: Record<string, string> = {
  ngram: NGRAM_MODEL,
  use: USE_LITE_MODEL,
}

/** The model table's calibration of a lab model; the lab runs calibrated models only. */
export function labCalibration(model: string): Readonly<ModelCalibration> {
  const calibration = calibrationFor(model)
  if (!calibration) throw new Error(`${model} has no calibration in the model table`)
  return calibration
}

/** The evidence recall would measure for this question. */
export function evidenceOf(q: QueryLists): QueryEvidence {
  const terms = new Set(q.queryTerms)
  const top = q.keyword[0]
  return {
    queryTerms: terms.size,
    topMatched: top ? top.terms.filter((t) => terms.has(t)).length : 0,
    cosines: q.cosines.slice(0, 30).map((c) => c.score),
  }
}

function listsOf(q: QueryLists): {
  lists: RankedList[]
  cosine: (id: string) => number | undefined
} {
  const l = recallLists(q)
  return {
    lists: [
      { name: 'keyword', items: l.keyword },
      { name: 'vector', items: l.vector },
      { name: 'tag', items: l.tag },
    ],
    cosine: l.cosine,
  }
}

/** Adaptive score fusion under `policy`. */
export function adaptiveFusion(
  policy: AdaptivePolicy = DEFAULT_ADAPTIVE_POLICY,
  vectorShares: Record<string, number> = {},
): Fusion {
  return (q, _store, embedder) => {
    const model = MODEL_OF[embedder]!
    const base = labCalibration(model)
    const calibration =
      vectorShares[model] === undefined ? base : { ...base, vectorShare: vectorShares[model]! }
    // Recall's own inputs where the cache recorded them: the replay is then the engine's fusion.
    if (q.fusion) return replayFusion(q.fusion, { policy, calibration })
    const { lists, cosine } = listsOf(q)
    const decision = adaptiveShares(evidenceOf(q), calibration, policy)
    return combine(lists, {
      shares: decision.shares,
      floors: decision.floors,
      outside: { vector: cosine },
    }).map((c) => c.id)
  }
}

export const FUSIONS: Record<string, Fusion> = {
  'exact semantic': (q) => q.cosines.map((c) => c.id),
  'score, equal shares': (q) => {
    const { lists, cosine } = listsOf(q)
    return combine(lists, { shares: { vector: 1 }, outside: { vector: cosine } }).map((c) => c.id)
  },
  'rrf (tie-aware)': (q) => fuse(listsOf(q).lists, 60).map((c) => c.id),
  adaptive: adaptiveFusion(),
}
