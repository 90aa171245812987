import type { ChangeRow, EngramDatabase, VectorRow } from '../../storage/index.ts'
import type { IndexSet } from '../index-set.ts'
import { dropEdges } from '../relations.ts'
import { STALE } from '../write-batch.ts'
import type { PagePlan } from './plan-page.ts'

/** What the commit needs from the engine. */
export interface PageCommitContext {
  db: EngramDatabase
  model: string | null
  now: number
  transact: <T>(body: () => Promise<T>) => Promise<T>
}

/**
 * One transaction for the whole page: the stored chunks the plan was made against are read
 * first (another writer changed the page: {@link STALE}, nothing written), then removed chunks
 * go with their vectors and edges, every chunk row is put, new vectors stored, a kept chunk's
 * vector dropped when it needed a new one and got none, and a change entry each.
 */
export async function commitPage(
  plan: PagePlan,
  vectors: ReadonlyMap<string, Float32Array>,
  ctx: PageCommitContext,
): Promise<number[] | typeof STALE> {
  const { db } = ctx
  return ctx.transact(async () => {
    const held = await db.memories.where('pageId').equals(plan.pageId).primaryKeys()
    if (!sameIds(held as string[], plan.expected)) return STALE
    if (plan.removed.length > 0) {
      await db.memories.bulkDelete(plan.removed)
      await db.vectors.bulkDelete(plan.removed)
      await dropEdges(db, plan.removed)
    }
    await db.memories.bulkPut(plan.rows.map((r) => r.row))
    const rows: VectorRow[] = []
    for (const [id, vector] of vectors) {
      rows.push({ id, model: ctx.model!, dims: vector.length, vector })
    }
    if (rows.length > 0) await db.vectors.bulkPut(rows)
    const stale = plan.rows.filter((r) => r.embed && !vectors.has(r.row.id)).map((r) => r.row.id)
    if (stale.length > 0) await db.vectors.bulkDelete(stale)
    const changes: ChangeRow[] = [
      ...plan.removed.map((id) => ({ op: 'delete' as const, id, at: ctx.now })),
      ...plan.rows.map((r) => ({ op: 'put' as const, id: r.row.id, at: ctx.now })),
    ]
    return (await db.changes.bulkAdd(changes, { allKeys: true })) as number[]
  })
}

/** After the commit: the indexes follow the tables. */
export function applyPage(
  indexes: IndexSet,
  plan: PagePlan,
  vectors: ReadonlyMap<string, Float32Array>,
): void {
  for (const id of plan.removed) indexes.remove(id)
  for (const { row, embed } of plan.rows) {
    const vector = vectors.get(row.id)
    indexes.put(row, vector)
    if (embed && !vector) indexes.removeVector(row.id)
  }
}

function sameIds(held: readonly string[], expected: readonly string[]): boolean {
  if (held.length !== expected.length) return false
  const want = new Set(expected)
  return held.every((id) => want.has(id))
}
