/**
 * Relations between memories, replicated. Each edge is one sealed document whose id is a keyed
 * hash of its ends' document ids and its kind (local ids differ per device), live while the
 * edge holds and a tombstone once it is unrelated or either end is forgotten.
 *
 * Merge rule, the same on every device: an edge's concurrent versions resolve by last writer,
 * relating and unrelating both counted as writes (`createdAt` against the tombstone's `at`);
 * concurrent relates of one edge keep the earliest `createdAt`. An edge goes with either end: a
 * device that forgets an end (or applies its forget) tombstones the edge, and an edge that
 * arrives for an end already forgotten is tombstoned on arrival.
 */
import type { Relation } from '../core/types.ts'
import { toBase64Url } from './bytes.ts'
import type { EdgePayload, EdgeState } from './edge-state.ts'
import { sameSeal, seal } from './sealed.ts'
import {
  openChecked,
  openTombstone,
  readWinners,
  refuse,
  type SealedDoc,
  type SyncContext,
  sealTombstone,
  type Tombstone,
  writeDocs,
} from './sync-context.ts'
import { keyedHash } from './sync-keys.ts'
import type { SyncCursor } from './sync-types.ts'
import { compareVersions, joinVersions, nextVersion, type VersionVector } from './versions.ts'

export function newEdgeState(): EdgeState {
  return { held: new Map(), pending: new Map(), ids: new Map() }
}

export function isEdgeDoc(id: string): boolean {
  return id.startsWith('r:')
}

async function edgeDocId(ctx: SyncContext, from: string, to: string, kind: string) {
  const memo = `${from}\u0000${to}\u0000${kind}`
  let id = ctx.edges.ids.get(memo)
  if (id === undefined) {
    id = `r:${toBase64Url(await keyedHash(ctx.keys, 'edge', [from, to, kind]))}`
    ctx.edges.ids.set(memo, id)
  }
  return id
}

/** When an edge document was forgotten: its sealed tombstone's `at` (0 when unknown). */
async function forgottenAt(ctx: SyncContext, id: string, rev: string): Promise<number> {
  try {
    const doc = (await ctx.mirror.get(id, { rev })) as unknown as Tombstone
    return (await openTombstone(ctx, doc, true))?.at ?? 0
  } catch {
    return 0
  }
}

/** The next version of edge `id` this device writes, after what it accepted. */
function nextEdgeVersion(ctx: SyncContext, id: string): VersionVector {
  return nextVersion(ctx.ledger.get(id)?.vv, ctx.device)
}

/** A sealed tombstone for edge `id` over `rev`, the next version of it. */
async function edgeTombstone(
  ctx: SyncContext,
  id: string,
  rev: string,
  at: number,
  t: 'forget' | 'drop' = 'forget',
): Promise<Tombstone> {
  const vv = nextEdgeVersion(ctx, id)
  const doc = await sealTombstone(ctx, id, { t, at, vv, prev: [] }, rev)
  sealedVersions.set(doc, vv)
  return doc
}

/**
 * The sealed `supersedes` edge from a merged memory's document to the earlier text kept beside
 * it, the same bytes on every device; undefined when the mirror holds it already.
 */
export async function sealSupersedes(
  ctx: SyncContext,
  from: string,
  to: string,
  createdAt: number,
): Promise<SealedDoc | undefined> {
  const id = await edgeDocId(ctx, from, to, 'supersedes')
  if ((await readWinners(ctx, [id])).has(id)) return undefined
  const payload: EdgePayload = { t: 'relation', from, to, kind: 'supersedes', createdAt, vv: {} }
  return sealEdge(ctx, id, payload, undefined)
}

/**
 * Pushes local edge changes into the mirror: edges related here since the last look become
 * documents, edges gone here (unrelated, or an end forgotten) become tombstones. An edge related
 * here that the mirror holds as forgotten is removed here instead when the forget came later.
 * Returns the number of mirror documents written.
 */
