import { vectorFromBase64 } from '../core/vector/base64.ts'
import type { RemotePut } from '../engine/replica/index.ts'
import { type EdgeChange, isEdgeDoc, pullEdges } from './edges.ts'
import { keepEarlierTexts, placeKeptTexts } from './kept-texts.ts'
import { type Leaf, resolveLeaves } from './merge.ts'
import { foldNearDuplicates } from './near-duplicates.ts'
import { contentOf, type MemoryPayload, toRow } from './payload.ts'
import { sameSeal } from './sealed.ts'
import {
  isMemoryDoc,
  openChecked,
  openTombstone,
  refuse,
  type SealedDoc,
  type SyncContext,
  sealDoc,
  sealTombstone,
  type Tombstone,
  writeDocs,
} from './sync-context.ts'
import { SYNC_BATCH } from './sync-options.ts'
import type { InboundPlan, SyncCursor } from './sync-types.ts'
import { compareVersions } from './versions.ts'

type MirrorDoc = (SealedDoc & { _deleted?: boolean }) | undefined

/**
 * Applies one batch of mirror changes after `cursor.mirror` to the engine: each document's
 * versions judged against what this device has seen (a seal that does not open, an older
 * version served as new, an unsealed deletion are refused, the local copy kept and written back
 * over them), concurrent versions resolved (every device resolves them the same way and writes
 * the same merge), near duplicates written independently on two devices folded into one, then
 * one engine write. `guard` protects local changes not yet pushed. Returns how many changes it
 * read and how many mirror documents it wrote.
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
  const plan: InboundPlan = { puts: [], forgets: [], writes: [], accepts: [], conflicts: [] }
  const edges: EdgeChange[] = []
  for (const change of feed.results) {
    const doc = change.doc as unknown as MirrorDoc
    if (isEdgeDoc(change.id))
      edges.push({ id: change.id, doc, conflicted: change.changes.length > 1 })
    if (!isMemoryDoc(change.id)) continue
    if (change.changes.length > 1 || !(await applyPlain(ctx, change.id, doc, plan)))
      await resolve(ctx, change.id, doc, plan)
  }
  await placeKeptTexts(ctx, plan, (doc) => openPayload(ctx, doc, true))
  await foldNearDuplicates(ctx, plan)
  // A conflict here (the replicator wrote meanwhile) is resolved when its change comes round.
  const written = await writeDocs(ctx, plan.writes)
  await store(ctx, plan, guard, written.revs)
  let writes = written.written
  // After the memories, so an edge arriving with its ends finds them mapped.
  if (edges.length > 0 || ctx.edges.pending.size > 0) writes += await pullEdges(ctx, edges)
  cursor.mirror = Number(feed.last_seq)
  return { seen: feed.results.length, writes }
}

/**
 * The common case, a single version newer than (or the same as) what this device has seen:
 * planned as it is. False when it needs judging ({@link resolve}): it does not open, it is older
 * than or concurrent with the version accepted here, or it is a deletion.
 */
async function applyPlain(
  ctx: SyncContext,
  docId: string,
  doc: MirrorDoc,
  plan: InboundPlan,
): Promise<boolean> {
  if (!doc || doc._deleted) {
    const forget = doc ? await openTombstone(ctx, doc as Tombstone, true) : undefined
    if (forget?.t !== 'forget' || !newer(ctx, docId, forget.vv)) return false
    plan.forgets.push(docId)
    plan.accepts.push({ docId, vv: forget.vv, deleted: true, rev: doc!._rev! })
    return true
  }
  const payload = await openPayload(ctx, doc, true)
  if (!payload || !newer(ctx, docId, payload.vv ?? {})) return false
  plan.puts.push({ docId, payload })
  plan.accepts.push({ docId, vv: payload.vv, deleted: false, rev: doc._rev! })
  return true
}

function newer(ctx: SyncContext, docId: string, vv: Record<string, number>): boolean {
  const seen = ctx.ledger.get(docId)
  if (!seen) return true
  const order = compareVersions(vv, seen.vv)
  return order === 'after' || order === 'equal'
}

