import type { RankedList } from '../../core/fusion.ts'
import type { ListName } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import type { RecallScope } from './scope.ts'

/**
 * The alias list (memories with an alias equal to the whole query, a quoted phrase or one of its
 * words) and the tag list (memories tagged with one of its words), each scored by how selective
 * the name is (`IndexSet.exactList`). A name carried by more than `candidates` memories only
 * re-ranks what the other lists `found`.
 */
export function exactLists(
  indexes: IndexSet,
  q: AnalyzedQuery,
  scope: RecallScope,
  found: readonly RankedList[],
  candidates: number,
  weights: Pick<Record<ListName, number>, 'alias' | 'tag'>,
): RankedList[] {
  const foundIds = new Set<string>()
  for (const list of found) for (const item of list.items) foundIds.add(item.id)
  const names = [q.raw, ...q.phrases, ...q.tokens]
  return [
    {
      name: 'alias',
      items: indexes.exactList('alias', names, scope.accept, foundIds, candidates),
      weight: weights.alias,
    },
    {
      name: 'tag',
      items: indexes.exactList('tag', q.tokens, scope.accept, foundIds, candidates),
      weight: weights.tag,
    },
  ]
}
