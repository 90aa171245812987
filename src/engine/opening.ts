import { MemoryClosedError } from '../core/errors.ts'
import type { MemoryStats } from '../core/types.ts'
import type { EngineContext } from './engine-context.ts'
import { loadSnapshot } from './index/snapshot.ts'

/** How the last open went, as {@link MemoryStats} reports it. */
export type OpenStats = NonNullable<MemoryStats['open']>

/**
 * Restores the indexes on open: from the snapshot plus the change log after it when the
 * snapshot fits the tables, else by a rebuild from the tables. When that throws (a row the
 * keyword index cannot take, an IndexedDB read error) the open still succeeds, on the tables
 * alone: the failure is recorded in `IndexHealth` (`inspect.stats().indexes`), recall answers
 * from the recency window, and {@link recoverIndexes} tries again later. Only a lost or closed
 * connection fails the open.
 */
export async function restore(ctx: EngineContext): Promise<OpenStats> {
  const started = performance.now()
  try {
    const loaded = await loadSnapshot(
      ctx.db,
      { optionsHash: ctx.optionsHash, model: ctx.embedder?.model ?? null },
      ctx.keywordOptions,
    )
    const snapshot =
      'indexes' in loaded ? { indexes: loaded.indexes, seq: loaded.row.seq } : undefined
    const { restored, replayed } = await ctx.upkeep.restore(snapshot)
    await ctx.upkeep.countStaleVectors()
    ctx.connection.indexHealth.recovered()
    // The open trusted the snapshot's counts; its keys are compared next, ahead of any write.
    if (restored === 'snapshot') checkKeysSoon(ctx)
    return { ms: performance.now() - started, restored, replayed }
  } catch (error) {
    noteIndexFailure(ctx, error)
    return { ms: performance.now() - started, restored: 'failed', replayed: 0 }
  }
}

/** Queues {@link IndexUpkeep.checkKeys}, which no caller waits for; a failure is an index failure. */
function checkKeysSoon(ctx: EngineContext): void {
  ctx.track(
    ctx.queue.run(() =>
      locked(ctx, async () => {
        await ctx.upkeep.checkKeys().catch((error: unknown) => noteIndexFailure(ctx, error))
      }),
    ),
  )
}

/**
 * After a failed restore, rebuilds the indexes from the tables if a retry is due (at most every
 * `INDEX_RETRY_MS`); a success clears the failure, so recall is hybrid again and the indexes
 * hold every write made meanwhile. Inside the write queue. Throws only for a lost connection.
 */
export async function recoverIndexes(ctx: EngineContext): Promise<void> {
  const health = ctx.connection.indexHealth
  if (!health.retryDue(ctx.clock())) return
  try {
    await ctx.upkeep.rebuild()
    await ctx.upkeep.countStaleVectors()
    health.recovered()
  } catch (error) {
    noteIndexFailure(ctx, error)
  }
}

/** For recall while the indexes are failed: queues a due retry, which no caller waits for. */
function recoverIndexesSoon(ctx: EngineContext): void {
  if (!ctx.connection.indexHealth.retryDue(ctx.clock())) return
  ctx.track(ctx.queue.run(() => recoverIndexes(ctx)))
}

/**
 * True while the indexes are failed (recall then reads the recency window); queues a due
 * rebuild on the way, so the recall that asks is what brings them back.
 */
export function indexesFailed(ctx: EngineContext): boolean {
  if (!ctx.connection.indexHealth.failed) return false
  recoverIndexesSoon(ctx)
  return true
}

/** Adds the failure to `stats`, with the counts taken from the tables the indexes lack. */
export async function reportIndexFailure(ctx: EngineContext, stats: MemoryStats): Promise<void> {
  const failure = ctx.connection.indexHealth.failure
  if (!failure) return
  stats.indexes = failure
  stats.memories = await ctx.mapped(ctx.db.memories.count())
}

/** Records an index failure; a closed or lost connection is no index failure and is rethrown. */
function noteIndexFailure(ctx: EngineContext, error: unknown): void {
  const mapped = ctx.mapError(error)
  if (mapped instanceof MemoryClosedError || ctx.connection.isClosed) throw error
  ctx.connection.indexHealth.fail(error, mapped, ctx.clock())
}

/**
 * Brings the indexes up to the change log before a write: a replay, or while the indexes are
 * failed a due rebuild instead (a replay could need one, and a failed rebuild must not fail the
 * write: the tables take it, and the next successful rebuild indexes it).
 */
async function catchUp(ctx: EngineContext): Promise<void> {
  if (ctx.connection.indexHealth.failed) await recoverIndexes(ctx)
  else await ctx.upkeep.replay()
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
  if ((last?.seq ?? 0) < ctx.upkeep.lastSeq) {
    await ctx.upkeep.rebuild().catch((error: unknown) => noteIndexFailure(ctx, error))
  }
}

/** For calls outside the write queue: reopens (through the queue) if the connection was lost. */
export async function connected(ctx: EngineContext): Promise<void> {
  ctx.assertOpen()
  if (ctx.db.isOpen()) return
  const reopened = ctx.connection.reopen(() =>
    ctx.queue.run(async () => {
      await reconnect(ctx)
      await catchUp(ctx)
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
      await catchUp(ctx)
      return task()
    }),
  )
}
