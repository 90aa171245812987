import type { RankedItem, RankedList } from '../../core/fusion.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import type { RecallScope } from './scope.ts'

/** A recall scope, with the phrase matches when they were found first (`phraseScope`). */
export type PhraseScope = RecallScope & { phraseMatches?: ReadonlySet<string> }

/** The keyword list and, per memory it holds, the query terms BM25 matched. */
export interface KeywordEvidence {
  list: RankedList
  terms: ReadonlyMap<string, string[]>
}

/**
 * BM25 over the query's search terms within the scope, top `candidates`, re-scored by the phrase
 * pass; when the query quotes phrases and BM25 found fewer than `candidates`, phrase matches it
 * could not find (a phrase of stop words) fill the list, after every BM25 hit. Each BM25 item's
 * tie group is its matched terms, so only hits that matched the same words count as near-ties.
 */
export function keywordList(
  indexes: IndexSet,
  q: AnalyzedQuery,
  scope: PhraseScope,
  candidates: number,
  weight: number,
): KeywordEvidence {
  const hits = indexes.keyword.searchTerms(q.searchTerms, candidates, scope.strict)
  const terms = new Map<string, string[]>()
  const items: RankedItem[] = hits.map((h) => {
    terms.set(h.id, h.terms)
    return { id: h.id, score: h.score, tieGroup: [...h.terms].sort().join(' ') }
  })
  indexes.keyword.phrasePass(items, q.terms, (id) => indexes.catalogue.get(id))
  if (q.phrases.length > 0 && items.length < candidates) {
    const matches = scope.phraseMatches
    const scanned = matches
      ? fill(matches, candidates - items.length, terms)
      : indexes.phraseScan(q.phrases, scope.accept, candidates - items.length, terms)
    for (const item of scanned) items.push(item)
  }
  return { list: { name: 'keyword', items, weight }, terms }
}

/** Phrase matches found first (`phraseScope`) that BM25 did not return, at most `limit`, score 0. */
function fill(
  matches: ReadonlySet<string>,
  limit: number,
  seen: ReadonlyMap<string, unknown>,
): RankedItem[] {
  const items: RankedItem[] = []
  for (const id of matches) {
    if (items.length >= limit) break
    if (!seen.has(id)) items.push({ id, score: 0 })
  }
  return items
}
