import { DEFAULT_LIFECYCLE, type LifecycleOptions } from '../../core/options.ts'
import { overlapsTime } from '../../core/recall/boosts.ts'
import type { Memory } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import { lifecycleFilter } from './lifecycle-filter.ts'
import type { CheckedRecallOptions } from './options.ts'

/** Which memories a recall may return, as predicates every list applies before its cut. */
export interface RecallScope {
  /**
   * The filter: namespace, types, tags, trust, flags, expiry (TTL and `expiresAt`; a TTL is
   * looked past inside `since`/`until` or the query's time windows), and the memory's time
   * within `since`/`until` when the recall gives them.
   */
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
  o: Pick<
    CheckedRecallOptions,
    'namespace' | 'includeFlagged' | 'types' | 'tags' | 'minTrust' | 'since' | 'until'
  > & {
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
  // The query's own time words count as naming a time, as since/until do: "in May 2023" finds
  // that month's notes past their TTL (without q.windows here, only since/until did).
  const live = lifecycleFilter(indexes.catalogue, { ...o, windows: q.windows }, now, lifecycle)
  const inTime = timeFilter(indexes.catalogue, o.since, o.until)
  const accept = inTime
    ? (id: string) => filter(id) && live(id) && inTime(id)
    : (id: string) => filter(id) && live(id)
  if (q.phrases.length === 0) return { accept, strict: accept }
  return { accept, strict: (id) => accept(id) && indexes.hasPhrases(id, q.phrases) }
}

/**
 * `since`/`until` as a predicate over ids: the memory's time (its interval, if it has one)
 * overlaps `[since, until)`. Undefined when the recall gives neither.
 */
function timeFilter(
  catalogue: ReadonlyMap<string, Memory>,
  since: number | undefined,
  until: number | undefined,
): ((id: string) => boolean) | undefined {
  if (since === undefined && until === undefined) return undefined
  return (id) => {
    const memory = catalogue.get(id)
    return memory !== undefined && overlapsTime(memory, since, until)
  }
}