export async function pushEdges(ctx: SyncContext): Promise<number> {
  const wanted = new Map<string, { edge: Relation; payload: EdgePayload }>()
  for (const edge of await ctx.replica.edges()) {
    const from = ctx.docs.docOf(edge.from)
    const to = ctx.docs.docOf(edge.to)
    if (from === undefined || to === undefined) continue
    const payload: EdgePayload = { t: 'relation', from, to, kind: edge.kind, ...at(edge) }
    wanted.set(await edgeDocId(ctx, from, to, edge.kind), { edge, payload })
  }
  const { held } = ctx.edges
  // New here, or related again since (unrelate then relate gives it a new createdAt).
  const fresh = [...wanted.keys()].filter(
    (id) => held.get(id)?.createdAt !== wanted.get(id)!.edge.createdAt,
  )
  const gone = [...held.keys()].filter((id) => !wanted.has(id))
  if (fresh.length === 0 && gone.length === 0) return 0
  const winners = await readWinners(ctx, [...fresh, ...gone])
  const docs: (SealedDoc | Tombstone)[] = []
  const settled: string[] = []
  const undo: Relation[] = []
  for (const id of fresh) {
    const { edge, payload } = wanted.get(id)!
    const winner = winners.get(id)
    if (winner && !winner.deleted && !held.has(id)) {
      // Live in the mirror already: pushed before a restart, or pulled and applied meanwhile.
      held.set(id, edge)
      continue
    }
    if (winner?.deleted && (await forgottenAt(ctx, id, winner.rev)) >= edge.createdAt) {
      undo.push(edge)
      continue
    }
    docs.push(await sealEdge(ctx, id, { ...payload, vv: nextEdgeVersion(ctx, id) }, winner?.rev))
    settled.push(id)
  }
  const now = ctx.replica.now()
  for (const id of gone) {
    const winner = winners.get(id)
    if (winner && !winner.deleted) docs.push(await edgeTombstone(ctx, id, winner.rev, now))
  }
  const outcome = await writeDocs(ctx, docs)
  acceptWritten(ctx, docs, outcome.revs)
  // A conflict: the replicator wrote one of these meanwhile; the next step looks again.
  if (!outcome.conflicted) {
    for (const id of settled) held.set(id, wanted.get(id)!.edge)
    for (const id of gone) held.delete(id)
  }
  if (undo.length > 0) ctx.status.applied += await ctx.replica.applyEdges([], undo)
  return outcome.written
}

function at(edge: Relation): { createdAt: number } {
  return { createdAt: edge.createdAt }
}

/** The version each edge document sealed here carries, for the ledger once it lands. */
const sealedVersions = new WeakMap<object, VersionVector>()

/** The ledger records each edge version that landed. */
function acceptWritten(
  ctx: SyncContext,
  docs: readonly (SealedDoc | Tombstone)[],
  revs: readonly (string | undefined)[],
): void {
  docs.forEach((doc, i) => {
    const rev = revs[i]
    const vv = sealedVersions.get(doc)
    if (rev && vv) ctx.ledger.accept(doc._id, { vv, rev, deleted: '_deleted' in doc })
  })
}

async function sealEdge(
  ctx: SyncContext,
  id: string,
  payload: EdgePayload,
  rev: string | undefined,
): Promise<SealedDoc> {
  const sealed = await seal(ctx.keys, id, payload)
  const doc: SealedDoc = rev ? { _id: id, _rev: rev, ...sealed } : { _id: id, ...sealed }
  if (payload.vv) sealedVersions.set(doc, payload.vv)
  return doc
}

/**
 * What the edges stood at when this device last stopped: live edge documents it had already
 * applied or pushed (mirror seq at or before `cursor.mirror`) are held, with their local ends,
 * so the first push tombstones those unrelated here meanwhile; later ones come through the pull.
 */
