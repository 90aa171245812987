import { InvalidInputError } from '../core/errors.ts'
import { DOOR_DEFAULTS } from '../core/options.ts'
import type {
  AtRestApi,
  CountFilter,
  ExportOptions,
  Feedback,
  InspectApi,
  ListOptions,
  ListPage,
  Memory,
  MemoryApi,
  MemoryPatch,
  MemoryStats,
  PagesApi,
  RecallOptions,
  RecallResult,
  RelationsApi,
  RememberItem,
  RememberOptions,
  RememberResult,
  ReviewOptions,
  ReviewReport,
  TimelineOptions,
  TransferApi,
} from '../core/types.ts'
import { validateId } from '../core/validate.ts'
import { EngramDatabase, mapStorageError, openAtRest } from '../storage/index.ts'
import { lockedStats, lockMemory, unlockMemory } from './at-rest/at-rest-lock.ts'
import { unlockedStats } from './at-rest/unreadable-rows.ts'
import { EngineContext } from './engine-context.ts'
import { checkEngineOptions, type EngineOptions } from './engine-options.ts'
import { BackfillScheduler, startEmbedder } from './index/backfill-scheduler.ts'
import { verifyIndexes } from './index/verify.ts'
import { countMemories, listMemories } from './listing.ts'
import {
  connected,
  indexesFailed,
  type OpenStats,
  reconnect,
  reportIndexFailure,
  restore,
  shutDown,
} from './opening.ts'
import { forgetPage, getPage, listPages, rememberPage } from './pages/index.ts'
import { RecallGate } from './recall/gate.ts'
import { runRecall } from './recall/index.ts'
import { RecallBookkeeping } from './recall/log.ts'
import { type CheckedRecallOptions, checkRecallOptions } from './recall/options.ts'
import { edgesOf } from './relations.ts'
import { Replica } from './replica/index.ts'
import { Curator } from './review/curation.ts'
import { runReview } from './review/index.ts'
import { ReviewScheduler } from './review/scheduler.ts'
import { timelineMemories } from './timeline.ts'
import { exportJsonl } from './transfer/index.ts'
import { MemoryWriter } from './write/memory-writer.ts'

/**
 * The memory itself: a Dexie database plus the in-memory indexes derived from it. Implements
 * {@link MemoryApi}: the core methods here, each namespace (`pages`, `relations`, `inspect`,
 * `atRest`, `transfer`) one small object built once in the constructor that delegates to its
 * pipeline. The worker exposes it as is and Node uses it in process; sync is not the engine's
 * (the client doors' extension, or `startSync(engine, options)` from `engram/sync`).
 *
 * The work lives in modules that share one {@link EngineContext}: `opening.ts` (open,
 * reconnect, the write lock), `index/` (upkeep: replay, rebuild, snapshots, backfill, verify),
 * `write/` (every write path), `recall/` (the read path and its log), `review/`, `replica/`,
 * `pages/`, `transfer/` and `listing.ts`.
 *
 * @example
 * const memory = await MemoryEngine.open({ name: 'assistant', indexedDB, IDBKeyRange })
 * await memory.remember('The owner prefers metric units')
 * // => { id: '01J…', status: 'created' }
 */
export class MemoryEngine implements MemoryApi {
  readonly name: string
  readonly #ctx: EngineContext
  readonly #backfill: BackfillScheduler
  readonly #writer: MemoryWriter
  readonly #recalls: RecallBookkeeping
  readonly #recallGate: RecallGate
  readonly #curator: Curator
  readonly #reviews: ReviewScheduler | undefined
  #openStats: OpenStats | undefined
  readonly pages: PagesApi
  readonly relations: RelationsApi
  readonly inspect: InspectApi
  readonly atRest: AtRestApi
  readonly transfer: TransferApi

