import type { Memory } from '../core/types.ts'
import { vectorToBase64 } from '../core/vector/base64.ts'
import type { VectorRow } from '../storage/index.ts'
import { mergePayloads } from './merge.ts'
import { contentOf, type MemoryPayload, toPayload } from './payload.ts'
import { openPayload, store } from './pull-remote.ts'
import { type SealedFields, sameSeal } from './sealed.ts'
import {
  isMemoryDoc,
  readWinners,
  type SealedDoc,
  type SyncContext,
  sealDoc,
  sealTombstone,
  type Tombstone,
  type Winner,
  writeDocs,
} from './sync-context.ts'
import { memoryDocId } from './sync-keys.ts'
import { SYNC_BATCH } from './sync-options.ts'
import type { Incoming, SyncCursor } from './sync-types.ts'
import { compareVersions, joinVersions, nextVersion } from './versions.ts'

/** A local memory forgotten at `at`. */
interface LocalDelete {
  id: string
  at: number
}

/**
 * Pushes local changes after `cursor.local` into the mirror, a batch at a time, and moves the
 * cursor. When the change log no longer reaches back that far (pruned behind a snapshot, or a
 * first sync of an existing memory), a full pass over every row takes its place. Returns the
 * number of mirror documents written and of local changes read.
 */
export async function pushLocal(
  ctx: SyncContext,
  cursor: SyncCursor,
): Promise<{ written: number; seen: number }> {
  let written = 0
  let seen = 0
  let unknownDeletes = false
  for (;;) {
    const batch = await ctx.replica.changesSince(cursor.local, SYNC_BATCH)
    if (batch.gap) return { written: written + (await fullPass(ctx, cursor)), seen: seen + 1 }
    if (batch.changes.length === 0) break
    seen += batch.changes.length
    const latest = new Map<string, number>()
    for (const change of batch.changes) latest.set(change.id, change.at)
    const rows: Memory[] = []
    const deletes: LocalDelete[] = []
    for (const [id, at] of latest) {
      const row = batch.rows.get(id)
      if (row) rows.push(row)
      else if (ctx.docs.docOf(id) !== undefined) deletes.push({ id, at })
      else unknownDeletes = true
    }
    written += await writeRows(ctx, rows, batch.vectors, deletes, batch.last)
    cursor.local = batch.last
  }
  // A memory forgotten before this device ever mapped it (sync was off): find it by absence.
  if (unknownDeletes) written += await tombstoneMissing(ctx, cursor, await localDocIds(ctx))
  return { written, seen }
}

/** Every local row pushed, then documents this device applied but no longer holds forgotten. */
async function fullPass(ctx: SyncContext, cursor: SyncCursor): Promise<number> {
  const all = await ctx.replica.allRows(ctx.vectors)
  const rows = [...all.rows.values()]
  let written = 0
  for (let start = 0; start < rows.length; start += SYNC_BATCH) {
    written += await writeRows(
      ctx,
      rows.slice(start, start + SYNC_BATCH),
      all.vectors,
      [],
      all.last,
    )
  }
  const held = new Set<string>()
  for (const row of rows) {
    const doc = ctx.docs.docOf(row.id)
    if (doc) held.add(doc)
  }
  written += await tombstoneMissing(ctx, cursor, held)
  cursor.local = all.last
  return written
}

async function localDocIds(ctx: SyncContext): Promise<Set<string>> {
  const all = await ctx.replica.allRows(false)
  const held = new Set<string>()
  for (const row of all.rows.values()) held.add(await memoryDocId(ctx.keys, row))
  return held
}

/**
 * Forgets, in the mirror, live memory documents this device had already applied (mirror seq at
 * or before `cursor.mirror`) that no local row stands for any more. Documents after the cursor
 * have not been applied yet, so their absence here says nothing.
 */
