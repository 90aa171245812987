import type { MemoryStats } from '../core/types.ts'
import type { EngineContext } from './engine-context.ts'
import { loadSnapshot } from './snapshot.ts'

/** How the last open went, as {@link MemoryStats} reports it. */
export type OpenStats = NonNullable<MemoryStats['open']>

/**
 * Restores the indexes on open: from the snapshot plus the change log after it when the
 * snapshot fits the tables, else by a rebuild from the tables.
 */
export async function restore(ctx: EngineContext): Promise<OpenStats> {
  const started = performance.now()
  const loaded = await loadSnapshot(
    ctx.db,
    { optionsHash: ctx.optionsHash, model: ctx.embedder?.model ?? null },
    ctx.keywordOptions,
  )
  const snapshot =
    'indexes' in loaded ? { indexes: loaded.indexes, seq: loaded.row.seq } : undefined
  const { restored, replayed } = await ctx.sync.restore(snapshot)
  await ctx.sync.countStaleVectors()
  return { ms: performance.now() - started, restored, replayed }
}

/** Closes for good: a schema upgrade or deletion elsewhere. Calls in flight reject. */
export function shutDown(ctx: EngineContext, reason: string): void {
  if (!ctx.connection.closeForGood(reason)) return
  ctx.db.close()
  ctx.emit({ type: 'closed', reason: 'versionchange' })
}

/** Reopens a connection lost underneath. Inside the queue; the caller catches up after. */
export async function reconnect(ctx: EngineContext): Promise<void> {
  ctx.assertOpen()
  if (ctx.db.isOpen()) return
  await ctx.db.open()
  // Site data cleared while the connection was down: the log restarts below where this
  // engine was, and replaying from `lastSeq` would keep serving memories that are gone.
  const last = await ctx.db.changes.orderBy('seq').last()
  if ((last?.seq ?? 0) < ctx.sync.lastSeq) await ctx.sync.rebuild()
}

/** For calls outside the write queue: reopens (through the queue) if the connection was lost. */
export async function connected(ctx: EngineContext): Promise<void> {
  ctx.assertOpen()
  if (ctx.db.isOpen()) return
  const reopened = ctx.connection.reopen(() =>
    ctx.queue.run(async () => {
      await reconnect(ctx)
      await ctx.sync.replay()
    }),
  )
  await ctx.mapped(reopened)
}

/**
 * Runs a write under the cross-tab lock, after reopening a lost connection and replaying what
 * other tabs wrote. Every failure comes out as a catalogue error.
 */
export function locked<T>(ctx: EngineContext, task: () => Promise<T>): Promise<T> {
  return ctx.mapped(
    ctx.lock(async () => {
      await reconnect(ctx)
      await ctx.sync.replay()
      return task()
    }),
  )
}
