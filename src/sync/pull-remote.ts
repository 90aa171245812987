import type { RemotePut } from '../engine/replica.ts'
import { type EdgeChange, isEdgeDoc, pullEdges } from './edges.ts'
import { type Leaf, resolveLeaves } from './merge.ts'
import { foldNearDuplicates } from './near-duplicates.ts'
import { type MemoryPayload, toRow, vectorFromBase64 } from './payload.ts'
import {
  isMemoryDoc,
  openChecked,
  type SealedDoc,
  type SyncContext,
  sealDoc,
  writeDocs,
} from './sync-context.ts'
import { SYNC_BATCH } from './sync-options.ts'
import type { InboundPlan, SyncCursor } from './sync-types.ts'

/**
 * Applies one batch of mirror changes after `cursor.mirror` to the engine: each document's
 * concurrent versions resolved first (every device resolves them the same way and writes the
 * same merge), near duplicates written independently on two devices folded into one, then one
 * engine write. `guard` protects local changes not yet pushed. Returns how many changes it read
 * and how many mirror documents it wrote.
 */
export async function pullBatch(
  ctx: SyncContext,
  cursor: SyncCursor,
  guard: number,
): Promise<{ seen: number; writes: number }> {
  const feed = await ctx.mirror.changes({
    since: cursor.mirror,
    include_docs: true,
    style: 'all_docs',
    limit: SYNC_BATCH,
  })
  if (feed.results.length === 0) return { seen: 0, writes: 0 }
  const plan: InboundPlan = { puts: [], forgets: [], writes: [] }
  const edges: EdgeChange[] = []
  for (const change of feed.results) {
    const doc = change.doc as unknown as (SealedDoc & { _deleted?: boolean }) | undefined
    if (isEdgeDoc(change.id))
      edges.push({ id: change.id, doc, conflicted: change.changes.length > 1 })
    if (!isMemoryDoc(change.id)) continue
    if (change.changes.length > 1) await resolve(ctx, change.id, doc, plan)
    else if (change.deleted || !doc || doc._deleted) plan.forgets.push(change.id)
    else {
      const payload = await openPayload(ctx, doc)
      if (payload) plan.puts.push({ docId: change.id, payload })
    }
  }
  await foldNearDuplicates(ctx, plan)
  // A conflict here (the replicator wrote meanwhile) is resolved when its change comes round.
  let writes = (await writeDocs(ctx, plan.writes)).written
  await store(ctx, plan, guard)
  // After the memories, so an edge arriving with its ends finds them mapped.
  if (edges.length > 0 || ctx.edges.pending.size > 0) writes += await pullEdges(ctx, edges)
  cursor.mirror = Number(feed.last_seq)
  return { seen: feed.results.length, writes }
}

/** The memory payload of a sealed document, or undefined (counted as an error). */
function openPayload(ctx: SyncContext, doc: SealedDoc): Promise<MemoryPayload | undefined> {
  const isMemory = (p: MemoryPayload | undefined) => {
    const row = p?.row as Partial<MemoryPayload['row']> | undefined
    return p?.t === 'memory' && typeof row?.text === 'string' && typeof row.key === 'string'
  }
  return openChecked(ctx, doc, isMemory, 'a memory payload')
}

/**
 * Resolves a document with several leaf revisions (see `resolveLeaves`): the merge is written
 * over the winning revision, the other live revisions deleted; or every live one deleted when a
 * later forget wins. Deterministic seals and revisions make two devices doing this write the
 * same revisions.
 */
async function resolve(
  ctx: SyncContext,
  docId: string,
  winner: (SealedDoc & { _deleted?: boolean }) | undefined,
  plan: InboundPlan,
): Promise<void> {
  const revisions = (await ctx.mirror.get(docId, { open_revs: 'all' })) as unknown as {
    ok?: (SealedDoc & { _deleted?: boolean; at?: number }) & { _rev: string }
  }[]
  const leaves: Leaf[] = []
  const sealedByRev = new Map<string, SealedDoc>()
  for (const { ok } of revisions) {
    if (!ok) continue
    if (ok._deleted) leaves.push({ rev: ok._rev, deleted: true, at: ok.at ?? 0 })
    else {
      const payload = await openPayload(ctx, ok)
      if (!payload) continue
      sealedByRev.set(ok._rev, ok)
      leaves.push({ rev: ok._rev, deleted: false, payload })
    }
  }
  const keep = winner && !winner._deleted ? winner._rev! : ''
  const resolution = resolveLeaves(leaves, keep)
  const before = plan.writes.length
  if (resolution.outcome === 'forgotten') {
    for (const rev of resolution.losers) {
      plan.writes.push({ _id: docId, _rev: rev, _deleted: true, at: resolution.at })
    }
    plan.forgets.push(docId)
  } else {
    const merged = await sealDoc(ctx, docId, resolution.payload, keep)
    if (merged.iv !== sealedByRev.get(keep)?.iv) plan.writes.push(merged)
    for (const rev of resolution.losers) {
      plan.writes.push({ _id: docId, _rev: rev, _deleted: true, at: 0 })
    }
    plan.puts.push({ docId, payload: resolution.payload })
  }
  if (plan.writes.length > before) ctx.status.conflicts++
}

/** One engine write for the plan; the document map follows what was stored. */
export async function store(
  ctx: SyncContext,
  plan: Pick<InboundPlan, 'puts' | 'forgets'>,
  guard: number,
): Promise<void> {
  const deletes: string[] = []
  for (const docId of plan.forgets) {
    const local = ctx.docs.localOf(docId)
    if (local !== undefined) deletes.push(local)
  }
  const model = ctx.replica.model
  const puts: RemotePut[] = plan.puts.map(({ payload, vector }) => {
    const put: RemotePut = { memory: toRow(payload, payload.origin) }
    if (vector && model) put.vector = { model, vector }
    else if (payload.vector) {
      put.vector = { model: payload.vector.model, vector: vectorFromBase64(payload.vector.data) }
    }
    return put
  })
  if (puts.length === 0 && deletes.length === 0) return
  const applied = await ctx.replica.apply(puts, deletes, guard)
  for (const id of deletes) ctx.docs.dropLocal(id)
  plan.puts.forEach((p, i) => {
    ctx.docs.set(applied.ids[i]!, p.docId)
  })
  ctx.status.applied += applied.changed + applied.deleted
}
