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
  vectors: ReadonlyMap<string, Float32Array>
  now: number
}

/** What the commit needs from the engine. */
export interface PageCommitContext {
  db: EngramDatabase
  model: string | null
  now: number
}

/**
 * Inside the one transaction for the whole page (`runWrite`): {@link commitPages} with one page.
 */
export async function commitPage(
  plan: PagePlan,
  vectors: ReadonlyMap<string, Float32Array>,
  ctx: PageCommitContext,
): Promise<number[] | typeof STALE> {
  const seqs = await commitPages([{ plan, vectors, now: ctx.now }], ctx)
  return seqs === STALE ? STALE : seqs[0]!
}

/**
 * Inside the one transaction for a group of whole pages (`runWrite`; an import's group): the
 * stored chunks each plan was made against are checked first (another writer changed a page:
 * {@link STALE}, nothing written), then removed chunks go with their vectors and edges, every
 * chunk row is put, new vectors stored, a kept chunk's vector dropped when it needed a new one
 * and got none, and a change entry each, page by page in the log. One request a table for
 * the whole group, not one a page: in a browser each is a round trip to the storage process,
 * which the worker waits out idle.
 *
 * @returns each page's change seqs, in page order.
 */
export async function commitPages(
  pages: readonly PreparedPage[],
  ctx: Omit<PageCommitContext, 'now'>,
): Promise<number[][] | typeof STALE> {
  const { db } = ctx
  const removedOf = await checkStored(
    db,
    pages.map((p) => p.plan),
  )
  if (removedOf === STALE) return STALE
  const removed = removedOf.flat()
  if (removed.length > 0) {
    await db.memories.bulkDelete(removed)
    await db.vectors.bulkDelete(removed)
    await dropEdges(db, removed)
  }
  await db.memories.bulkPut(pages.flatMap((p) => p.plan.rows.map((r) => r.row)))
  const rows: VectorRow[] = []
  for (const { vectors } of pages) {
    for (const [id, vector] of vectors) {
      rows.push({ id, model: ctx.model!, dims: vector.length, vector })
    }
  }
  if (rows.length > 0) await db.vectors.bulkPut(rows)
  const stale = pages.flatMap(({ plan, vectors }) =>
    plan.rows.filter((r) => r.embed && !vectors.has(r.row.id)).map((r) => r.row.id),
  )
  if (stale.length > 0) await db.vectors.bulkDelete(stale)
  const changes: ChangeRow[] = pages.flatMap(({ plan, now }, i) => [
    ...removedOf[i]!.map((id) => ({ op: 'delete' as const, id, at: now })),
    ...plan.rows.map((r) => ({ op: 'put' as const, id: r.row.id, at: now })),
  ])
  const seqs = (await db.changes.bulkAdd(changes, { allKeys: true })) as number[]
  let at = 0
  return pages.map(({ plan }, i) => {
    const from = at
    at += removedOf[i]!.length + plan.rows.length
    return seqs.slice(from, at)
  })
}

/**
 * Each page's chunks to remove (its plan's, and stored chunks encryption at rest refuses), or
 * {@link STALE} when what is stored is not what a plan was made against. Pages new to the
 * memory (an import's usual group) are checked with one read for them all; a group that finds
 * any of them stored, or holds a page planned against stored chunks, reads page by page.
 */
async function checkStored(
  db: EngramDatabase,
  plans: readonly PagePlan[],
): Promise<string[][] | typeof STALE> {
  if (plans.length > 1 && plans.every((p) => p.expected.length === 0 && p.removed.length === 0)) {
    const held = await storedKeys(db, db.memories, () =>
      db.memories.where('pageId').anyOf(plans.map((p) => p.pageId)),
    )
    if (held.length === 0) return plans.map(() => [])
  }
  const removed: string[][] = []
  for (const plan of plans) {
    const r = await checkPage(db, plan)
    if (r === STALE) return STALE
    removed.push(r)
  }
  return removed
}

/** {@link checkStored} for one page: one read of its stored chunks. */
async function checkPage(db: EngramDatabase, plan: PagePlan): Promise<string[] | typeof STALE> {
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
  return [...plan.removed, ...refused]
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