export async function loadEdges(ctx: SyncContext, cursor: SyncCursor): Promise<void> {
  if (cursor.mirror === 0) return
  const feed = await ctx.mirror.changes({ since: 0 })
  const ids = feed.results
    .filter((r) => isEdgeDoc(r.id) && !r.deleted && Number(r.seq) <= cursor.mirror)
    .map((r) => r.id)
  if (ids.length === 0) return
  const winners = await readWinners(ctx, ids)
  for (const [id, winner] of winners) {
    const payload = winner.doc ? await openEdge(ctx, winner.doc) : undefined
    if (!payload) continue
    const from = ctx.docs.localOf(payload.from)
    const to = ctx.docs.localOf(payload.to)
    if (from === undefined || to === undefined) ctx.edges.pending.set(id, payload)
    else ctx.edges.held.set(id, { from, to, kind: payload.kind, createdAt: payload.createdAt })
  }
}

/** One edge document's change as the pull feed gives it. */
export interface EdgeChange {
  id: string
  /** The winning revision's body; undefined or `_deleted` for a tombstone. */
  doc: (SealedDoc & { _deleted?: boolean }) | undefined
  /** More than one leaf: concurrent versions to resolve. */
  conflicted: boolean
}

/**
 * Applies edge documents from the mirror after the memories of the same batch are stored (so
 * their ends are mapped): live edges related here, tombstones unrelated, concurrent versions
 * resolved by the rule above, and pending edges retried. Returns mirror documents written.
 */
export async function pullEdges(ctx: SyncContext, changes: readonly EdgeChange[]): Promise<number> {
  const puts: Relation[] = []
  const removes: Relation[] = []
  const writes: (SealedDoc | Tombstone)[] = []
  for (const change of changes) {
    const judged = change.conflicted
      ? { live: await resolveEdge(ctx, change.id, writes) }
      : await judgeEdge(ctx, change)
    // Refused (tampered, older than seen, an unsealed deletion): the edge here stays as it is.
    if (!judged) continue
    const { live } = judged
    ctx.edges.pending.delete(change.id)
    if (live) ctx.edges.pending.set(change.id, live)
    else {
      const edge = ctx.edges.held.get(change.id)
      if (edge) removes.push(edge)
      ctx.edges.held.delete(change.id)
    }
  }
  for (const [id, payload] of [...ctx.edges.pending]) {
    const from = ctx.docs.localOf(payload.from)
    const to = ctx.docs.localOf(payload.to)
    if (from !== undefined && to !== undefined) {
      const edge: Relation = { from, to, kind: payload.kind, createdAt: payload.createdAt }
      puts.push(edge)
      ctx.edges.held.set(id, edge)
      ctx.edges.pending.delete(id)
    }
  }
  await tombstoneOrphans(ctx, writes)
  const outcome = await writeDocs(ctx, writes)
  acceptWritten(ctx, writes, outcome.revs)
  ctx.status.applied += await ctx.replica.applyEdges(puts, removes)
  return outcome.written
}

/**
 * A single edge version judged against the one this device accepted: `{ live }` (undefined for
 * a sealed forget) when it stands, undefined when it is refused.
 */
async function judgeEdge(
  ctx: SyncContext,
  change: EdgeChange,
): Promise<{ live: EdgePayload | undefined } | undefined> {
  const { doc, id } = change
  const seen = ctx.ledger.get(id)
  const stale = (vv: VersionVector | undefined) =>
    seen !== undefined && compareVersions(vv ?? {}, seen.vv) === 'before'
  if (!doc || doc._deleted) {
    const forget = doc ? await openTombstone(ctx, doc as unknown as Tombstone) : undefined
    if (!forget) return undefined
    if (stale(forget.vv)) {
      refuse(ctx, id, 'rollback', 'an older version than this device has seen')
      return undefined
    }
    ctx.ledger.accept(id, { vv: forget.vv, rev: doc!._rev!, deleted: true })
    return { live: undefined }
  }
  const live = await openEdge(ctx, doc)
  if (!live) return undefined
  if (stale(live.vv)) {
    refuse(ctx, id, 'rollback', 'an older version than this device has seen')
    return undefined
  }
  ctx.ledger.accept(id, { vv: live.vv ?? {}, rev: doc._rev!, deleted: false })
  return { live }
}

