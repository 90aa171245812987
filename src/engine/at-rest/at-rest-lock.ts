import { EncryptionError } from '../../core/errors.ts'
import type { AtRestSecret, MemoryStats } from '../../core/types.ts'
import { checkAtRestSecret, unlockKeys } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { type OpenStats, restore } from '../opening.ts'

/** What locking stops and unlocking restarts besides the indexes. */
export interface AtRestParts {
  backfill: { stop(): void; schedule(): void }
  /** Writes the pending recall counters while the keys are still held. */
  flushCounts(): Promise<void>
}

function assertEncrypted(ctx: EngineContext): void {
  if (!ctx.db.atRest.encrypted) {
    throw new EncryptionError(
      'NOT_ENCRYPTED',
      'this memory was opened without encryption: lock() and unlock() need `encryption`',
    )
  }
}

/**
 * Locks an encrypted memory: new calls are refused at once; writes already queued finish, the
 * recall counters and a snapshot are saved (so unlocking is fast), then the keys are wiped and
 * the in-memory indexes dropped. Locking a locked memory does nothing.
 */
export async function lockMemory(ctx: EngineContext, parts: AtRestParts): Promise<void> {
  ctx.connection.assertOpen()
  assertEncrypted(ctx)
  ctx.connection.setLocked(true)
  parts.backfill.stop()
  await ctx.queue.drain()
  await parts.flushCounts().catch(() => {})
  await ctx.settled()
  await ctx.queue.run(async () => {
    if (ctx.db.isOpen()) await ctx.upkeep.snapshotIfChanged().catch(() => {})
    ctx.db.atRest.lock()
    ctx.upkeep.drop()
  })
}

/**
 * Unlocks with `secret`: checks it against the stored check value (a wrong one throws
 * `EncryptionError` `WRONG_KEY` and the memory stays locked), then restores the indexes as an
 * open does. Unlocking an unlocked memory only checks the secret.
 */
export async function unlockMemory(
  ctx: EngineContext,
  secret: AtRestSecret,
  parts: AtRestParts,
): Promise<OpenStats | undefined> {
  if (ctx.connection.isClosed) ctx.connection.assertOpen()
  assertEncrypted(ctx)
  checkAtRestSecret(secret, 'secret')
  const keys = await ctx.mapped(unlockKeys(ctx.db, secret))
  if (!ctx.connection.isLocked) return undefined
  return ctx.queue.run(async () => {
    if (!ctx.connection.isLocked) return undefined
    ctx.db.atRest.unlock(keys)
    try {
      const stats = await restore(ctx)
      ctx.connection.setLocked(false)
      parts.backfill.schedule()
      return stats
    } catch (error) {
      ctx.db.atRest.lock()
      ctx.upkeep.drop()
      throw ctx.mapError(error)
    }
  })
}

/** What `inspect.stats()` can say while locked: row counts (no row is read), nothing from the indexes. */
export async function lockedStats(ctx: EngineContext): Promise<MemoryStats> {
  const [memories, vectors] = await ctx.mapped(
    Promise.all([ctx.db.memories.count(), ctx.db.vectors.count()]),
  )
  return {
    memories,
    vectors,
    pendingVectors: 0,
    keywordEntries: 0,
    vectorEntries: 0,
    changeSeq: 0,
    atRest: 'locked',
  }
}
