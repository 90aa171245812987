import { confidenceValue } from '../../core/lifecycle.ts'
import { CAPPED_TRUST, type LifecycleOptions } from '../../core/options.ts'
import type { Memory, Relation, ReviewReport } from '../../core/types.ts'
import { trustRank } from '../../core/vocabulary.ts'
import type { ChangeRow } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { dropEdges, edgesOf, putEdge } from '../relations.ts'
import type { Written } from '../write/index.ts'
import type { Merge } from './judge.ts'
import { PROGRESS_KEY, type ReviewProgress } from './progress.ts'
import type { ReviewAction } from './rules.ts'

/** A page curated in a step: its chunk ids, as the catalogue held them when it was planned. */
export interface PlannedPage {
  pageId: string
  ids: string[]
}

/** What a review step plans under the lock, for its transaction. */
export interface ChunkPlan {
  /** The step's memory ids, in id order; the last is the progress mark. */
  chunk: string[]
  actions: Map<string, ReviewAction>
  pages: readonly PlannedPage[]
  merges: Merge[]
  edges: Omit<Relation, 'createdAt'>[]
  now: number
}

/** What a step's transaction did, for the report. */
export interface ChunkOutcome {
  puts: Map<string, Memory>
  deletes: string[]
  merged: Merge[]
  made: Relation[]
}

/**
 * One transaction for a chunk: every action against the rows as they are now (a row another
 * tab removed is skipped, and so is a page whose chunks another writer changed meanwhile: a
 * page is curated whole or not at all), the merges (the newer memory's counts folded into the older, its
 * edges moved over), the judge's edges, change entries and the progress mark. A write
 * attempt's `commit` (`runWrite`, with `meta` among its tables): the indexes change after it.
 */
export async function commitChunk(
  ctx: EngineContext,
  plan: ChunkPlan,
  run: ReviewProgress,
): Promise<Written<ChunkOutcome>> {
  const { db } = ctx
  const { chunk, actions, now } = plan
  const puts = new Map<string, Memory>()
  const deletes: string[] = []
  const merged: Merge[] = []
  const made: Relation[] = []
  const changed = await changedPages(ctx, plan.pages)
  const ids = [...actions.keys()]
  const rows = await db.memories.bulkGet(ids)
  for (const [i, row] of rows.entries()) {
    const action = actions.get(ids[i]!)!
    if (!row || changed.has(row.id)) continue
    if (action.remove) {
      deletes.push(row.id)
      continue
    }
    const next = { ...row }
    if (action.archive) next.archivedAt = now
    if (action.flag) next.needsReview = true
    if (action.promote) next.tier = action.promote
    if (action.archive || action.flag || action.promote) puts.set(row.id, next)
  }
  for (const m of plan.merges) {
    const [into, from] = await db.memories.bulkGet([m.into, m.from])
    if (!into || !from || deletes.includes(into.id)) continue
    puts.set(into.id, folded(puts.get(into.id) ?? into, from, ctx.lifecycle))
    puts.delete(from.id)
    deletes.push(from.id)
    await moveEdges(ctx, from.id, into.id, now)
    merged.push(m)
  }
  for (const e of plan.edges) made.push(await putEdge(db, e, now))
  await db.memories.bulkPut([...puts.values()])
  await db.memories.bulkDelete(deletes)
  await db.vectors.bulkDelete(deletes)
  await dropEdges(db, deletes)
  const changes: ChangeRow[] = [
    ...[...puts.keys()].map((id) => ({ op: 'put' as const, id, at: now })),
    ...deletes.map((id) => ({ op: 'delete' as const, id, at: now })),
  ]
  const added = changes.length > 0 ? await db.changes.bulkAdd(changes, { allKeys: true }) : []
  await db.meta.put({ key: PROGRESS_KEY, value: { ...run, cursor: chunk[chunk.length - 1]! } })
  return {
    result: { puts, deletes, merged, made },
    seqs: added as number[],
    removed: deletes,
    refreshed: [...puts.values()],
  }
}

/** Adds what a committed step did to the report. */
export function reportChunk(plan: ChunkPlan, outcome: ChunkOutcome, report: ReviewReport): void {
  const { puts, deletes } = outcome
  report.merged.push(...outcome.merged)
  const merged = new Set(report.merged.map((m) => m.from))
  for (const [id, action] of plan.actions) {
    if (action.remove && deletes.includes(id) && !merged.has(id)) report.removed.push(id)
    if (!puts.has(id)) continue
    if (action.archive) report.archived.push(id)
    if (action.flag) report.flagged.push(id)
    if (action.promote) report.promoted.push({ id, tier: action.promote })
  }
  report.related.push(...outcome.made)
}

/** Ids of the chunks of every planned page whose chunks in the table are no longer the planned ones. */
async function changedPages(
  ctx: EngineContext,
  pages: readonly PlannedPage[],
): Promise<Set<string>> {
  const changed = new Set<string>()
  for (const { pageId, ids } of pages) {
    const held = await ctx.db.memories.where('pageId').equals(pageId).primaryKeys()
    const planned = new Set(ids)
    if (held.length !== ids.length || held.some((id) => !planned.has(id as string)))
      for (const id of ids) changed.add(id)
  }
  return changed
}

/**
 * `into` with what `from` said folded in: its confirmations, recalls and last uses. A memory
 * derived from others carries the lowest trust of its inputs, and an untrusted one is held to
 * the confidence an untrusted write starts from at most.
 */
function folded(into: Memory, from: Memory, lifecycle: LifecycleOptions): Memory {
  const trust = trustRank(from.trust) > trustRank(into.trust) ? from.trust : into.trust
  const next: Memory = {
    ...into,
    trust,
    confirmations: into.confirmations + from.confirmations,
    recallCount: into.recallCount + from.recallCount,
    confirmedAt: Math.max(into.confirmedAt, from.confirmedAt),
  }
  if (CAPPED_TRUST.includes(trust))
    next.confidence = Math.min(confidenceValue(into.confidence), lifecycle.untrustedCeiling)
  const last = Math.max(into.lastRecalledAt ?? 0, from.lastRecalledAt ?? 0)
  if (last > 0) next.lastRecalledAt = last
  return next
}

/** Re-points `from`'s edges at `into` (an edge that would join `into` to itself is dropped). */
async function moveEdges(ctx: EngineContext, from: string, into: string, now: number) {
  for (const e of await edgesOf(ctx.db, [from])) {
    const moved = { from: e.from === from ? into : e.from, to: e.to === from ? into : e.to }
    if (moved.from !== moved.to) await putEdge(ctx.db, { ...moved, kind: e.kind }, now)
  }
}
