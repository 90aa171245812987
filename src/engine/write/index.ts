import type { LifecycleOptions } from '../../core/options.ts'
import type { RememberResult } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'
import { applyBatch, type CommitContext, commitBatch, STALE } from './commit.ts'
import { embedCandidates } from './embed.ts'
import { exactDedup } from './exact-dedup.ts'
import { nearDedup } from './near-dedup.ts'
import { relatedNeighbours } from './neighbours.ts'
import { planBatch } from './plan.ts'
import type { PreparedWrite } from './prepare.ts'

export { toMemory } from './plan.ts'
export { STALE }

/** What a batch write needs from the engine. */
export interface WriteContext extends CommitContext {
  indexes: IndexSet
  newId: () => string
  /** Passage vectors, or undefined when no model is ready (the backfill embeds later). */
  embed: (texts: string[]) => Promise<Float32Array[] | undefined>
  nearDuplicate: number
  /** Lowest cosine at which a stored memory is reported as `related` to a new one. */
  relatedFloor: number
  /** Tier and confidence of writes that name none. */
  lifecycle: LifecycleOptions
}

export interface WriteOutcome {
  results: RememberResult[]
  seqs: number[]
  /** Memories stored without a vector. */
  unembedded: number
}

/**
 * The write path (docs/architecture.md §2, Write) for one batch, all or nothing, each stage in
 * `write/`: exact
 * dedup (against the indexes and within the batch) → embedding, outside any transaction → near
 * dedup (against the vector index and the batch) → near-but-not-duplicate neighbours (`related`)
 * → the plan of rows and results → one
 * transaction → the indexes, changed only after the commit, so a failed transaction leaves them
 * as they were. {@link STALE} when a memory dedup matched changed underneath (catch up, retry).
 */
export async function writeBatch(
  items: PreparedWrite[],
  ctx: WriteContext,
): Promise<WriteOutcome | typeof STALE> {
  const exact = exactDedup(items, ctx.indexes)
  const vectors = await embedCandidates(items, exact.candidates, ctx.embed)
  const bounds = { floor: ctx.relatedFloor, nearDuplicate: ctx.nearDuplicate }
  const near = nearDedup(
    items,
    exact.candidates,
    vectors,
    ctx.indexes,
    bounds.nearDuplicate,
    bounds.floor,
  )
  const related = relatedNeighbours(items, near.fresh, vectors, ctx.indexes, bounds, near.searched)
  const plan = planBatch(items, exact, near, vectors, ctx)
  for (const [i, neighbours] of related) plan.results[i]!.related = neighbours
  const committed = await commitBatch(plan, ctx)
  if (committed === STALE) return STALE
  applyBatch(ctx.indexes, plan, committed)
  const unembedded = plan.fresh.filter((f) => !f.vector).length
  return { results: plan.results, seqs: committed.seqs, unembedded }
}