async function tombstoneMissing(
  ctx: SyncContext,
  cursor: SyncCursor,
  held: ReadonlySet<string>,
): Promise<number> {
  if (cursor.mirror === 0) return 0
  const feed = await ctx.mirror.changes({ since: 0 })
  const ids = feed.results
    .filter((r) => isMemoryDoc(r.id) && !r.deleted && Number(r.seq) <= cursor.mirror)
    .filter((r) => !held.has(r.id))
    .map((r) => r.id)
  if (ids.length === 0) return 0
  const winners = await readWinners(ctx, ids)
  const now = ctx.replica.now()
  const gone: Tombstone[] = []
  const versions: Written[] = []
  for (const [docId, winner] of winners) {
    if (winner.deleted) continue
    const base = ctx.ledger.get(docId)
    const vv = nextVersion(joinVersions(base?.vv ?? {}, await versionOf(ctx, winner)), ctx.device)
    const prev = winner.doc ? [winner.doc.iv] : []
    gone.push(await sealTombstone(ctx, docId, { t: 'forget', at: now, vv, prev }, winner.rev))
    versions.push({ docId, vv, deleted: true })
  }
  const outcome = await writeDocs(ctx, gone)
  versions.forEach((v, i) => {
    const rev = outcome.revs[i]
    if (rev) ctx.ledger.accept(v.docId, { vv: v.vv, rev, deleted: true })
  })
  return outcome.written
}

/**
 * Writes local rows into the mirror, each as the next version of the one this device accepted
 * for its document (the ledger), merged with the mirror's winner when a newer remote version
 * arrived meanwhile (so it is merged, not overwritten), and sealed tombstones for `deletes`. A
 * row whose content is what this device accepted writes nothing: this is how changes that came
 * from the mirror are not echoed. A winner that is refused (tampered, older than accepted, an
 * unsealed deletion) is written over. A text edit keeps the memory's document: the document is
 * the memory, so concurrent edits of its fields on two devices meet as one conflict.
 */
export async function writeRows(
  ctx: SyncContext,
  rows: readonly Memory[],
  vectors: ReadonlyMap<string, VectorRow>,
  deletes: readonly LocalDelete[],
  seq: number,
): Promise<number> {
  let written = 0
  // A conflict means the replicator wrote one of these documents in between: write again over
  // the new winner (the rows that did land are what the ledger holds now, and are skipped).
  for (let attempt = 1; ; attempt++) {
    const outcome = await writeOnce(ctx, rows, vectors, deletes)
    written += outcome.written
    if (outcome.conflicted && attempt < WRITE_ATTEMPTS) continue
    // Rows the merge changed (a remote version was newer in some field) take the merge too, so
    // a local row is never left behind its document when an inbound put was held back for it.
    if (outcome.behind.length > 0) {
      await store(ctx, { puts: outcome.behind, forgets: [], accepts: [], conflicts: [] }, seq)
    }
    return written
  }
}

const WRITE_ATTEMPTS = 5

/** A version written, to record in the ledger once it landed. */
interface Written {
  docId: string
  vv: Record<string, number>
  deleted: boolean
}

