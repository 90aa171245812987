import type { RankedList } from '../../core/fusion.ts'
import type { Degraded } from '../../core/types.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import { exactLists } from './exact-lists.ts'
import type { HitEvidence } from './explain.ts'
import { keywordList } from './keyword-list.ts'
import type { CheckedRecallOptions } from './options.ts'
import type { RecallScope } from './scope.ts'
import { type VectorEvidence, type VectorSource, vectorList } from './vector-list.ts'

/** Every list a recall fuses, with what the lists said beyond ranks. */
export interface RecallLists extends HitEvidence {
  lists: RankedList[]
  /** The vector read, when the mode asked for one. */
  vector?: VectorEvidence
  degraded?: Degraded
}

/**
 * The lists the mode asks for, over one scope: keyword (BM25 + phrases) unless semantic, vector
 * unless keyword, then alias and tag unless semantic (after the others: they re-rank what those
 * found when a name is common).
 */
export async function buildLists(
  source: VectorSource,
  q: AnalyzedQuery,
  scope: RecallScope,
  o: CheckedRecallOptions,
  candidates: number,
): Promise<RecallLists> {
  const { indexes } = source
  const lists: RankedList[] = []
  const out: RecallLists = { lists, terms: new Map(), cosines: new Map() }
  if (o.mode !== 'semantic') {
    const keyword = keywordList(indexes, q, scope, candidates, o.weights.keyword)
    lists.push(keyword.list)
    out.terms = keyword.terms
  }
  if (o.mode !== 'keyword') {
    const vector = await vectorList(
      source,
      q,
      scope,
      { ...o, weight: o.weights.vector },
      candidates,
    )
    if (vector.list) lists.push(vector.list)
    if (vector.degraded) out.degraded = vector.degraded
    out.cosines = vector.cosines
    out.vector = vector
  }
  if (o.mode !== 'semantic') {
    for (const list of exactLists(indexes, q, scope, lists, candidates, o.weights)) lists.push(list)
  }
  return out
}
