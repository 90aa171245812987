import type { Memory } from '../core/types.ts'
import type { VectorRow } from '../storage/index.ts'
import { canonicalJson } from './bytes.ts'
import { mergePayloads } from './merge.ts'
import { type MemoryPayload, toPayload, vectorToBase64 } from './payload.ts'
import { store } from './pull-remote.ts'
import {
  isMemoryDoc,
  openDoc,
  readWinners,
  type SealedDoc,
  type SyncContext,
  sealDoc,
  type Tombstone,
  writeDocs,
} from './sync-context.ts'
import { memoryDocId } from './sync-keys.ts'
import { SYNC_BATCH } from './sync-options.ts'
import type { Incoming, SyncCursor } from './sync-types.ts'

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
  const gone = feed.results
    .filter((r) => isMemoryDoc(r.id) && !r.deleted && Number(r.seq) <= cursor.mirror)
    .filter((r) => !held.has(r.id))
    .map((r) => ({ _id: r.id, _rev: r.changes[0]!.rev, _deleted: true as const, at: Date.now() }))
  return (await writeDocs(ctx, gone)).written
}

/**
 * Writes local rows into the mirror, each merged with the document's current winner there (so
 * a remote version that arrived meanwhile is merged, not overwritten), and tombstones for
 * `deletes` and for the documents of rows whose key changed. A row that seals to what the mirror
 * already holds writes nothing: this is how changes that came from the mirror are not echoed.
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
  // the new winner (the rows that did land seal to what the mirror holds and are skipped).
  for (let attempt = 1; ; attempt++) {
    const outcome = await writeOnce(ctx, rows, vectors, deletes)
    written += outcome.written
    if (outcome.conflicted && attempt < WRITE_ATTEMPTS) continue
    // Rows the merge changed (a remote version was newer in some field) take the merge too, so
    // a local row is never left behind its document when an inbound put was held back for it.
    if (outcome.behind.length > 0) await store(ctx, { puts: outcome.behind, forgets: [] }, seq)
    return written
  }
}

const WRITE_ATTEMPTS = 5

async function writeOnce(
  ctx: SyncContext,
  rows: readonly Memory[],
  vectors: ReadonlyMap<string, VectorRow>,
  deletes: readonly LocalDelete[],
): Promise<{ written: number; conflicted: boolean; behind: Incoming[] }> {
  const behind: Incoming[] = []
  const docIds = await Promise.all(rows.map((row) => memoryDocId(ctx.keys, row)))
  const tombstones = new Map<string, number>()
  rows.forEach((row, i) => {
    const before = ctx.docs.docOf(row.id)
    if (before !== undefined && before !== docIds[i]) tombstones.set(before, row.updatedAt)
  })
  for (const d of deletes) tombstones.set(ctx.docs.docOf(d.id)!, d.at)
  for (const id of docIds) tombstones.delete(id)
  const winners = await readWinners(ctx, [...docIds, ...tombstones.keys()])
  const docs: (SealedDoc | Tombstone)[] = []
  for (const [i, row] of rows.entries()) {
    const docId = docIds[i]!
    const winner = winners.get(docId)
    const previous = winner?.doc ? await openDoc(ctx, winner.doc) : undefined
    const { payload, candidate } = payloadOf(ctx, row, previous, vectors.get(row.id), winner?.rev)
    const sealed = await sealDoc(ctx, docId, payload, winner?.doc ? winner.rev : undefined)
    ctx.docs.set(row.id, docId)
    if (payload !== candidate && canonicalJson(payload) !== canonicalJson(candidate)) {
      behind.push({ docId, payload })
    }
    if (winner?.doc && sealed.iv === winner.doc.iv) continue
    docs.push(sealed)
  }
  for (const [docId, at] of tombstones) {
    const winner = winners.get(docId)
    if (winner && !winner.deleted) docs.push({ _id: docId, _rev: winner.rev, _deleted: true, at })
  }
  if (docs.length === 0) {
    for (const d of deletes) ctx.docs.dropLocal(d.id)
    return { written: 0, conflicted: false, behind }
  }
  const outcome = await writeDocs(ctx, docs)
  if (!outcome.conflicted) for (const d of deletes) ctx.docs.dropLocal(d.id)
  return { ...outcome, behind: outcome.conflicted ? [] : behind }
}

function payloadOf(
  ctx: SyncContext,
  row: Memory,
  previous: MemoryPayload | undefined,
  vectorRow: VectorRow | undefined,
  rev: string | undefined,
): { payload: MemoryPayload; candidate: MemoryPayload } {
  const vector =
    ctx.vectors && vectorRow
      ? { model: vectorRow.model, dims: vectorRow.dims, data: vectorToBase64(vectorRow.vector) }
      : undefined
  const candidate = toPayload(row, ctx.device, previous, vector)
  if (!previous) return { payload: candidate, candidate }
  const payload = mergePayloads([
    { rev: rev ?? '', payload: previous },
    // The local row as a version of its own: revision '' loses a tie on `updatedAt`.
    { rev: '', payload: candidate },
  ])
  return { payload, candidate }
}

export type { SyncCursor } from './sync-types.ts'