/** The memory payload of a sealed document, or undefined (refused, unless `quiet`). */
export function openPayload(
  ctx: SyncContext,
  doc: SealedDoc,
  quiet = false,
): Promise<MemoryPayload | undefined> {
  const isMemory = (p: MemoryPayload | undefined) => {
    const row = p?.row as Partial<MemoryPayload['row']> | undefined
    return p?.t === 'memory' && typeof row?.text === 'string' && typeof row.key === 'string'
  }
  return openChecked(ctx, doc, isMemory, 'a memory payload', quiet)
}

/**
 * Judges every leaf revision of a document and resolves those left (see `resolveLeaves`). A leaf
 * that does not open, an unsealed deletion, or a version older than the one accepted here is
 * refused; when no leaf left holds the version this device accepted, that version (read from the
 * mirror's history) takes part again, so a rollback or an erasure is written over with the good
 * copy. The result is written over the winning revision and the other live leaves ended.
 * Deterministic seals and revisions make two devices doing this write the same revisions.
 */
async function resolve(
  ctx: SyncContext,
  docId: string,
  winner: MirrorDoc,
  plan: InboundPlan,
): Promise<void> {
  const revisions = (await ctx.mirror.get(docId, { open_revs: 'all' })) as unknown as {
    ok?: (SealedDoc & { _deleted?: boolean }) & { _rev: string }
  }[]
  const leaves: Leaf[] = []
  const liveRevs: string[] = []
  let refused = false
  const seen = ctx.ledger.get(docId)
  const stale = (vv: Record<string, number>) =>
    seen !== undefined && compareVersions(vv, seen.vv) === 'before'
  for (const { ok } of revisions) {
    if (!ok) continue
    if (!ok._deleted) liveRevs.push(ok._rev)
    const leaf = await openLeaf(ctx, ok)
    if (leaf === 'ended') continue
    if (!leaf) refused = true
    else if (stale(leaf.deleted ? leaf.vv : leaf.payload.vv)) {
      refuse(ctx, docId, 'rollback', 'an older version than this device has seen')
      refused = true
    } else leaves.push(leaf)
  }
  const vvOf = (l: Leaf) => (l.deleted ? l.vv : l.payload.vv)
  const covered = (l: Leaf) => {
    const order = compareVersions(vvOf(l), seen!.vv)
    return order === 'equal' || order === 'after'
  }
  if (seen && !leaves.some(covered)) {
    const good = await acceptedLeaf(ctx, docId, seen.rev)
    if (good) leaves.push(good)
  }
  if (leaves.length === 0) return
  const keep = winner?._rev ?? ''
  const resolution = resolveLeaves(leaves, keep)
  const current = leaves.find((l) => l.rev === keep)
  const before = plan.writes.length
  const live = leaves.filter((l) => !l.deleted)
  let done: { vv: Record<string, number>; deleted: boolean }
  let index = -1
  if (resolution.outcome === 'forgotten') {
    const forget = {
      t: 'forget' as const,
      at: resolution.at,
      vv: resolution.vv,
      prev: resolution.prev,
    }
    const sealed = await sealTombstone(ctx, docId, forget, keep || undefined)
    // The winner is that forget already (its chain aside): writing again would never settle.
    const settled = current?.deleted && compareVersions(current.vv, resolution.vv) === 'equal'
    if (!settled && !sameSeal(sealed, winner)) index = plan.writes.push(sealed) - 1
    plan.forgets.push(docId)
    done = { vv: resolution.vv, deleted: true }
  } else {
    const merged = await sealDoc(ctx, docId, resolution.payload, keep || undefined)
    const settled =
      current &&
      !current.deleted &&
      compareVersions(current.payload.vv, resolution.payload.vv) === 'equal' &&
      contentOf(current.payload) === contentOf(resolution.payload)
    if (!settled && (winner?._deleted || !sameSeal(merged, winner)))
      index = plan.writes.push(merged) - 1
    plan.puts.push({ docId, payload: resolution.payload })
    done = { vv: resolution.payload.vv, deleted: false }
    await keepEarlierTexts(ctx, docId, resolution.kept, resolution.payload, plan)
  }
  for (const rev of liveRevs) {
    if (rev === keep) continue
    const drop = { t: 'drop' as const, at: 0, vv: done.vv, prev: [] }
    plan.writes.push(await sealTombstone(ctx, docId, drop, rev))
  }
  plan.accepts.push({ docId, ...done, rev: keep, writeIndex: index })
  if (refused && plan.writes.length > before) ctx.status.repaired++
  if (live.length + (resolution.outcome === 'forgotten' ? 1 : 0) > 1 && !refused) {
    ctx.status.conflicts++
    plan.conflicts.push({
      docId,
      outcome: resolution.outcome === 'forgotten' ? 'forgotten' : 'merged',
      fields: resolution.outcome === 'live' ? resolution.fields : [],
    })
  }
}

