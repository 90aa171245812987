import type { Memory } from '../../core/types.ts'
import type { ChangeRow, EngramDatabase, VectorRow } from '../../storage/index.ts'
import type { BatchPlan, Confirmation } from './plan.ts'

/** What the commit needs from the engine. */
export interface CommitContext {
  db: EngramDatabase
  /** The model of the batch's vectors. */
  model: string | null
  now: number
  transact: <T>(body: () => Promise<T>) => Promise<T>
}

/** The commit's outcome: change-log seqs, and the stored rows it confirmed. */
export interface Committed {
  seqs: number[]
  confirmed: Memory[]
}

/** A memory dedup matched was changed or removed since the catch-up: nothing was written. */
export const STALE = Symbol('stale')

/**
 * One transaction for the whole batch: the new rows and their vectors, the confirmations of
 * stored memories and a change entry each. The memories to confirm are read first, inside the
 * transaction: one that another tab removed, or changed so that it no longer says what it was
 * matched on, makes the commit write nothing and answer {@link STALE}.
 */
export function commitBatch(
  plan: BatchPlan,
  ctx: CommitContext,
): Promise<Committed | typeof STALE> {
  return ctx.transact(async () => await storeBatch(plan, ctx))
}

/** {@link commitBatch}'s body, inside the caller's transaction. */
export async function storeBatch(
  plan: BatchPlan,
  ctx: Omit<CommitContext, 'transact'>,
): Promise<Committed | typeof STALE> {
  const { db, now } = ctx
  const ids = [...plan.confirmations.keys()]
  const held = ids.length > 0 ? await db.memories.bulkGet(ids) : []
  const confirmed: Memory[] = []
  for (const [i, row] of held.entries()) {
    const wanted = plan.confirmations.get(ids[i]!)!
    if (!row || !stillMatches(row, wanted)) return STALE
    confirmed.push({ ...row, confirmations: row.confirmations + wanted.count, confirmedAt: now })
  }
  if (plan.fresh.length > 0) await db.memories.bulkAdd(plan.fresh.map((f) => f.memory))
  const vectors: VectorRow[] = []
  for (const { memory, vector } of plan.fresh) {
    if (vector) vectors.push({ id: memory.id, model: ctx.model!, dims: vector.length, vector })
  }
  if (vectors.length > 0) await db.vectors.bulkPut(vectors)
  if (confirmed.length > 0) await db.memories.bulkPut(confirmed)
  const changes: ChangeRow[] = [...plan.fresh.map((f) => f.memory), ...confirmed].map((m) => ({
    op: 'put',
    id: m.id,
    at: now,
  }))
  const seqs = changes.length > 0 ? await db.changes.bulkAdd(changes, { allKeys: true }) : []
  return { seqs: seqs as number[], confirmed }
}

function stillMatches(row: Memory, wanted: Confirmation): boolean {
  if (row.namespace !== wanted.namespace || row.type !== wanted.type) return false
  return wanted.key === undefined || row.key === wanted.key
}
