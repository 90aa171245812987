import type { Memory } from '../core/types.ts'
import type { ChangeRow, VectorRow } from '../storage/index.ts'
import type { EngineContext } from './engine-context.ts'
import { IndexSet } from './index-set.ts'
import { deleteSnapshot, saveSnapshot } from './snapshot.ts'

/**
 * Replays the change log after `ctx.lastSeq` into the indexes. Returns how many changes. When
 * the log no longer reaches back to `lastSeq` (pruned by a snapshot elsewhere), or ends before
 * it, only a rebuild can be trusted.
 */
export async function replay(ctx: EngineContext): Promise<number> {
  const { db } = ctx
  const { changes, oldest, memories, vectors } = await db.transaction(
    'r',
    db.changes,
    db.memories,
    db.vectors,
    async () => {
      const changes = await db.changes.where('seq').above(ctx.lastSeq).toArray()
      const gap = changes.length > 0 && changes[0]!.seq! > ctx.lastSeq + 1
      const oldest = gap ? await db.changes.orderBy('seq').first() : undefined
      const ids = [...new Set(changes.filter((c) => c.op === 'put').map((c) => c.id))]
      const [memories, vectors] = await Promise.all([
        db.memories.bulkGet(ids),
        db.vectors.bulkGet(ids),
      ])
      return { changes, oldest, memories, vectors }
    },
  )
  if (changes.length === 0) return 0
  // Seqs may skip numbers (an aborted write can use one up), so a gap alone proves nothing;
  // a log whose oldest entry is past us does.
  if (oldest && oldest.seq! > ctx.lastSeq + 1) {
    await rebuild(ctx)
    return changes.length
  }
  applyChanges(
    ctx,
    changes,
    new Map(memories.filter((m) => m !== undefined).map((m) => [m.id, m])),
    new Map(vectors.filter((v) => v !== undefined).map((v) => [v.id, v])),
  )
  return changes.length
}

/** Applies changes to the indexes from rows read in the same transaction as the changes. */
export function applyChanges(
  ctx: EngineContext,
  changes: ChangeRow[],
  rows: ReadonlyMap<string, Memory>,
  vectorRows: ReadonlyMap<string, VectorRow>,
): void {
  if (changes.length === 0) return
  const latest = new Map<string, 'put' | 'delete'>()
  for (const change of changes) latest.set(change.id, change.op)
  const model = ctx.embedder?.model
  for (const [id, op] of latest) {
    const memory = op === 'put' ? rows.get(id) : undefined
    if (!memory) {
      ctx.indexes.remove(id)
      continue
    }
    const v = vectorRows.get(id)
    const current = v && v.model === model && v.dims === ctx.indexes.vectors?.dims
    ctx.indexes.put(memory, current ? v.vector : undefined)
    if (!current) ctx.indexes.removeVector(id)
  }
  ctx.lastSeq = changes[changes.length - 1]!.seq!
}

/** Rebuilds every derived index from the `memories` and `vectors` tables. */
export async function rebuild(ctx: EngineContext): Promise<void> {
  ctx.rebuilds++
  const { db } = ctx
  const model = ctx.embedder?.model ?? null
  // One read transaction: the rows and the seq they correspond to.
  const [last, memories, vectors] = await db.transaction(
    'r',
    db.changes,
    db.memories,
    db.vectors,
    () =>
      Promise.all([
        db.changes.orderBy('seq').last(),
        db.memories.toArray(),
        model ? db.vectors.where('model').equals(model).toArray() : Promise.resolve([]),
      ]),
  )
  const dims = vectors[0]?.dims ?? ctx.readyDims()
  const indexes = IndexSet.empty(ctx.keywordOptions, dims)
  for (const memory of memories) indexes.put(memory)
  for (const row of vectors) if (row.dims === dims) indexes.putVector(row.id, row.vector)
  ctx.indexes = indexes
  ctx.lastSeq = last?.seq ?? 0
  // The snapshot only saves start-up time; failing to write one (quota) must not fail the
  // open or the catch-up that needed the rebuild.
  try {
    if (memories.length > 0) await snapshot(ctx)
    else await deleteSnapshot(db)
  } catch {
    ctx.snapshotSeq = -1
  }
}

/** Saves the indexes as they stand at `ctx.lastSeq` and prunes the change log behind them. */
export async function snapshot(ctx: EngineContext): Promise<void> {
  if (ctx.closed) return
  const seq = ctx.lastSeq
  await saveSnapshot(ctx.db, ctx.indexes, {
    seq,
    optionsHash: ctx.optionsHash,
    model: ctx.embedder?.model ?? null,
    count: ctx.indexes.catalogue.size,
    now: ctx.clock(),
  })
  ctx.snapshotSeq = seq
  // Keep a tail of the log so a tab slightly behind can still catch up without a rebuild.
  await ctx.db.changes
    .where('seq')
    .belowOrEqual(seq - 1000)
    .delete()
}

/** Records seqs this engine wrote, catching up first if another writer slipped in between. */
export function advance(ctx: EngineContext, seqs: number[]): void {
  if (seqs.length === 0) return
  const max = Math.max(...seqs)
  if (Math.min(...seqs) === ctx.lastSeq + 1) ctx.lastSeq = max
  else housekeep(ctx, () => replay(ctx))
  ctx.emit({ type: 'change', seq: max })
  // A snapshot costs time in proportion to the store, so at least a quarter of the store must
  // have changed since the last one: a 100k import then saves a handful, not a hundred.
  const due = Math.max(ctx.snapshotEvery, ctx.indexes.catalogue.size >>> 2)
  if (ctx.lastSeq - ctx.snapshotSeq >= due) housekeep(ctx, () => snapshot(ctx))
  else scheduleIdleSnapshot(ctx)
}

/** Quiet time after the last write before unsaved changes are snapshotted. */
export const IDLE_SNAPSHOT_MS = 3000

/**
 * Snapshots once writes have paused, so a tab that is killed rather than closed still restarts
 * from a recent snapshot instead of replaying (or rebuilding) everything.
 */
function scheduleIdleSnapshot(ctx: EngineContext): void {
  if (ctx.idleSnapshot !== undefined) clearTimeout(ctx.idleSnapshot)
  ctx.idleSnapshot = setTimeout(() => {
    ctx.idleSnapshot = undefined
    if (!ctx.closed && ctx.lastSeq !== ctx.snapshotSeq) housekeep(ctx, () => snapshot(ctx))
  }, IDLE_SNAPSHOT_MS)
  // Node: a pending snapshot must not keep a script alive.
  ;(ctx.idleSnapshot as { unref?: () => void }).unref?.()
}

/**
 * Queues housekeeping (a catch-up, a snapshot) whose failure no caller waits for: the next
 * write catches up anyway, and a missing snapshot only costs start-up time.
 */
function housekeep(ctx: EngineContext, task: () => Promise<unknown>): void {
  ctx.track(
    ctx.queue.run(async () => {
      if (ctx.closed || !ctx.db.isOpen()) return
      await task()
    }),
  )
}
