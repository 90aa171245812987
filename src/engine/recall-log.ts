import { COUNTER_FLUSH_MS } from '../core/options.ts'
import type { RecallLogEntry, RecallOptions, RecallResult } from '../core/types.ts'
import type { EngineContext } from './engine-context.ts'
import { connected } from './lifecycle.ts'
import { checkRecallLogOptions } from './recall-options.ts'

/**
 * What recall leaves behind: the recall log (one entry per logged recall, trimmed to
 * `recallLogSize`) and each memory's `recallCount` / `lastRecalledAt`. Both are written in the
 * background, outside the write queue and lock: they change no index.
 */
export class RecallBookkeeping {
  readonly #ctx: EngineContext
  readonly #pending = new Map<string, number>()
  /** The latest recall time among the pending counts: what `lastRecalledAt` becomes. */
  #pendingAt = 0

  constructor(ctx: EngineContext) {
    this.#ctx = ctx
  }

  /** Appends an entry to the recall log and trims the oldest past `recallLogSize`. */
  log(query: string, options: RecallOptions | undefined, result: RecallResult, at: number): void {
    const { db, recallLogSize } = this.#ctx
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
    this.#ctx.track(
      (async () => {
        const id = await db.recalls.add(entry)
        const cutoff = id - recallLogSize
        if (cutoff > 0) await db.recalls.where('id').belowOrEqual(cutoff).delete()
      })(),
    )
  }

  /**
   * Counts a recall of each id at time `at` (the recall's own clock reading, so a use is dated
   * when it happened, not when the counts are flushed); counts gathered over a short window are
   * stored together.
   */
  noteRecalled(ids: string[], at: number = this.#ctx.clock()): void {
    if (ids.length === 0) return
    this.#pendingAt = Math.max(this.#pendingAt, at)
    const first = this.#pending.size === 0
    for (const id of ids) this.#pending.set(id, (this.#pending.get(id) ?? 0) + 1)
    if (first) {
      this.#ctx.track(
        new Promise((r) => setTimeout(r, COUNTER_FLUSH_MS)).then(() => this.flushCounts()),
      )
    }
  }

  /** Counters only: they change no index, so no change-log entry and no write lock. */
  async flushCounts(): Promise<void> {
    const ctx = this.#ctx
    if (this.#pending.size === 0 || ctx.connection.isClosed) return
    const counts = new Map(this.#pending)
    const at = this.#pendingAt
    this.#pending.clear()
    this.#pendingAt = 0
    await ctx.db.transaction('rw', ctx.db.memories, async () => {
      await ctx.db.memories
        .where('id')
        .anyOf([...counts.keys()])
        .modify((m) => {
          m.recallCount += counts.get(m.id) ?? 0
          m.lastRecalledAt = Math.max(m.lastRecalledAt ?? 0, at)
        })
    })
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
