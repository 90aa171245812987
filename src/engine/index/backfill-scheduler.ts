import { BACKFILL_BATCH, BACKFILL_RETRY_MS } from '../../core/options.ts'
import type { Embedder } from '../../core/types.ts'
import { classifyModelFailure } from '../../embedder/model-failure.ts'
import type { EngineContext } from '../engine-context.ts'

/**
 * Embeds memories that lack a vector from the current model (written while the model loaded,
 * under another model, or a page's chunks, stored before their vectors), a batch at a time,
 * each embedded outside the write lock and stored by one write (`backfillBatch`), running the
 * near-dedup check each would have had at write time. It works from the indexes (catalogue
 * rows the vector index lacks), so a run cut short by a reload resumes where it stopped. One
 * run at a time; a failed batch is retried later with a backoff. Announces `backfill` after
 * each batch and `page-embedding` for each page it starts on or advances.
 */
export class BackfillScheduler {
  readonly #ctx: EngineContext
  #running: Promise<void> | null = null
  #delay = 0
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(ctx: EngineContext) {
    this.#ctx = ctx
  }

  /** Starts a run unless one is running, the model is not ready, or the memory is closing. */
  schedule(): void {
    const ctx = this.#ctx
    if (ctx.connection.isWindingDown) return
    if (this.#running || !ctx.embedder || ctx.embedder.state !== 'ready') return
    this.#running = this.#run().finally(() => {
      this.#running = null
    })
    ctx.track(this.#running)
  }

  /** Cancels a pending retry; a run in progress stops at its next batch once closing has begun. */
  stop(): void {
    clearTimeout(this.#timer)
  }

  async #run(): Promise<void> {
    const ctx = this.#ctx
    const { backfillBatch } = await import('./backfill.ts')
    const announced = new Set<string>()
    let done = 0
    for (;;) {
      if (ctx.connection.isWindingDown) return
      const batch = pendingIds(ctx, BACKFILL_BATCH)
      if (batch.length === 0) break
      const pages = pagesOf(ctx, batch)
      for (const pageId of pages) {
        if (!announced.has(pageId)) announcePage(ctx, pageId)
        announced.add(pageId)
      }
      const progressed = await backfillBatch(ctx, batch, ctx.embedder!).catch(() => null)
      // A batch whose every text changed while it was embedded made no progress: later, not now.
      if (!progressed || progressed.done === 0) {
        this.#retry()
        return
      }
      this.#delay = 0
      done += progressed.done
      ctx.emit({ type: 'backfill', done, total: done + countPending(ctx) })
      for (const pageId of pages) announcePage(ctx, pageId)
    }
    if (ctx.upkeep.reembedding) await ctx.upkeep.countStaleVectors()
  }

  /**
   * A failed backfill batch (a storage fault, the model erroring) is tried again later, backing
   * off from 0.5 s to a minute, so one failure does not leave memories unembedded all session.
   */
  #retry(): void {
    const ctx = this.#ctx
    if (ctx.connection.isWindingDown || this.#timer) return
    this.#delay = Math.min(
      Math.max(this.#delay * 2, BACKFILL_RETRY_MS.first),
      BACKFILL_RETRY_MS.max,
    )
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.schedule()
    }, this.#delay)
  }
}

/**
 * Loads the embedder in the background (or takes it as ready), then sizes the vector index,
 * announces the model and starts the backfill. A failed load is announced; recall stays
 * keyword-only.
 */
export function startEmbedder(ctx: EngineContext, backfill: BackfillScheduler): void {
  const embedder = ctx.embedder
  if (!embedder) return
  // The indexes were restored with this model's vectors; a chain that fell back while loading
  // answers with another model, whose queries must not meet them even at the same dims.
  const restoredFor = embedder.model
  const ready = () => {
    if (ctx.connection.isClosed) return
    if (embedder.model !== restoredFor) ctx.indexes.dropVectors()
    ctx.indexes.ensureVectors(embedder.dims)
    ctx.emit({ type: 'model-ready', model: embedder.model, ...deviceOf(embedder) })
    backfill.schedule()
  }
  if (embedder.state === 'ready') {
    ready()
    return
  }
  ctx.track(
    embedder.load().then(ready, (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      const failure = classifyModelFailure(error)
      ctx.emit({ type: 'model-failed', model: embedder.model, error: message, ...failure })
    }),
  )
}

/** Up to `limit` ids of memories without a vector from the current model, in catalogue order. */
function pendingIds(ctx: EngineContext, limit: number): string[] {
  const { catalogue, vectors } = ctx.indexes
  const ids: string[] = []
  for (const id of catalogue.keys()) {
    if (ids.length >= limit) break
    if (!vectors?.has(id)) ids.push(id)
  }
  return ids
}

/** The page ids among `ids`' rows, in first-seen order. */
function pagesOf(ctx: EngineContext, ids: readonly string[]): Set<string> {
  const pages = new Set<string>()
  for (const id of ids) {
    const pageId = ctx.indexes.catalogue.get(id)?.pageId
    if (pageId !== undefined) pages.add(pageId)
  }
  return pages
}

/** A page's chunks with a vector of all its chunks; nothing for a page that is gone. */
function announcePage(ctx: EngineContext, pageId: string): void {
  const rows = ctx.indexes.pageRows(pageId)
  if (!rows) return
  const { vectors } = ctx.indexes
  const done = vectors ? rows.filter((r) => vectors.has(r.id)).length : 0
  ctx.emit({ type: 'page-embedding', pageId, done, total: rows.length })
}

function countPending(ctx: EngineContext): number {
  const { catalogue, vectors } = ctx.indexes
  return catalogue.size - (vectors?.size ?? 0)
}

function deviceOf(embedder: Embedder): { device?: string } {
  const device = embedder.stats().device
  return device ? { device } : {}
}