  private constructor(options: EngineOptions, db: EngramDatabase) {
    this.name = options.name
    this.#ctx = new EngineContext(options, db)
    this.#backfill = new BackfillScheduler(this.#ctx)
    this.#writer = new MemoryWriter(this.#ctx, this.#backfill)
    this.#recalls = new RecallBookkeeping(this.#ctx)
    this.#recallGate = new RecallGate(options.recallQueue)
    this.#curator = new Curator(this.#ctx)
    const autoReview = options.autoReview ?? DOOR_DEFAULTS.autoReview
    if (autoReview) this.#reviews = new ReviewScheduler(this.#ctx, autoReview)
    const ctx = this.#ctx
    // The namespaces: built once, each method a call of the pipeline's own entry.
    this.pages = {
      // See `pages/remember-page.ts`: checked whole, then one transaction for the whole page.
      remember: async (input) =>
        rememberPage(ctx, input, { scheduleBackfill: () => this.#backfill.schedule() }),
      get: async (pageId) => getPage(ctx, pageId),
      forget: async (pageId) => forgetPage(ctx, pageId),
      list: async (options = {}) => listPages(ctx, options),
    }
    this.relations = {
      add: async (fromId, toId, kind) => this.#curator.relate(fromId, toId, kind),
      remove: async (fromId, toId, kind) => this.#curator.unrelate(fromId, toId, kind),
      of: async (id) => this.#curator.relations(id),
    }
    this.inspect = {
      stats: () => this.#stats(),
      verify: async () => {
        ctx.assertOpen()
        return verifyIndexes(ctx)
      },
      recallLog: async (options = {}) => this.#recalls.read(options),
      clearRecallLog: async () => this.#recalls.clear(),
    }
    const atRestParts = {
      backfill: this.#backfill,
      flushCounts: () => this.#recalls.flushCounts(),
    }
    this.atRest = {
      // `at-rest/at-rest-lock.ts` holds the steps.
      lock: async () => lockMemory(ctx, atRestParts),
      unlock: async (secret) => {
        const reopened = await unlockMemory(ctx, secret, atRestParts)
        if (reopened) this.#openStats = reopened
      },
    }
    this.transfer = {
      export: (options) => this.#export(options),
      // Each batch of `batchSize` lines is all or nothing; a failure stops the import with a
      // typed error after the batches before it were stored. A page's chunks are stored whole,
      // whole pages grouped up to `batchSize` chunks a transaction, after the other lines.
      // Importing the same text again is safe: what is already stored comes back as
      // duplicates. A line claims at most `options.trust`.
      import: async (jsonl, options) => this.#writer.importMemories(jsonl, options),
    }
  }

  /**
   * Opens (creating if needed) the memory called `options.name` and restores its indexes.
   *
   * Connection lifecycle: `close()` and a schema upgrade or deletion from another tab close the
   * memory for good (`closed` event, then `MemoryClosedError` on every call). A connection that
   * closes any other way (the browser dropped it, a tool closed it) fails only the calls in
   * flight; the next call reopens it and catches the indexes up from the change log.
   */
  static async open(options: EngineOptions): Promise<MemoryEngine> {
    checkEngineOptions(options)
    const db = new EngramDatabase(options.name, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
    })
    options.onDatabase?.(db)
    const engine = new MemoryEngine(options, db)
    const ctx = engine.#ctx
    // Registered before opening, so an upgrade that arrives during the restore is seen too.
    db.on('versionchange', (event: IDBVersionChangeEvent) => {
      shutDown(
        ctx,
        event.newVersion === null
          ? 'another tab deleted this memory'
          : 'another tab is upgrading this memory; reload to continue',
      )
      return false
    })
    try {
      await db.open()
      await openAtRest(db, options.encryption)
      engine.#openStats = await restore(ctx)
    } catch (error) {
      db.close()
      throw mapStorageError(error)
    }
    startEmbedder(ctx, engine.#backfill)
    engine.#reviews?.poke()
    return engine
  }

  // ---------------------------------------------------------------- writes

  async remember(text: string, options?: RememberOptions): Promise<RememberResult> {
    this.#reviews?.poke()
    return this.#writer.remember(text, options)
  }

  /** All or nothing: every item is stored (or found a duplicate) in one transaction, or none is. */
  async rememberMany(items: RememberItem[]): Promise<RememberResult[]> {
    this.#reviews?.poke()
    return this.#writer.rememberMany(items)
  }

  /** A chunk of a page is refused (`PAGE_CHUNK`): the page changes through `pages.remember`. */
  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    return this.#writer.update(id, patch)
  }

  async forget(id: string): Promise<void> {
    return this.#writer.forget(id)
  }

  async feedback(id: string, verdict: Feedback): Promise<Memory> {
    return this.#curator.feedback(id, verdict)
  }

  /**
   * The automatic review's check, now: runs a review if one is due (none completed in the last
   * day, or one was cut short) and no other tab is running one. Only with `autoReview`; true
   * when this call ran one.
   */
  async reviewIfDue(): Promise<boolean> {
    this.#ctx.assertOpen()
    return this.#reviews ? this.#reviews.runIfDue() : false
  }

  /** See {@link MemoryApi.review}; `review/` holds the pipeline. */
  async review(options: ReviewOptions = {}): Promise<ReviewReport> {
    this.#ctx.assertOpen()
    return runReview(this.#ctx, options)
  }

  async #export(options: ExportOptions = {}): Promise<string> {
    const ctx = this.#ctx
    await connected(ctx)
    if (!options || typeof options !== 'object') {
      throw new InvalidInputError('BAD_OPTION', 'options', 'expected an object')
    }
    return ctx.mapped(
      exportJsonl(ctx.db, {
        ...options,
        model: ctx.embedder?.model ?? null,
        dims: ctx.readyDims(),
        now: ctx.clock(),
      }),
    )
  }

  // ---------------------------------------------------------------- reads

  async recall(query: string, options?: RecallOptions): Promise<RecallResult> {
    const ctx = this.#ctx
    await connected(ctx)
    const started = performance.now()
    const checked = checkRecallOptions(query, options, ctx.recallDefaults, ctx.limits)
    return this.#recallGate.run(() => this.#recall(query, options, checked, started))
  }

  /** One recall once the gate gives it a turn; `tookMs` counts the wait for the turn too. */
  async #recall(
    query: string,
    options: RecallOptions | undefined,
    checked: CheckedRecallOptions,
    started: number,
  ): Promise<RecallResult> {
    const ctx = this.#ctx
    // The memory may have closed while this recall waited for its turn.
    ctx.assertOpen()
    const now = ctx.clock()
    const outcome = await runRecall(
      {
        indexes: ctx.indexes,
        ...(ctx.embedder ? { embedder: ctx.embedder } : {}),
        vectorBlocker: () => ctx.vectorBlocker(),
        retrieval: ctx.retrieval,
        limits: ctx.limits,
        lifecycle: ctx.lifecycle,
        edges: (ids) => ctx.mapped(edgesOf(ctx.db, ids)),
        recent: (limit) =>
          ctx.mapped(ctx.db.memories.orderBy('id').reverse().limit(limit).toArray()),
        indexesUnavailable: () => ctx.upkeep.rebuilding || indexesFailed(ctx),
        indexFailure: () => ctx.connection.indexHealth.failure,
        now,
      },
      query,
      checked,
    )
    const result: RecallResult = { ...outcome, tookMs: performance.now() - started }
    if (checked.log) this.#recalls.log(query, options, result, now)
    this.#recalls.noteRecalled(
      result.hits.map((h) => h.id),
      now,
    )
    return result
  }

  async get(id: string): Promise<Memory | undefined> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    await connected(ctx)
    return ctx.mapped(ctx.db.memories.get(id))
  }

  async list(options: ListOptions = {}): Promise<ListPage> {
    return listMemories(this.#ctx, options)
  }

  async count(filter: CountFilter = {}): Promise<number> {
    return countMemories(this.#ctx, filter)
  }

  async timeline(options: TimelineOptions = {}): Promise<ListPage> {
    return timelineMemories(this.#ctx, options)
  }

  async #stats(): Promise<MemoryStats> {
    const ctx = this.#ctx
    if (ctx.connection.isLocked && !ctx.connection.isClosed) return lockedStats(ctx)
    await connected(ctx)
    const vectors = await ctx.mapped(ctx.db.vectors.count())
    const { catalogue, keyword } = ctx.indexes
    const vectorEntries = ctx.indexes.vectors?.size ?? 0
    const stats: MemoryStats = {
      memories: catalogue.size,
      vectors,
      pendingVectors: ctx.embedder ? catalogue.size - vectorEntries : 0,
      keywordEntries: keyword.size,
      vectorEntries,
      changeSeq: ctx.upkeep.lastSeq,
    }
    if (ctx.embedder) stats.embedder = ctx.embedder.stats()
    if (this.#openStats) stats.open = this.#openStats
    await reportIndexFailure(ctx, stats)
    if (ctx.db.atRest.encrypted) unlockedStats(ctx.db.atRest, stats)
    return stats
  }

  /**
   * Applies changes other tabs wrote since this engine last looked. Called when a tab announces
   * a new `seq`; also runs inside every write, under the lock, before dedup.
   */
  async catchUp(): Promise<number> {
    const ctx = this.#ctx
    ctx.assertOpen()
    return ctx.queue.run(async () => {
      try {
        await reconnect(ctx)
        return await ctx.upkeep.replay()
      } catch (error) {
        throw ctx.mapError(error)
      }
    })
  }

  /** The hooks multi-device sync (`src/sync/`) uses: local changes since a seq, remote writes. */
  get replica(): Replica {
    return new Replica(this.#ctx, this.#backfill)
  }

  /**
   * Waits for queued writes, saves a snapshot and closes. Never throws for the snapshot or the
   * recall counters: the tables already hold every acknowledged write, and the next open
   * catches up from the change log.
   */
  async close(): Promise<void> {
    const ctx = this.#ctx
    if (!ctx.connection.beginClose()) return
    ctx.upkeep.cancelIdleSnapshot()
    this.#backfill.stop()
    this.#reviews?.stop()
    try {
      if (!ctx.connection.isClosed) {
        await ctx.queue.drain()
        if (ctx.db.isOpen()) {
          await this.#recalls.flushCounts().catch(() => {})
          await ctx.settled()
          if (!indexesFailed(ctx)) await ctx.upkeep.snapshotIfChanged().catch(() => {})
        }
      }
    } finally {
      ctx.connection.finishClose()
      ctx.db.close()
      await ctx.embedder?.dispose?.()
    }
  }
}
