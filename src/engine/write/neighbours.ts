import { NEAR_DUPLICATE_RESCORE } from '../../core/options.ts'
import type { RememberResult } from '../../core/types.ts'
import type { VectorHit } from '../../core/vector/index.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { PreparedWrite } from './prepare.ts'

/** Most near-but-not-duplicate neighbours a write reports. */
export const MAX_RELATED = 3

/**
 * The stored memories of the same namespace and type that each new memory of the batch comes
 * close to without repeating (cosine in `[floor, nearDuplicate)`), closest first, as
 * `RememberResult.related`: the caller decides whether the new fact supersedes one ("I moved
 * to Lisbon" after "I live in Porto"). Read from the vector index before the batch is applied,
 * so a memory is never its own neighbour. Items without a vector get none. `searched` holds the
 * hits near dedup already had from the same search (the store searched once per item, not
 * twice); an item without them is searched as near dedup searches (`VectorIndex.searchNear`).
 */
export function relatedNeighbours(
  items: readonly PreparedWrite[],
  fresh: readonly number[],
  vectors: ReadonlyMap<number, Float32Array>,
  indexes: IndexSet,
  bounds: { floor: number; nearDuplicate: number },
  searched: ReadonlyMap<number, readonly VectorHit[]> = new Map(),
): Map<number, NonNullable<RememberResult['related']>> {
  const out = new Map<number, NonNullable<RememberResult['related']>>()
  const stored = indexes.vectors
  if (!stored || stored.size === 0 || bounds.floor >= bounds.nearDuplicate) return out
  for (const i of fresh) {
    const vector = vectors.get(i)
    if (!vector) continue
    const w = items[i]!
    const filter = {
      minScore: bounds.floor,
      groups: [indexes.groupOf(w.namespace, w.type)],
      rescore: NEAR_DUPLICATE_RESCORE,
    }
    const near = (searched.get(i) ?? stored.searchNear(vector, MAX_RELATED, filter))
      .filter((h) => h.score >= bounds.floor && h.score < bounds.nearDuplicate)
      .map((h) => ({ id: h.id, similarity: h.score }))
    if (near.length > 0) out.set(i, near)
  }
  return out
}
