import type { Embedder } from '../core/types.ts'
import type { EngineContext } from './engine-context.ts'
import { advance } from './index-sync.ts'
import { locked } from './lifecycle.ts'

/** Memories embedded per backfill batch (one queue turn each, so writes interleave). */
const BACKFILL_BATCH = 32

/**
 * Embeds memories that lack a vector from the current model (written while the model
 * loaded, or under another model), a batch at a time through the write queue, running the
 * near-dedup check each would have had at write time. One run at a time; a failed batch is
 * retried later with a backoff.
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
    if (ctx.closed || ctx.disposed) return
    if (this.#running || !ctx.embedder || ctx.embedder.state !== 'ready') return
    this.#running = this.#run().finally(() => {
      this.#running = null
    })
    ctx.track(this.#running)
  }

  /** Cancels a pending retry; a run in progress stops at its next batch once `disposed` is set. */
  stop(): void {
    clearTimeout(this.#timer)
  }

  async #run(): Promise<void> {
    const ctx = this.#ctx
    const { backfillBatch } = await import('./backfill.ts')
    let done = 0
    for (;;) {
      if (ctx.closed || ctx.disposed) return
      const pending = [...ctx.indexes.catalogue.keys()].filter(
        (id) => !ctx.indexes.vectors?.has(id),
      )
      if (pending.length === 0) break
      const batch = pending.slice(0, BACKFILL_BATCH)
      const progressed = await ctx.queue
        .run(() =>
          locked(ctx, () =>
            backfillBatch(batch, {
              db: ctx.db,
              indexes: ctx.indexes,
              embedder: ctx.embedder!,
              nearDuplicate: ctx.retrieval.nearDuplicate,
              now: ctx.clock(),
              transact: (body) => ctx.transact(body),
            }),
          ),
        )
        .catch(() => null)
      if (!progressed) {
        this.#retry()
        return
      }
      this.#delay = 0
      advance(ctx, progressed.seqs)
      done += batch.length
      ctx.emit({ type: 'backfill', done, total: done + pending.length - batch.length })
    }
    if (ctx.staleVectors > 0) {
      const total = await ctx.db.vectors.count()
      const current = await ctx.db.vectors.where('model').equals(ctx.embedder!.model).count()
      ctx.staleVectors = total - current
    }
  }

  /**
   * A failed backfill batch (a storage fault, the model erroring) is tried again later, backing
   * off from 0.5 s to a minute, so one failure does not leave memories unembedded all session.
   */
  #retry(): void {
    const ctx = this.#ctx
    if (ctx.closed || ctx.disposed || this.#timer) return
    this.#delay = Math.min(Math.max(this.#delay * 2, 500), 60_000)
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
  const ready = () => {
    if (ctx.closed) return
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
      ctx.emit({ type: 'model-failed', model: embedder.model, error: String(error) })
    }),
  )
}

function deviceOf(embedder: Embedder): { device?: string } {
  const device = embedder.stats().device
  return device ? { device } : {}
}
