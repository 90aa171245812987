import { sealSupersedes } from './edges.ts'
import { keptVersion } from './merge.ts'
import type { MemoryPayload } from './payload.ts'
import { readWinners, type SealedDoc, type SyncContext, sealDoc } from './sync-context.ts'
import { memoryDocId } from './sync-keys.ts'
import type { InboundPlan } from './sync-types.ts'

/**
 * A text that lost a concurrent edit stays, as a memory of its own that the merged one
 * supersedes: its document named by its own identity and sealed from its version alone, the
 * edge from the merged document to it, both the same bytes on every device that merges.
 */
export async function keepEarlierTexts(
  ctx: SyncContext,
  docId: string,
  kept: readonly MemoryPayload[],
  merged: MemoryPayload,
  plan: InboundPlan,
): Promise<void> {
  for (const version of kept) {
    const keptId = await memoryDocId(ctx.keys, version.row)
    if (keptId === docId) continue
    const held = (await readWinners(ctx, [keptId])).get(keptId)
    if (!held) plan.writes.push(await sealDoc(ctx, keptId, keptVersion(version, docId)))
    const edge = await sealSupersedes(ctx, docId, keptId, merged.row.updatedAt)
    if (edge) plan.writes.push(edge)
  }
}

/**
 * Places kept earlier texts that arrive from another device's merge. A kept text has the key
 * of the local row it was a version of, until the merge re-words that row, so:
 * - a kept text whose merge is not in this step is held back: stored now, it would land on the
 *   row it was a version of (one row per key). It comes back with the merge, below;
 * - a merge that re-words a row held here brings the kept text of that row's old wording, when
 *   the mirror holds one not yet placed, whichever step it arrived in.
 * The store step puts re-wordings before new memories (see `store`).
 */
export async function placeKeptTexts(
  ctx: SyncContext,
  plan: InboundPlan,
  open: (doc: SealedDoc) => Promise<MemoryPayload | undefined>,
): Promise<void> {
  const planned = new Set(plan.puts.map((p) => p.docId))
  const early = new Set<string>()
  for (const { docId, payload } of plan.puts) {
    const of = payload.kept
    if (of === undefined || planned.has(of)) continue
    const local = ctx.replica.idForKey(payload.row)
    if (local !== undefined && ctx.docs.docOf(local) === of) early.add(docId)
  }
  if (early.size > 0) {
    plan.puts = plan.puts.filter((p) => !early.has(p.docId))
    plan.accepts = plan.accepts.filter((a) => !early.has(a.docId))
    for (const id of early) planned.delete(id)
  }
  for (const { docId, payload } of [...plan.puts]) {
    const local = ctx.docs.localOf(docId)
    const row = local === undefined ? undefined : ctx.replica.row(local)
    if (!row || row.text === payload.row.text) continue
    const keptId = await memoryDocId(ctx.keys, row)
    if (keptId === docId || planned.has(keptId) || ctx.docs.hasDoc(keptId)) continue
    const doc = (await ctx.mirror.get(keptId).catch(() => undefined)) as SealedDoc | undefined
    const version = doc && (await open(doc))
    if (version?.kept !== docId) continue
    planned.add(keptId)
    plan.puts.push({ docId: keptId, payload: version })
    plan.accepts.push({ docId: keptId, vv: version.vv ?? {}, deleted: false, rev: doc!._rev! })
  }
}
