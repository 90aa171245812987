import { MemoryClosedError } from '../core/errors.ts'
import type { MemoryStats } from '../core/types.ts'
import type { EngineContext } from './engine-context.ts'
import { loadSnapshot } from './index/snapshot.ts'
import { QUIET_SNAPSHOT_MS } from './index/snapshot-timer.ts'

/** The key check after an open waits at most this long for a quiet spell (see checkKeysSoon). */
export const MAX_KEY_CHECK_DEFER_MS = 2000

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
      'indexes' in loaded
        ? { indexes: loaded.indexes, seq: loaded.row.seq, staleVectors: loaded.staleVectors }
        : undefined
    const { restored, replayed } = await ctx.upkeep.restore(snapshot)
    await ctx.upkeep.knowStaleVectors()
    ctx.connection.indexHealth.recovered()
    // The open trusted the snapshot's counts; its keys (and the stale vectors) are compared
    // next, ahead of any write.
    if (restored === 'snapshot') checkKeysSoon(ctx)
    return { ms: performance.now() - started, restored, replayed }
  } catch (error) {
    noteIndexFailure(ctx, error)
    return { ms: performance.now() - started, restored: 'failed', replayed: 0 }
  }
}

/**
 * Queues {@link IndexUpkeep.checkKeys}, which no caller waits for; a failure is an index failure.
 * In its turn it first waits for a quiet spell: the key reads (a third of a second at 10k in
 * Chromium, seconds at 100k) held up the first answers' reads of the relations behind them. A
 * write queued behind it, or a close, ends the wait, so it still runs ahead of every write.
 */
function checkKeysSoon(ctx: EngineContext): void {
  ctx.track(
    ctx.queue.run(async () => {
      await quietOrDemanded(ctx)
      if (ctx.connection.isWindingDown) return
      await locked(ctx, async () => {
        await ctx.upkeep.checkKeys().catch((error: unknown) => noteIndexFailure(ctx, error))
      })
    }),
  )
}

/**
 * Resolves after {@link QUIET_SNAPSHOT_MS} without a recall or a write, when the write queue is
 * asked for (a task queued behind, a drain), or after {@link MAX_KEY_CHECK_DEFER_MS} at the latest.
 */
async function quietOrDemanded(ctx: EngineContext): Promise<void> {
  // A task queued while this one waited its turn asked before the signal below was made.
  if (ctx.queue.pending > 1) return
  const since = performance.now()
  const demanded = ctx.queue.demand.then(() => true)
  for (;;) {
    const seen = ctx.upkeep.activity
    let timer: ReturnType<typeof setTimeout> | undefined
    const quiet = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), QUIET_SNAPSHOT_MS)
    })
    const asked = await Promise.race([demanded, quiet])
    clearTimeout(timer)
    if (asked || ctx.upkeep.activity === seen) return
    if (performance.now() - since >= MAX_KEY_CHECK_DEFER_MS) return
  }
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
