import { MemoryClosedError } from '../core/errors.ts'
import type { MemoryStats } from '../core/types.ts'
import type { EngineContext } from './engine-context.ts'
import type { IndexSet } from './index-set.ts'
import { rebuild, replay } from './index-sync.ts'
import { loadSnapshot } from './snapshot.ts'

/** How the last open went, as {@link MemoryStats} reports it. */
export type OpenStats = NonNullable<MemoryStats['open']>

/**
 * Restores the indexes on open: from the snapshot plus the change log after it when the
 * snapshot fits the tables, else by a rebuild from the tables.
 */
export async function restore(ctx: EngineContext): Promise<OpenStats> {
  const started = performance.now()
  const model = ctx.embedder?.model ?? null
  const loaded = await loadSnapshot(
    ctx.db,
    { optionsHash: ctx.optionsHash, model },
    ctx.keywordOptions,
  )
  let restored: 'snapshot' | 'rebuild' | 'empty' = 'rebuild'
  let replayed = 0
  if ('indexes' in loaded && (await adopt(ctx, loaded.indexes, loaded.row.seq))) {
    const rebuilds = ctx.rebuilds
    replayed = await replay(ctx)
    // The replay rebuilds by itself when the log no longer reaches back to the snapshot.
    if (ctx.rebuilds === rebuilds && (await agrees(ctx))) restored = 'snapshot'
    else if (ctx.rebuilds === rebuilds) await rebuild(ctx)
  } else {
    await rebuild(ctx)
    if (ctx.indexes.catalogue.size === 0) restored = 'empty'
  }
  const total = await ctx.db.vectors.count()
  const current = model ? await ctx.db.vectors.where('model').equals(model).count() : total
  ctx.staleVectors = total - current
  return { ms: performance.now() - started, restored, replayed }
}

/**
 * Takes indexes loaded from a snapshot stamped `seq`, around the current rows. Refuses (false)
 * a snapshot stamped past the end of the change log: it describes data that is not there.
 */
async function adopt(ctx: EngineContext, indexes: IndexSet, seq: number): Promise<boolean> {
  const { db } = ctx
  const [memories, last] = await db.transaction('r', db.memories, db.changes, () =>
    Promise.all([db.memories.toArray(), db.changes.orderBy('seq').last()]),
  )
  if (seq > (last?.seq ?? 0)) return false
  indexes.adoptCatalogue(memories)
  ctx.indexes = indexes
  ctx.lastSeq = seq
  ctx.snapshotSeq = seq
  return true
}

/** Whether the indexes hold exactly the ids of `memories` and of the current model's `vectors`. */
async function agrees(ctx: EngineContext): Promise<boolean> {
  const model = ctx.embedder?.model
  const { catalogue, keyword, vectors } = ctx.indexes
  if (keyword.size !== catalogue.size) return false
  for (const id of catalogue.keys()) if (!keyword.has(id)) return false
  const vectorIds = model
    ? ((await ctx.db.vectors.where('model').equals(model).primaryKeys()) as string[])
    : []
  const indexed = vectorIds.filter((id) => catalogue.has(id))
  if ((vectors?.size ?? 0) !== indexed.length) return false
  return indexed.every((id) => vectors?.has(id))
}

/** Closes for good: a schema upgrade or deletion elsewhere. Calls in flight reject. */
export function shutDown(ctx: EngineContext, reason: string): void {
  if (ctx.closed) return
  ctx.closed = new MemoryClosedError(reason)
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
  if ((last?.seq ?? 0) < ctx.lastSeq) await rebuild(ctx)
}

/** For calls outside the write queue: reopens (through the queue) if the connection was lost. */
export async function connected(ctx: EngineContext): Promise<void> {
  ctx.assertOpen()
  if (ctx.db.isOpen()) return
  ctx.reopening ??= ctx.queue
    .run(async () => {
      await reconnect(ctx)
      await replay(ctx)
    })
    .finally(() => {
      ctx.reopening = null
    })
  await ctx.mapped(ctx.reopening)
}

/**
 * Runs a write under the cross-tab lock, after reopening a lost connection and replaying what
 * other tabs wrote. Every failure comes out as a catalogue error.
 */
export function locked<T>(ctx: EngineContext, task: () => Promise<T>): Promise<T> {
  return ctx.mapped(
    ctx.lock(async () => {
      await reconnect(ctx)
      await replay(ctx)
      return task()
    }),
  )
}
