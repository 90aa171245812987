import { isExpired } from '../../core/lifecycle.ts'
import type { LifecycleOptions } from '../../core/options.ts'
import { overlapsTime } from '../../core/recall/boosts.ts'
import type { IndexFailure, Memory, RecallHit } from '../../core/types.ts'
import { trustRank } from '../../core/vocabulary.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import { keptByTime } from './lifecycle-filter.ts'
import type { CheckedRecallOptions } from './options.ts'

/** Newest memories the recency window reads from the table. */
export const RECENCY_WINDOW = 500

/** What the recency window needs besides the rows, the query and the options. */
export interface RecencyContext {
  now: number
  lifecycle: LifecycleOptions
  /**
   * Why the indexes are unavailable: the failure recorded when they could not be restored (see
   * {@link IndexFailure}), or undefined while a rebuild is reading the tables.
   */
  failure: IndexFailure | undefined
}

/**
 * The answer when the indexes are unavailable (`degraded: 'recency'`): among the newest
 * memories of the table (`rows`, newest first) that the recall's filter accepts, those whose
 * text holds one of the query's words, most words first and then newest first, via `recent`.
 * No BM25, no vectors, no boosts: only what can be read straight from the rows.
 */
export function recencyHits(
  rows: readonly Memory[],
  q: AnalyzedQuery,
  o: CheckedRecallOptions,
  { now, lifecycle, failure }: RecencyContext,
): RecallHit[] {
  const words = [...new Set(q.tokens.map((t) => t.toLowerCase()))]
  const scored: { memory: Memory; matched: string[]; order: number }[] = []
  rows.forEach((memory, order) => {
    if (!accepts(memory, q, o, now, lifecycle)) return
    const text = memory.text.toLowerCase()
    const matched = words.filter((w) => text.includes(w))
    if (words.length === 0 || matched.length > 0) scored.push({ memory, matched, order })
  })
  scored.sort((a, b) => b.matched.length - a.matched.length || a.order - b.order)
  const why = outageReason(failure)
  return scored.slice(0, o.k).map(({ memory, matched }, i) => ({
    id: memory.id,
    text: memory.text,
    memory,
    rank: i + 1,
    score: matched.length,
    fused: matched.length,
    via: 'recent',
    lists: {},
    terms: matched,
    boosts: [],
    flagged: memory.flags.length > 0,
    explanation: o.explain
      ? `recent: matched [${matched.join(', ')}] among the newest ${RECENCY_WINDOW} (${why}) -> #${i + 1}`
      : '',
  }))
}

/**
 * The reason the explanation gives. A failure wins over a rebuild in progress: while failed,
 * the rebuild under way is a retry, and the failure is what keeps recall on the rows.
 */
export function outageReason(failure: IndexFailure | undefined): string {
  return failure ? `indexes failed to restore: ${failure.error.code}` : 'indexes rebuilding'
}

function accepts(
  m: Memory,
  q: AnalyzedQuery,
  o: CheckedRecallOptions,
  now: number,
  lifecycle: LifecycleOptions,
): boolean {
  if (m.namespace !== o.namespace) return false
  if (o.types && !o.types.includes(m.type)) return false
  if (o.tags && !o.tags.every((t) => m.tags.some((have) => have.toLowerCase() === t))) return false
  if (o.minTrust && trustRank(m.trust) > trustRank(o.minTrust)) return false
  if (!o.includeFlagged && m.flags.length > 0) return false
  if (!overlapsTime(m, o.since, o.until)) return false
  if (o.includeExpired || !isExpired(m, now, lifecycle)) return true
  return keptByTime(m, { since: o.since, until: o.until, windows: q.windows }, now)
}
