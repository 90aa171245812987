import { DEFAULT_LIFECYCLE, type LifecycleOptions } from '../../core/options.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import { lifecycleFilter } from './lifecycle-filter.ts'
import type { CheckedRecallOptions } from './options.ts'

/** Which memories a recall may return, as predicates every list applies before its cut. */
export interface RecallScope {
  /** The filter: namespace, types, tags, trust, flags, expiry (TTL and `expiresAt`). */
  accept: (id: string) => boolean
  /** `accept`, and every quoted phrase of the query in the memory's text. */
  strict: (id: string) => boolean
}

/**
 * The recall's filter over the indexes at time `now`, expiry judged by `lifecycle`'s TTLs. Alias, tag and phrase-scan hits need only
 * `accept` (they name the memory or are phrase matches already); BM25 and vector hits `strict`.
 */
export function recallScope(
  indexes: IndexSet,
  q: AnalyzedQuery,
  o: Pick<CheckedRecallOptions, 'namespace' | 'includeFlagged' | 'types' | 'tags' | 'minTrust'> & {
    includeExpired?: boolean
  },
  now: number,
  lifecycle: LifecycleOptions = DEFAULT_LIFECYCLE,
): RecallScope {
  const filter = indexes.accept({
    namespace: o.namespace,
    includeFlagged: o.includeFlagged,
    ...(o.types ? { types: o.types } : {}),
    ...(o.tags ? { tags: o.tags } : {}),
    ...(o.minTrust ? { minTrust: o.minTrust } : {}),
  })
  const live = lifecycleFilter(indexes.catalogue, o, now, lifecycle)
  const accept = (id: string) => filter(id) && live(id)
  if (q.phrases.length === 0) return { accept, strict: accept }
  return { accept, strict: (id) => accept(id) && indexes.hasPhrases(id, q.phrases) }
}
