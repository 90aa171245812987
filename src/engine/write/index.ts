import { MemoryNotFoundError } from '../../core/errors.ts'
import type { LifecycleOptions } from '../../core/options.ts'
import type { Memory, RememberResult } from '../../core/types.ts'
import { blockedByRefused, refusedHolders } from '../at-rest/refused-holders.ts'
import type { IndexSet } from '../index/index-set.ts'
import { putEdge } from '../relations.ts'
import { type CommitContext, STALE, storeBatch } from './commit.ts'
import { embedCandidates } from './embed.ts'
import { exactDedup } from './exact-dedup.ts'
import { nearDedup } from './near-dedup.ts'
import { relatedNeighbours } from './neighbours.ts'
import { type BatchPlan, planBatch } from './plan.ts'
import type { PreparedWrite } from './prepare.ts'
import type { WriteAttempt } from './run-write.ts'

export { toMemory } from './plan.ts'
export {
  type Answered,
  answered,
  inWriteTurn,
  runWrite,
  type StoredRow,
  type WriteAttempt,
  type Written,
  writeInQueue,
} from './run-write.ts'
export { STALE }

/** What a batch write needs from the engine. */
export interface WriteContext extends Omit<CommitContext, 'transact'> {
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
 * `write/`, as a {@link WriteAttempt} for `runWrite`: exact dedup (against the indexes and within
 * the batch) → embedding, outside any transaction → near dedup (against the vector index and the
 * batch) → near-but-not-duplicate neighbours (`related`) → the plan of rows and results → one
 * transaction with the `supersedes` edges → the indexes, changed only after the commit, so a
 * failed transaction leaves them as they were. {@link STALE} when a memory dedup matched changed
 * underneath (catch up, retry). `context` is called once per try (its clock, its indexes).
 */
export function batchAttempt(
  items: PreparedWrite[],
  context: () => WriteContext,
): WriteAttempt<{ plan: BatchPlan; ctx: WriteContext }, WriteOutcome> {
  return {
    prepare: async () => {
      const ctx = context()
      assertSuperseded(items, ctx.indexes.catalogue)
      return { plan: await planWrite(items, ctx), ctx }
    },
    commit: async ({ plan, ctx }) => {
      const committed = await storeBatch(plan, ctx)
      if (committed === STALE) return STALE
      await storeSupersedes(items, plan.results, ctx)
      const unembedded = plan.fresh.filter((f) => !f.vector).length
      return {
        result: { results: plan.results, seqs: committed.seqs, unembedded },
        seqs: committed.seqs,
        stored: plan.fresh,
        refreshed: committed.confirmed,
        unembedded: unembedded > 0,
      }
    },
    changing: () => 'the memories this write repeats',
    // A lost unique-key race is stale, unless the key's holder is a row that does not open
    // (encryption at rest): no retry would get past it.
    racesAreStale: true,
    onStale: async ({ ctx }) => {
      const refused = await refusedHolders(ctx.db, items)
      if (refused.length > 0) throw blockedByRefused(refused)
    },
  }
}

/** The stages before the transaction: dedup, embedding, neighbours, the plan. */
export async function planWrite(items: PreparedWrite[], ctx: WriteContext): Promise<BatchPlan> {
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
  return plan
}

/** Throws `MemoryNotFoundError` for a `supersedes` naming no stored memory, before any write. */
function assertSuperseded(
  items: readonly PreparedWrite[],
  catalogue: ReadonlyMap<string, Memory>,
): void {
  for (const w of items) {
    if (w.supersedes !== undefined && !catalogue.has(w.supersedes))
      throw new MemoryNotFoundError(w.supersedes)
  }
}

/**
 * The `supersedes` edges of a batch, in its transaction, so a memory is never stored without
 * the edge it was written with; a memory that repeats the one it supersedes stores no edge.
 */
async function storeSupersedes(
  items: readonly PreparedWrite[],
  results: readonly RememberResult[],
  ctx: WriteContext,
): Promise<void> {
  for (const [i, w] of items.entries()) {
    const from = results[i]!.id
    if (w.supersedes && w.supersedes !== from) {
      await putEdge(ctx.db, { from, to: w.supersedes, kind: 'supersedes' }, ctx.now)
    }
  }
}