/** A leaf as `resolveLeaves` takes it; undefined when refused; `ended` for a merged branch. */
async function openLeaf(
  ctx: SyncContext,
  doc: SealedDoc & { _deleted?: boolean; _rev: string },
): Promise<Leaf | 'ended' | undefined> {
  if (doc._deleted) {
    const forget = await openTombstone(ctx, doc as unknown as Tombstone)
    if (!forget) return undefined
    if (forget.t === 'drop') return 'ended'
    return { rev: doc._rev, deleted: true, at: forget.at, vv: forget.vv, iv: doc.iv }
  }
  const payload = await openPayload(ctx, doc)
  return payload ? { rev: doc._rev, deleted: false, payload, iv: doc.iv } : undefined
}

/** The version this device accepted, from the mirror's revision history (gone once compacted). */
async function acceptedLeaf(
  ctx: SyncContext,
  docId: string,
  rev: string,
): Promise<Leaf | undefined> {
  try {
    const doc = (await ctx.mirror.get(docId, { rev })) as unknown as SealedDoc & {
      _deleted?: boolean
      _rev: string
    }
    const leaf = await openLeaf(ctx, doc)
    return leaf === 'ended' ? undefined : leaf
  } catch {
    return undefined
  }
}

/**
 * One engine write for the plan; the document map and the ledger follow what was stored. A put
 * the engine held back (a local change not yet pushed) is not accepted: the next push merges it
 * against the version it was edited from.
 */
export async function store(
  ctx: SyncContext,
  plan: Pick<InboundPlan, 'puts' | 'forgets' | 'accepts' | 'conflicts'>,
  guard: number,
  revs: readonly (string | undefined)[] = [],
): Promise<void> {
  const deletes: string[] = []
  for (const docId of plan.forgets) {
    const local = ctx.docs.localOf(docId)
    if (local !== undefined) deletes.push(local)
  }
  const model = ctx.replica.model
  // Puts over memories held here go first: a kept earlier text arriving in the batch of the
  // merge that superseded it has the key the local row holds until the merge re-words it, and
  // would otherwise land on that row and be overwritten by the merge.
  const mapped = (p: InboundPlan['puts'][number]) => ctx.docs.localOf(p.docId) !== undefined
  const ordered = [...plan.puts].sort((x, y) => Number(mapped(y)) - Number(mapped(x)))
  const puts: RemotePut[] = ordered.map(({ docId, payload, vector }) => {
    const put: RemotePut = { memory: toRow(payload, payload.origin) }
    const replaces = ctx.docs.localOf(docId)
    if (replaces !== undefined) put.replaces = replaces
    if (vector && model) put.vector = { model, vector }
    else if (payload.vector) {
      put.vector = { model: payload.vector.model, vector: vectorFromBase64(payload.vector.data) }
    }
    return put
  })
  const heldBack = new Set<string>()
  if (puts.length > 0 || deletes.length > 0) {
    const applied = await ctx.replica.apply(puts, deletes, guard)
    for (const id of deletes) {
      if (ctx.replica.row(id)) heldBack.add(ctx.docs.docOf(id)!)
      else ctx.docs.dropLocal(id)
    }
    ordered.forEach((p, i) => {
      const id = applied.ids[i]!
      ctx.docs.set(id, p.docId)
      const row = ctx.replica.row(id)
      if (!row || row.text !== p.payload.row.text || row.updatedAt !== p.payload.row.updatedAt)
        heldBack.add(p.docId)
    })
    ctx.status.applied += applied.changed + applied.deleted
  }
  for (const a of plan.accepts) {
    if (heldBack.has(a.docId)) continue
    const rev = a.writeIndex !== undefined && a.writeIndex >= 0 ? revs[a.writeIndex] : a.rev
    if (rev) ctx.ledger.accept(a.docId, { vv: a.vv, rev, deleted: a.deleted })
  }
  for (const c of plan.conflicts) {
    const memory = ctx.docs.localOf(c.docId) ?? c.docId
    ctx.status.lastConflict = { memory, fields: c.fields, outcome: c.outcome }
  }
}
