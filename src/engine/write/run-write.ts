import type { Table } from 'dexie'
import { StorageError } from '../../core/errors.ts'
import { WRITE_ATTEMPTS } from '../../core/options.ts'
import type { Memory } from '../../core/types.ts'
import { withSlack } from '../../core/vector/index.ts'
import { isConstraintError } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { locked } from '../opening.ts'
import { STALE } from './commit.ts'

/** A row a write stored, for the indexes. */
export interface StoredRow {
  memory: Memory
  /** The vector stored with it; without one the index keeps the vector it had. */
  vector?: Float32Array
  /** Its stored vector was dropped (the text changed, none was made): out of the vector index. */
  dropVector?: boolean
}

/**
 * What a write's transaction changed, for the steps after the commit, which run in this order:
 * `removed` out of the indexes, `stored` into them, `vectors` into the vector index, `refreshed`
 * into the catalogue, the change log's `seqs` recorded (a `change` event; a snapshot when due),
 * the backfill started when `unembedded`.
 */
export interface Written<R> {
  /** What the caller is answered. */
  result: R
  /** The change-log seqs the transaction added. @default [] (a write no index follows: an edge) */
  seqs?: readonly number[]
  removed?: readonly string[]
  stored?: readonly StoredRow[]
  /** Rows whose indexed fields are unchanged (counts, lifecycle): the catalogue is enough. */
  refreshed?: readonly Memory[]
  /** Vectors stored for rows the indexes hold as they are (the backfill): the vector index alone. */
  vectors?: readonly { id: string; vector: Float32Array }[]
  /** Memories were stored without a vector: the backfill embeds them. */
  unembedded?: boolean
}

const ANSWERED = Symbol('answered')

/** A write that needs no transaction: what `prepare` answers instead of a plan. */
export interface Answered<R> {
  readonly [ANSWERED]: true
  readonly result: R
}

/** Ends a write in `prepare`, before any transaction (a page stored as it is already). */
export function answered<R>(result: R): Answered<R> {
  return { [ANSWERED]: true, result }
}

/** One write, as {@link runWrite} runs it. `P` is what `prepare` hands `commit`. */
export interface WriteAttempt<P, R> {
  /**
   * Under the lock, after the catch-up, outside any transaction: reads the indexes, plans,
   * embeds. Run again, after a catch-up, when `commit` answers {@link STALE}; `attempt` counts
   * from 1.
   */
  prepare?: (attempt: number) => Promise<P | Answered<R>>
  /**
   * Inside the transaction: the reads the write depends on and its writes, awaiting IndexedDB
   * only. {@link STALE}, with nothing written, when what `prepare` planned against changed.
   */
  commit: (prepared: P, attempt: number) => Promise<Written<R> | typeof STALE>
  /**
   * What kept changing, for the error after `WRITE_ATTEMPTS` stale tries.
   * @default 'what this write read'
   */
  changing?: (prepared: P) => string
  /**
   * A unique-key failure means another writer (outside this engine's lock) stored the same key
   * first: a {@link STALE} try, not a fault. @default false (a storage error)
   */
  racesAreStale?: boolean
  /** After a stale try, before the catch-up: throws to end a write no retry can get past. */
  onStale?: (prepared: P) => Promise<void>
  /** Tables the transaction needs beyond memories, vectors, changes and relations. */
  tables?: readonly Table[]
}

/**
 * A turn in the write queue under the cross-tab lock, caught up with other tabs, without a write
 * unit: for a pass that writes no table but must see one moment (`verifyIndexes`, the review's
 * catch-up before it lists what to review).
 */
export function inWriteTurn<T>(ctx: EngineContext, task: () => Promise<T>): Promise<T> {
  ctx.assertOpen()
  return ctx.queue.run(() => locked(ctx, task))
}

/**
 * The write unit of work: through the write queue, under the cross-tab lock (after reopening a
 * lost connection and catching up with other tabs), `prepare` → one transaction (`commit`) →
 * the indexes, the change log's seqs, the backfill. A stale try catches up and runs again, at
 * most `WRITE_ATTEMPTS` times. The indexes change only after the commit, so a failed
 * transaction leaves them as they were; every failure comes out as a catalogue error.
 */
export function runWrite<P, R>(ctx: EngineContext, attempt: WriteAttempt<P, R>): Promise<R> {
  ctx.assertOpen()
  return ctx.queue.run(() => writeInQueue(ctx, attempt))
}

/** {@link runWrite} for a caller already running in the write queue (a coalesced batch). */
export function writeInQueue<P, R>(ctx: EngineContext, attempt: WriteAttempt<P, R>): Promise<R> {
  ctx.assertOpen()
  return locked(ctx, async () => {
    for (let n = 1; ; n++) {
      const prepared = attempt.prepare ? await attempt.prepare(n) : (undefined as P)
      if (isAnswered<R>(prepared)) return prepared.result
      const written = await commitWrite(
        ctx,
        () => attempt.commit(prepared, n),
        attempt.tables,
        attempt.racesAreStale,
      )
      if (written !== STALE) return written
      await attempt.onStale?.(prepared)
      if (n >= WRITE_ATTEMPTS) {
        const what = attempt.changing?.(prepared) ?? 'what this write read'
        throw new StorageError(`${what} kept changing in another tab (${n} tries)`)
      }
      await ctx.upkeep.replay()
    }
  })
}

/** One try's transaction and, once it committed, the steps after it. */
async function commitWrite<R>(
  ctx: EngineContext,
  commit: () => Promise<Written<R> | typeof STALE>,
  tables: readonly Table[] = [],
  racesAreStale = false,
): Promise<R | typeof STALE> {
  let written: Written<R> | typeof STALE
  try {
    // An async scope, so Dexie keeps the transaction across the awaits of nested async calls.
    written = await ctx.transact(async () => await commit(), tables)
  } catch (error) {
    if (racesAreStale && isConstraintError(error)) return STALE
    throw isConstraintError(error) ? ctx.mapError(error) : error
  }
  if (written === STALE) return STALE
  afterCommit(ctx, written)
  return written.result
}

function afterCommit(ctx: EngineContext, written: Written<unknown>): void {
  const { indexes } = ctx
  const stored = written.stored ?? []
  for (const id of written.removed ?? []) indexes.remove(id)
  // A batch grows the vector rows once (and an eighth beyond), not an eighth at a time.
  if (stored.length > 1) indexes.vectors?.reserve(withSlack(indexes.vectors.size + stored.length))
  for (const { memory, vector, dropVector } of stored) {
    indexes.put(memory, vector)
    if (dropVector) indexes.removeVector(memory.id)
  }
  // After a batch, the near-duplicate search's codes are built here, in the bulk write, rather
  // than by the next `remember` (a 250 ms p99 at 10k memories).
  if (stored.length > 1) indexes.vectors?.prepareNear()
  for (const { id, vector } of written.vectors ?? []) indexes.putVector(id, vector)
  // A refresh changes no indexed field: the catalogue row is enough.
  for (const row of written.refreshed ?? []) indexes.refresh(row)
  if (written.seqs && written.seqs.length > 0) ctx.upkeep.recordWrites(written.seqs)
  if (written.unembedded) ctx.scheduleBackfill()
}

function isAnswered<R>(value: unknown): value is Answered<R> {
  return typeof value === 'object' && value !== null && ANSWERED in value
}
