import type { RankedList } from '../../core/fusion.ts'
import type { Degraded } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import { exactLists } from './exact-lists.ts'
import type { HitEvidence } from './explain.ts'
import { keywordList, type PhraseScope } from './keyword-list.ts'
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
 * found when a name is common). With quoted phrases, the memories holding them are found first
 * ({@link phraseScope}) and the lists score only those.
 */
export async function buildLists(
  source: VectorSource,
  q: AnalyzedQuery,
  scope: RecallScope,
  o: CheckedRecallOptions,
  candidates: number,
): Promise<RecallLists> {
  const { indexes } = source
  scope = phraseScope(source.indexes, q, scope)
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

/**
 * The memories holding the query's phrases, found first from the keyword index's posting lists
 * (`IndexSet.phraseCandidates`) and checked with `scope.strict`, as the scope's `strict`: BM25
 * and the vector read then ask a set, not each row they score whether its text has the phrases
 * (at 100k a quoted query's p99 was that check, issue 25). `phraseMatches` holds them in
 * candidate order (catalogue order when the phrases have no word to look up).
 */
export function phraseScope(indexes: IndexSet, q: AnalyzedQuery, scope: RecallScope): PhraseScope {
  if (q.phrases.length === 0) return scope
  const matches = new Set<string>()
  const candidates = indexes.phraseCandidates(q.phrases) ?? indexes.catalogue.keys()
  for (const id of candidates) if (scope.strict(id)) matches.add(id)
  return { accept: scope.accept, strict: (id) => matches.has(id), phraseMatches: matches }
}
