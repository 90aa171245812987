import { NEAR_DUPLICATE_RESCORE } from '../../core/options.ts'
import type { JudgeCase, Memory } from '../../core/types.ts'
import type { EngineContext } from '../engine-context.ts'

/**
 * Pairs worth a look among `live` memories created since `since`: each one's nearest stored
 * neighbours of the same namespace and type, as `duplicate` at `nearDuplicate` or more, and (only
 * for a judge) as `related` from `relatedFloor`. Each pair once per review.
 */
export async function candidateCases(
  ctx: EngineContext,
  live: Memory[],
  since: number,
  withRelated: boolean,
  pairs: Set<string>,
): Promise<JudgeCase[]> {
  const index = ctx.indexes.vectors
  const model = ctx.embedder?.model
  if (!index || index.size === 0 || !model) return []
  const fresh = live.filter((m) => m.createdAt >= since && index.has(m.id))
  if (fresh.length === 0) return []
  const vectors = await ctx.mapped(ctx.db.vectors.bulkGet(fresh.map((m) => m.id)))
  const { nearDuplicate, relatedFloor } = ctx.retrieval
  const floor = withRelated ? relatedFloor : nearDuplicate
  const cases: JudgeCase[] = []
  fresh.forEach((m, i) => {
    const row = vectors[i]
    if (!row || row.model !== model) return
    const group = ctx.indexes.groupOf(m.namespace, m.type)
    const hits = index.search(row.vector, 4, { groups: [group], rescore: NEAR_DUPLICATE_RESCORE })
    for (const hit of hits) {
      if (hit.id === m.id || hit.score < floor) continue
      const other = ctx.indexes.catalogue.get(hit.id)
      if (!other || other.pageId !== undefined) continue
      const [older, newer] = other.id < m.id ? [other, m] : [m, other]
      const key = `${older.id}\u0000${newer.id}`
      if (pairs.has(key)) continue
      pairs.add(key)
      const kind = hit.score >= nearDuplicate ? 'duplicate' : 'related'
      cases.push({ kind, older, newer, similarity: hit.score })
    }
  })
  return cases
}
