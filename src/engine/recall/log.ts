import { COUNTER_FLUSH_MS } from '../../core/options.ts'
import type { RecallLogEntry, RecallOptions, RecallResult } from '../../core/types.ts'
import type { EngineContext } from '../engine-context.ts'
import { bumpCountersMark } from '../index/snapshot.ts'
import { connected } from '../opening.ts'
import { checkRecallLogOptions } from './options.ts'

/** Pending bookkeeping waits at most this long for a quiet spell before it is written anyway. */
export const MAX_BOOKKEEPING_DEFER_MS = 2000

/**
 * What recall leaves behind: the recall log (one entry per logged recall, trimmed to
 * `recallLogSize`) and each memory's `recallCount` / `lastRecalledAt`. Both are written in the
 * background, outside the write queue and lock: they change no index. They wait for a spell of
 * {@link COUNTER_FLUSH_MS} without a recall or a write (at most
 * {@link MAX_BOOKKEEPING_DEFER_MS}), then go out together, one flush at a time: a transaction
 * per recall used to queue up in IndexedDB and hold every write behind it (issue 11).
 */
export class RecallBookkeeping {
  readonly #ctx: EngineContext
  readonly #pending = new Map<string, number>()
  /** The latest recall time among the pending counts: what `lastRecalledAt` becomes. */
  #pendingAt = 0
  #entries: RecallLogEntry[] = []
  /** A flush is waiting for a quiet spell. */
  #armed = false
  /** The flush in flight: flushes run one at a time, so they never pile up in IndexedDB. */
  #flushing: Promise<void> = Promise.resolve()

  constructor(ctx: EngineContext) {
    this.#ctx = ctx
  }

  /** Appends an entry to the recall log (trimmed to `recallLogSize` as it is written). */
  log(query: string, options: RecallOptions | undefined, result: RecallResult, at: number): void {
    // A function (the select hook) cannot be stored in IndexedDB.
    const { select: _select, ...loggable } = options ?? {}
    const entry: RecallLogEntry = {
      at,
      query,
      options: loggable,
      hits: result.hits.map((h) => ({
        id: h.id,
        rank: h.rank,
        score: h.score,
        via: h.via,
        explanation: h.explanation,
      })),
      tookMs: result.tookMs,
    }
    if (result.degraded) entry.degraded = result.degraded
    this.#entries.push(entry)
    this.#arm()
  }

  /**
   * Counts a recall of each id at time `at` (the recall's own clock reading, so a use is dated
   * when it happened, not when the counts are flushed); counts gathered until a quiet spell are
   * stored together.
   */
  noteRecalled(ids: string[], at: number = this.#ctx.clock()): void {
    this.#ctx.upkeep.noteActivity()
    if (ids.length === 0) return
    this.#pendingAt = Math.max(this.#pendingAt, at)
    for (const id of ids) this.#pending.set(id, (this.#pending.get(id) ?? 0) + 1)
    this.#arm()
  }

  /** Writes what is pending now, after the flush in flight (`close()`, tests). */
  flushCounts(): Promise<void> {
    const next = this.#flushing.then(() => this.#flushPending())
    this.#flushing = next.catch(() => {})
    return next
  }

  #arm(): void {
    if (this.#armed) return
    this.#armed = true
    this.#ctx.track(
      this.#quietSpell().then(() => {
        this.#armed = false
        return this.flushCounts()
      }),
    )
  }

  /** Resolves after {@link COUNTER_FLUSH_MS} in which the engine did nothing, or the cap. */
  async #quietSpell(): Promise<void> {
    const since = performance.now()
    for (;;) {
      const seen = this.#ctx.upkeep.activity
      await new Promise((r) => setTimeout(r, COUNTER_FLUSH_MS))
      if (this.#ctx.upkeep.activity === seen) return
      if (performance.now() - since >= MAX_BOOKKEEPING_DEFER_MS) return
    }
  }

  async #flushPending(): Promise<void> {
    if (this.#ctx.connection.isClosed) return
    const entries = this.#entries
    this.#entries = []
    if (entries.length > 0) await this.#writeEntries(entries)
    await this.#writeCounts()
  }

  async #writeEntries(entries: RecallLogEntry[]): Promise<void> {
    const { db, recallLogSize } = this.#ctx
    await db.transaction('rw', db.recalls, async () => {
      const ids = (await db.recalls.bulkAdd(entries, { allKeys: true })) as number[]
      const cutoff = ids[ids.length - 1]! - recallLogSize
      if (cutoff > 0) await db.recalls.where('id').belowOrEqual(cutoff).delete()
    })
  }

  /**
   * Counters only: they change no index, so no change-log entry and no write lock; the counter
   * mark moves in the same transaction, so a saved catalogue knows its counters are behind.
   */
  async #writeCounts(): Promise<void> {
    const ctx = this.#ctx
    if (this.#pending.size === 0) return
    const counts = new Map(this.#pending)
    const at = this.#pendingAt
    this.#pending.clear()
    this.#pendingAt = 0
    const ids = [...counts.keys()]
    const { db } = ctx
    const after = await db.transaction('rw', db.memories, db.snapshots, async () => {
      // Two requests for the batch, where a cursor over `anyOf` stepped once per id.
      const rows = (await db.memories.bulkGet(ids)).filter((m) => m !== undefined)
      for (const m of rows) {
        m.recallCount += counts.get(m.id) ?? 0
        m.lastRecalledAt = Math.max(m.lastRecalledAt ?? 0, at)
      }
      if (rows.length > 0) await db.memories.bulkPut(rows)
      return bumpCountersMark(db, ctx.clock())
    })
    ctx.upkeep.noteCountersFlushed(after - 1, after)
    for (const [id, n] of counts) {
      const m = ctx.indexes.catalogue.get(id)
      const last = Math.max(m?.lastRecalledAt ?? 0, at)
      if (m) ctx.indexes.refresh({ ...m, recallCount: m.recallCount + n, lastRecalledAt: last })
    }
  }

  /** The newest `limit` entries, newest first, once the entries still being written landed. */
  async read(options: { limit?: number } = {}): Promise<RecallLogEntry[]> {
    const ctx = this.#ctx
    ctx.assertOpen()
    const limit = checkRecallLogOptions(options)
    await connected(ctx)
    await ctx.settled()
    return ctx.mapped(ctx.db.recalls.orderBy('id').reverse().limit(limit).toArray())
  }

  async clear(): Promise<void> {
    const ctx = this.#ctx
    await connected(ctx)
    await ctx.settled()
    await ctx.mapped(ctx.db.recalls.clear())
  }
}
