import {
  type ChangeRow,
  type EngramDatabase,
  storedKeys,
  type VectorRow,
} from '../../storage/index.ts'
import { dropEdges } from '../relations.ts'
import { STALE, type Written } from '../write/index.ts'
import type { PagePlan } from './plan-page.ts'

/** A page write as planned outside the transaction: the plan, its new vectors, its time. */
export interface PreparedPage {
  plan: PagePlan
  vectors: Map<string, Float32Array>
  now: number
}

/** What the commit needs from the engine. */
export interface PageCommitContext {
  db: EngramDatabase
  model: string | null
  now: number
}

/**
 * Inside the one transaction for the whole page (`runWrite`): the stored chunks the plan was
 * made against are read first (another writer changed the page: {@link STALE}, nothing
 * written), then removed chunks go with their vectors and edges, every chunk row is put, new
 * vectors stored, a kept chunk's vector dropped when it needed a new one and got none, and a
 * change entry each.
 */
export async function commitPage(
  plan: PagePlan,
  vectors: ReadonlyMap<string, Float32Array>,
  ctx: PageCommitContext,
): Promise<number[] | typeof STALE> {
  const { db } = ctx
  // Every stored chunk, those encryption at rest refuses too: a plan made from a snapshot
  // still knows them, one made from a rebuild does not. Either way this write replaces them
  // (a refused row would hold the unique key of a chunk written now).
  const held = (await storedKeys(db, db.memories, () =>
    db.memories.where('pageId').equals(plan.pageId),
  )) as string[]
  const planned = new Set([...plan.expected, ...plan.rows.map((r) => r.row.id)])
  const unknown = held.filter((id) => !planned.has(id))
  const refused = unknown.length > 0 ? await refusedOf(db, unknown) : []
  if (refused.length < unknown.length) return STALE
  const stored = held.filter((id) => !refused.includes(id))
  if (!sameIds(stored, plan.expected)) return STALE
  const removed = [...plan.removed, ...refused]
  if (removed.length > 0) {
    await db.memories.bulkDelete(removed)
    await db.vectors.bulkDelete(removed)
    await dropEdges(db, removed)
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
    ...removed.map((id) => ({ op: 'delete' as const, id, at: ctx.now })),
    ...plan.rows.map((r) => ({ op: 'put' as const, id: r.row.id, at: ctx.now })),
  ]
  return (await db.changes.bulkAdd(changes, { allKeys: true })) as number[]
}

/**
 * A committed page, for the steps after the commit: removed chunks out of the indexes, every
 * chunk in (a chunk that needed a vector and got none loses the one it had), the backfill for
 * those.
 */
export function pageWritten<R>(
  plan: PagePlan,
  vectors: ReadonlyMap<string, Float32Array>,
  seqs: number[],
  result: R,
): Written<R> {
  const stored = plan.rows.map(({ row, embed }) => {
    const vector = vectors.get(row.id)
    return { memory: row, vector, dropVector: embed && !vector }
  })
  return {
    result,
    seqs,
    removed: plan.removed,
    stored,
    unembedded: stored.some((s) => s.dropVector),
  }
}

/** Those of `ids` stored but not returned by a read: rows encryption at rest refuses. */
async function refusedOf(db: EngramDatabase, ids: string[]): Promise<string[]> {
  if (!db.atRest.encrypted) return []
  const rows = await db.memories.bulkGet(ids)
  return ids.filter((_, i) => rows[i] === undefined)
}

function sameIds(held: readonly string[], expected: readonly string[]): boolean {
  if (held.length !== expected.length) return false
  const want = new Set(expected)
  return held.every((id) => want.has(id))
}