async function writeOnce(
  ctx: SyncContext,
  rows: readonly Memory[],
  vectors: ReadonlyMap<string, VectorRow>,
  deletes: readonly LocalDelete[],
): Promise<{ written: number; conflicted: boolean; behind: Incoming[] }> {
  const behind: Incoming[] = []
  const docIds = await Promise.all(
    rows.map(async (row) => ctx.docs.docOf(row.id) ?? (await memoryDocId(ctx.keys, row))),
  )
  const tombstones = new Map<string, number>()
  for (const d of deletes) tombstones.set(ctx.docs.docOf(d.id)!, d.at)
  for (const id of docIds) tombstones.delete(id)
  const winners = await readWinners(ctx, [...docIds, ...tombstones.keys()])
  const docs: (SealedDoc | Tombstone)[] = []
  const versions: Written[] = []
  for (const [i, row] of rows.entries()) {
    const docId = docIds[i]!
    const winner = winners.get(docId)
    const base = await acceptedPayload(ctx, docId, winner)
    const current = await currentRemote(ctx, docId, winner, base)
    const vector = vectorOf(ctx, vectors.get(row.id))
    const candidate = toPayload(row, ctx.device, base?.payload, vector, base ? [base.iv] : [])
    ctx.docs.set(row.id, docId)
    const unchanged = base !== undefined && contentOf(candidate) === contentOf(base.payload)
    let payload: MemoryPayload
    if (current) {
      // A newer version arrived: merged with the local one if this row changed, else taken.
      if (unchanged) {
        behind.push({ docId, payload: current.payload })
        continue
      }
      const merged = mergePayloads([candidate, current.payload], [current.iv, ...candidate.prev])
      payload = merged.payload
      if (contentOf(payload) !== contentOf(candidate)) behind.push({ docId, payload })
    } else if (unchanged && sameSeal(winner?.doc, base.seal)) continue
    else payload = unchanged ? base!.payload : candidate
    const sealed = await sealDoc(ctx, docId, payload, winner?.rev)
    if (sameSeal(sealed, winner?.doc)) continue
    // Neither the version accepted here nor a newer one: what the server put there is refused.
    if (base && winner && !current && !sameSeal(winner.doc, base.seal)) ctx.status.repaired++
    docs.push(sealed)
    versions.push({ docId, vv: payload.vv, deleted: false })
  }
  for (const [docId, at] of tombstones) {
    const winner = winners.get(docId)
    if (!winner || winner.deleted) continue
    const base = ctx.ledger.get(docId)
    const vv = nextVersion(joinVersions(base?.vv ?? {}, await versionOf(ctx, winner)), ctx.device)
    const forget = { t: 'forget' as const, at, vv, prev: winner.doc ? [winner.doc.iv] : [] }
    docs.push(await sealTombstone(ctx, docId, forget, winner.rev))
    versions.push({ docId, vv, deleted: true })
  }
  if (docs.length === 0) {
    for (const d of deletes) ctx.docs.dropLocal(d.id)
    return { written: 0, conflicted: false, behind }
  }
  const outcome = await writeDocs(ctx, docs)
  versions.forEach((v, i) => {
    const rev = outcome.revs[i]
    if (rev) ctx.ledger.accept(v.docId, { vv: v.vv, rev, deleted: v.deleted })
  })
  if (!outcome.conflicted) for (const d of deletes) ctx.docs.dropLocal(d.id)
  return { ...outcome, behind: outcome.conflicted ? [] : behind }
}

/** The version a local row was edited from: the one this device accepted, opened. */
interface Base {
  payload: MemoryPayload
  iv: string
  seal: SealedFields
}

/** The version of `docId` this device accepted, as a payload, when it is a live one. */
async function acceptedPayload(
  ctx: SyncContext,
  docId: string,
  winner: Winner | undefined,
): Promise<Base | undefined> {
  const seen = ctx.ledger.get(docId)
  if (!seen || seen.deleted) return undefined
  let doc = winner?.rev === seen.rev ? winner.doc : undefined
  if (!doc) {
    try {
      doc = (await ctx.mirror.get(docId, { rev: seen.rev })) as unknown as SealedDoc
    } catch {
      return undefined
    }
  }
  const payload = await openPayload(ctx, doc, true)
  return payload ? { payload, iv: doc.iv, seal: doc } : undefined
}

/**
 * The mirror's winner when it is a version newer than (or concurrent with) the one accepted
 * here, to merge with; undefined when it is that version, or refused (written over).
 */
async function currentRemote(
  ctx: SyncContext,
  docId: string,
  winner: Winner | undefined,
  base: Base | undefined,
): Promise<{ payload: MemoryPayload; iv: string } | undefined> {
  if (!winner?.doc || sameSeal(winner.doc, base?.seal)) return undefined
  const payload = await openPayload(ctx, winner.doc, true)
  if (!payload) return undefined
  const seen = ctx.ledger.get(docId)
  if (seen && compareVersions(payload.vv ?? {}, seen.vv) === 'before') return undefined
  if (seen && compareVersions(payload.vv ?? {}, seen.vv) === 'equal') return undefined
  return { payload, iv: winner.doc.iv }
}

/** The version vector of a live winner, when it opens. */
async function versionOf(ctx: SyncContext, winner: Winner): Promise<Record<string, number>> {
  const payload = winner.doc ? await openPayload(ctx, winner.doc, true) : undefined
  return payload?.vv ?? {}
}

function vectorOf(ctx: SyncContext, vectorRow: VectorRow | undefined) {
  return ctx.vectors && vectorRow
    ? { model: vectorRow.model, dims: vectorRow.dims, data: vectorToBase64(vectorRow.vector) }
    : undefined
}

export type { SyncCursor } from './sync-types.ts'