/** Pending edges an end of which the mirror holds as forgotten: they went with that end. */
async function tombstoneOrphans(
  ctx: SyncContext,
  writes: (SealedDoc | Tombstone)[],
): Promise<void> {
  const { pending } = ctx.edges
  if (pending.size === 0) return
  const ends = new Set<string>()
  for (const p of pending.values()) ends.add(p.from).add(p.to)
  const winners = await readWinners(ctx, [...ends])
  const orphans = [...pending.keys()].filter((id) => {
    const p = pending.get(id)!
    return winners.get(p.from)?.deleted || winners.get(p.to)?.deleted
  })
  if (orphans.length === 0) return
  const revs = await readWinners(ctx, orphans)
  const now = ctx.replica.now()
  for (const id of orphans) {
    pending.delete(id)
    const rev = revs.get(id)
    if (rev && !rev.deleted) writes.push(await edgeTombstone(ctx, id, rev.rev, now))
  }
}

function openEdge(ctx: SyncContext, doc: SealedDoc): Promise<EdgePayload | undefined> {
  const isEdge = (p: EdgePayload | undefined) => p?.t === 'relation' && typeof p.from === 'string'
  return openChecked(ctx, doc, isEdge, 'an edge')
}

/**
 * Resolves an edge document with several leaves: live when its latest relate is later than its
 * latest unrelate, with the earliest `createdAt` of the live versions (sealed the same on every
 * device, so both write one revision); the other live leaves deleted. Returns the live payload.
 */
async function resolveEdge(
  ctx: SyncContext,
  id: string,
  writes: (SealedDoc | Tombstone)[],
): Promise<EdgePayload | undefined> {
  const leaves = (await ctx.mirror.get(id, { open_revs: 'all' })) as unknown as {
    ok?: SealedDoc & { _rev: string; _deleted?: boolean }
  }[]
  const live: { rev: string; payload: EdgePayload }[] = []
  let forgotAt = 0
  const seen: VersionVector[] = []
  for (const { ok } of leaves) {
    if (!ok) continue
    if (ok._deleted) {
      const forget = await openTombstone(ctx, ok as unknown as Tombstone)
      if (forget?.t === 'forget') {
        forgotAt = Math.max(forgotAt, forget.at)
        seen.push(forget.vv)
      }
    } else {
      const payload = await openEdge(ctx, ok)
      if (payload) live.push({ rev: ok._rev, payload })
    }
  }
  if (live.length === 0) return undefined
  live.sort((x, y) => (x.rev < y.rev ? 1 : x.rev > y.rev ? -1 : 0))
  const relatedAt = Math.max(...live.map((l) => l.payload.createdAt))
  const before = writes.length
  if (forgotAt >= relatedAt) {
    for (const l of live) writes.push(await edgeTombstone(ctx, id, l.rev, forgotAt))
    if (writes.length > before) ctx.status.conflicts++
    return undefined
  }
  const winner = (await readWinners(ctx, [id])).get(id)
  const keep = winner && !winner.deleted ? winner.rev : live[0]!.rev
  const createdAt = Math.min(...live.map((l) => l.payload.createdAt))
  const vv = joinVersions(...seen, ...live.map((l) => l.payload.vv ?? {}))
  const merged = { ...live[0]!.payload, createdAt, vv }
  const sealed = await sealEdge(ctx, id, merged, keep)
  if (!sameSeal(sealed, winner?.doc)) writes.push(sealed)
  else ctx.ledger.accept(id, { vv, rev: keep, deleted: false })
  for (const l of live)
    if (l.rev !== keep) writes.push(await edgeTombstone(ctx, id, l.rev, 0, 'drop'))
  if (writes.length > before) ctx.status.conflicts++
  return merged
}
