import { COUNTER_FLUSH_MS } from '../../core/options.ts'
import type { RecallLogEntry, RecallOptions, RecallResult } from '../../core/types.ts'
import type { EngineContext } from '../engine-context.ts'
import { bumpCountersMark } from '../index/snapshot.ts'
import { connected } from '../opening.ts'
import { checkRecallLogOptions } from './options.ts'

/** Pending bookkeeping waits at most this long for a quiet spell before it is written anyway. */
export const MAX_BOOKKEEPING_DEFER_MS = 2000

/**
 * Memories whose counters one transaction stores: about 20 ms of a write's wait in Chromium
 * (a row costs ~1.4 ms there: its five indexes are written again), where the whole burst in one
 * held it for seconds.
 */
export const COUNTER_FLUSH_ROWS = 16

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
    return this.#flushInTurn(() => this.#flushPending(false))
  }

  #flushInTurn(flush: () => Promise<void>): Promise<void> {
    const next = this.#flushing.then(flush)
    this.#flushing = next.catch(() => {})
    return next
  }

  #arm(): void {
    if (this.#armed) return
    this.#armed = true
    this.#ctx.track(
      this.#quietSpell().then(() => {
        this.#armed = false
        return this.#flushInTurn(() => this.#flushPending(true))
      }),
    )
  }

  /**
   * Resolves after {@link COUNTER_FLUSH_MS} in which the engine did nothing, or the cap, or at
   * once when the engine is closing (`close()` flushes what is left).
   */
  async #quietSpell(): Promise<void> {
    const since = performance.now()
    for (;;) {
      if (this.#ctx.connection.isWindingDown) return
      const seen = this.#ctx.upkeep.activity
      await new Promise((r) => setTimeout(r, COUNTER_FLUSH_MS))
      if (this.#ctx.upkeep.activity === seen) return
      if (performance.now() - since >= MAX_BOOKKEEPING_DEFER_MS) return
    }
  }

  /** `giveWay`: in the background, each chunk of counters after the first waits for quiet. */
  async #flushPending(giveWay: boolean): Promise<void> {
    if (this.#ctx.connection.isClosed) return
    const entries = this.#entries
    this.#entries = []
    if (entries.length > 0) await this.#writeEntries(entries)
    await this.#writeCounts(giveWay)
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
   * mark moves in the same transaction as each chunk, so a saved catalogue knows its counters
   * are behind. A chunk at a time ({@link COUNTER_FLUSH_ROWS} rows), each after a quiet spell
   * when `giveWay`: a write's transaction on the memories waits for the chunk in flight at
   * most, where one transaction for a burst held a `remember` 1.6 s (1,190 rows at 10k
   * memories in Chromium, issue 25), and chunks taken back to back held each of a run of
   * writes (p50 ×4).
   */
  async #writeCounts(giveWay: boolean): Promise<void> {
    if (this.#pending.size === 0) return
    const counts = new Map(this.#pending)
    const at = this.#pendingAt
    this.#pending.clear()
    this.#pendingAt = 0
    const ids = [...counts.keys()]
    for (let start = 0; start < ids.length; start += COUNTER_FLUSH_ROWS) {
      if (start > 0 && giveWay) await this.#quietSpell()
      if (this.#ctx.connection.isClosed) return
      await this.#writeCountsChunk(ids.slice(start, start + COUNTER_FLUSH_ROWS), counts, at)
    }
  }

  async #writeCountsChunk(ids: string[], counts: Map<string, number>, at: number): Promise<void> {
    const ctx = this.#ctx
    const { db } = ctx
    const after = await db.transaction('rw', db.memories, db.snapshots, async () => {
      // Two requests for the chunk, where a cursor over `anyOf` stepped once per id.
      const rows = (await db.memories.bulkGet(ids)).filter((m) => m !== undefined)
      for (const m of rows) {
        m.recallCount += counts.get(m.id) ?? 0
        m.lastRecalledAt = Math.max(m.lastRecalledAt ?? 0, at)
      }
      if (rows.length > 0) await db.memories.bulkPut(rows)
      return bumpCountersMark(db, ctx.clock())
    })
    ctx.upkeep.noteCountersFlushed(after - 1, after)
    for (const id of ids) {
      const m = ctx.indexes.catalogue.get(id)
      const n = counts.get(id) ?? 0
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
