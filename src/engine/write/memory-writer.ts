import { InvalidInputError, MemoryNotFoundError } from '../../core/errors.ts'
import { EMBED_CHUNK } from '../../core/options.ts'
import type {
  ImportOptions,
  ImportReport,
  Memory,
  MemoryPatch,
  RememberItem,
  RememberOptions,
  RememberResult,
} from '../../core/types.ts'
import { validateId, validateVector } from '../../core/validate.ts'
import { isRefused } from '../at-rest/refused-holders.ts'
import type { EngineContext } from '../engine-context.ts'
import type { BackfillScheduler } from '../index/backfill-scheduler.ts'
import { dropEdges } from '../relations.ts'
import { importMemories } from '../transfer/index.ts'
import { batchAttempt } from './index.ts'
import { type PreparedWrite, prepareItems, preparePatch, prepareWrite } from './prepare.ts'
import { Coalescer } from './queue.ts'
import { runWrite, writeInQueue } from './run-write.ts'
import { updateAttempt } from './update.ts'

/**
 * Every path that changes memories: `remember` (coalesced), `rememberMany`, `update`, `forget`
 * and `transfer.import`. Each is one unit of work (`runWrite`, write/run-write.ts): the write
 * queue, the cross-tab lock, one transaction, then the indexes and the change-log seqs.
 */
export class MemoryWriter {
  readonly #ctx: EngineContext
  readonly #coalescer: Coalescer<PreparedWrite, RememberResult>

  constructor(ctx: EngineContext, backfill: BackfillScheduler) {
    this.#ctx = ctx
    // The writer is made with the engine: every write's unit of work starts this backfill.
    ctx.useBackfill(() => backfill.schedule())
    this.#coalescer = new Coalescer(ctx.queue, (items) => this.#write(items), ctx.writeBatch)
  }

  async remember(text: string, options?: RememberOptions): Promise<RememberResult> {
    this.#ctx.assertOpen()
    const prepared = prepareWrite(text, options, this.#ctx.limits)
    this.#checkVector(prepared, 'vector')
    return this.#coalescer.submit(prepared)
  }

  async rememberMany(items: RememberItem[]): Promise<RememberResult[]> {
    this.#ctx.assertOpen()
    const prepared = prepareItems(items, this.#ctx.limits)
    prepared.forEach((p, i) => {
      this.#checkVector(p, `items[${i}].vector`)
    })
    if (prepared.length === 0) return []
    return this.#ctx.queue.run(() => this.#write(prepared))
  }

  /** See `updateAttempt` (write/update.ts): the patch is applied to the row read in the commit. */
  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    const changes = preparePatch(patch, ctx.limits)
    const context = () => ({
      db: ctx.db,
      model: ctx.embedder?.model ?? null,
      now: ctx.clock(),
      embed: async (text: string) => (await this.#embedPassages([text]))?.[0],
    })
    return runWrite(ctx, updateAttempt(context, id, changes))
  }

  async forget(id: string): Promise<void> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    await runWrite(ctx, {
      commit: async () => {
        const { db } = ctx
        const exists = await db.memories.get(id)
        // A row that does not open is dropped by its id: nothing of it can be read anyway.
        if (!exists && !(await isRefused(db, id))) throw new MemoryNotFoundError(id)
        // A page is its chunks: one gone and the rest no longer reassemble.
        if (exists?.pageId !== undefined) {
          throw new InvalidInputError(
            'PAGE_CHUNK',
            'id',
            `expected a memory that is not part of a page, got chunk ${exists.chunk ?? '?'} of page ${exists.pageId}: forget the page with forgetPage('${exists.pageId}')`,
          )
        }
        await db.memories.delete(id)
        await db.vectors.delete(id)
        await dropEdges(db, [id])
        const seq = await db.changes.add({ op: 'delete', id, at: ctx.clock() })
        return { result: undefined, seqs: [seq], removed: [id] }
      },
    })
  }

  /** See `transfer.import` (transfer/import-memories.ts): facts in batches, then whole pages. */
  importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport> {
    const ctx = this.#ctx
    return importMemories(ctx, jsonl, options, {
      write: (batch) => this.#write(batch),
      newId: ctx.newId,
      scheduleBackfill: () => ctx.scheduleBackfill(),
    })
  }

  /**
   * One batch, inside the queue (`batchAttempt`, write/index.ts): under the lock, dedup, embed,
   * one transaction with its `supersedes` edges, then the indexes. A unique-key failure means a
   * writer outside this engine's lock stored the same text (or id) first, and {@link STALE} that
   * one changed a memory this batch matched: catch up and run the batch again, so the caller
   * gets the duplicate instead of an error.
   */
  async #write(items: PreparedWrite[]): Promise<RememberResult[]> {
    const ctx = this.#ctx
    const attempt = batchAttempt(items, () => ({
      db: ctx.db,
      indexes: ctx.indexes,
      now: ctx.clock(),
      newId: ctx.newId,
      embed: (texts) => this.#embedPassages(texts),
      model: ctx.embedder?.model ?? null,
      nearDuplicate: ctx.retrieval.nearDuplicate,
      relatedFloor: ctx.retrieval.relatedFloor,
      lifecycle: ctx.lifecycle,
    }))
    return (await writeInQueue(ctx, attempt)).results
  }

  async #embedPassages(texts: string[]): Promise<Float32Array[] | undefined> {
    const embedder = this.#ctx.embedder
    if (embedder?.state !== 'ready' || !this.#ctx.indexes.vectors) return undefined
    try {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += EMBED_CHUNK) {
        const chunk = texts.slice(start, start + EMBED_CHUNK)
        for (const vector of await embedder.embed(chunk, { kind: 'passage' })) vectors.push(vector)
      }
      return vectors
    } catch {
      // The write still lands; the backfill embeds it when the model works again.
      return undefined
    }
  }

  #checkVector(prepared: PreparedWrite, field: string): void {
    if (prepared.vector === undefined) return
    const dims = this.#ctx.readyDims()
    if (dims === 0) {
      throw new InvalidInputError(
        'BAD_VECTOR',
        field,
        'a vector needs a loaded embedding model to compare with; none is ready',
      )
    }
    prepared.vector = validateVector(prepared.vector, dims, field)
  }
}
