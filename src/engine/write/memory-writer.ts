import { monotonicFactory } from 'ulidx'
import { InvalidInputError, MemoryNotFoundError, StorageError } from '../../core/errors.ts'
import { EMBED_CHUNK, WRITE_ATTEMPTS } from '../../core/options.ts'
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
import { isConstraintError } from '../../storage/index.ts'
import { blockedByRefused, isRefused, refusedHolders } from '../at-rest/refused-holders.ts'
import type { EngineContext } from '../engine-context.ts'
import type { BackfillScheduler } from '../index/backfill-scheduler.ts'
import { locked } from '../opening.ts'
import { dropEdges, putEdge } from '../relations.ts'
import { importMemories } from '../transfer/index.ts'
import { STALE, writeBatch } from './index.ts'
import { type PreparedWrite, prepareItems, preparePatch, prepareWrite } from './prepare.ts'
import { Coalescer } from './queue.ts'
import { updateMemory } from './update.ts'

/**
 * Every path that changes memories: `remember` (coalesced), `rememberMany`, `update`, `forget`
 * and `transfer.import`. Each runs through the write queue and under the cross-tab lock, commits
 * one transaction, then updates the indexes and records the change-log seqs.
 */
export class MemoryWriter {
  readonly #ctx: EngineContext
  readonly #backfill: BackfillScheduler
  readonly #coalescer: Coalescer<PreparedWrite, RememberResult>
  readonly #ulid = monotonicFactory()

  constructor(ctx: EngineContext, backfill: BackfillScheduler) {
    this.#ctx = ctx
    this.#backfill = backfill
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

  /** See `updateMemory` (write/update.ts): the patch is applied to the row read in the commit. */
  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    const changes = preparePatch(patch, ctx.limits)
    return ctx.queue.run(() =>
      locked(ctx, async () => {
        const updated = await updateMemory(
          {
            db: ctx.db,
            model: ctx.embedder?.model ?? null,
            now: ctx.clock(),
            embed: async (text) => (await this.#embedPassages([text]))?.[0],
            transact: (body) => ctx.transact(body),
          },
          id,
          changes,
        )
        ctx.indexes.put(updated.memory, updated.vector)
        if (updated.dropVector) ctx.indexes.removeVector(id)
        ctx.upkeep.recordWrites([updated.seq])
        if (updated.dropVector) this.#backfill.schedule()
        return updated.memory
      }),
    )
  }

  async forget(id: string): Promise<void> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    await ctx.queue.run(() =>
      locked(ctx, async () => {
        const { db } = ctx
        const seq = await ctx.transact(async () => {
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
          return db.changes.add({ op: 'delete', id, at: ctx.clock() })
        })
        ctx.indexes.remove(id)
        ctx.upkeep.recordWrites([seq])
      }),
    )
  }

  /** See `transfer.import` (transfer/import-memories.ts): facts in batches, then whole pages. */
  importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport> {
    return importMemories(this.#ctx, jsonl, options, {
      write: (batch) => this.#write(batch),
      newId: () => this.#ulid(),
      scheduleBackfill: () => this.#backfill.schedule(),
    })
  }

  /**
   * One batch, inside the queue: dedup, embed, one transaction, then the indexes. A unique-key
   * failure means a writer outside this engine's lock stored the same text (or id) first, and
   * {@link STALE} that one changed a memory this batch matched: catch up and run the batch
   * again, so the caller gets the duplicate instead of an error.
   */
  #write(items: PreparedWrite[]): Promise<RememberResult[]> {
    const ctx = this.#ctx
    ctx.assertOpen()
    return locked(ctx, async () => {
      assertSuperseded(items, ctx.indexes.catalogue)
      for (let attempt = 1; ; attempt++) {
        const outcome = await this.#attempt(items)
        if (outcome !== STALE) {
          ctx.upkeep.recordWrites(outcome.seqs)
          if (outcome.unembedded > 0) this.#backfill.schedule()
          await this.#storeSupersedes(items, outcome.results)
          return outcome.results
        }
        if (attempt >= WRITE_ATTEMPTS) {
          throw new StorageError(
            `the memories this write repeats kept changing in another tab (${attempt} tries)`,
          )
        }
        await ctx.upkeep.replay()
      }
    })
  }

  /**
   * One try of a batch; a lost unique-key race counts as {@link STALE}, unless the key's holder
   * is a row that does not open (encryption at rest): no retry would get past it.
   */
  async #attempt(items: PreparedWrite[]): Promise<Awaited<ReturnType<typeof writeBatch>>> {
    const outcome = await this.#try(items)
    if (outcome !== STALE) return outcome
    const refused = await refusedHolders(this.#ctx.db, items)
    if (refused.length > 0) throw blockedByRefused(refused)
    return STALE
  }

  async #try(items: PreparedWrite[]): Promise<Awaited<ReturnType<typeof writeBatch>>> {
    const ctx = this.#ctx
    try {
      return await writeBatch(items, {
        db: ctx.db,
        indexes: ctx.indexes,
        now: ctx.clock(),
        newId: () => this.#ulid(),
        embed: (texts) => this.#embedPassages(texts),
        model: ctx.embedder?.model ?? null,
        nearDuplicate: ctx.retrieval.nearDuplicate,
        relatedFloor: ctx.retrieval.relatedFloor,
        lifecycle: ctx.lifecycle,
        transact: (body) => ctx.transact(body),
      })
    } catch (error) {
      if (isConstraintError(error)) return STALE
      throw error
    }
  }

  /**
   * The `supersedes` edges of a batch, once its memories are stored. Under the same lock as the
   * write, so no other writer sees the new memory without its edge for long; a memory that
   * repeats the one it supersedes stores no edge.
   */
  async #storeSupersedes(items: PreparedWrite[], results: RememberResult[]): Promise<void> {
    const edges = items.flatMap((w, i) =>
      w.supersedes && w.supersedes !== results[i]!.id
        ? [{ from: results[i]!.id, to: w.supersedes, kind: 'supersedes' as const }]
        : [],
    )
    if (edges.length === 0) return
    const ctx = this.#ctx
    const now = ctx.clock()
    await ctx.transact(async () => {
      for (const edge of edges) await putEdge(ctx.db, edge, now)
    })
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

/** Throws `MemoryNotFoundError` for a `supersedes` naming no stored memory, before any write. */
function assertSuperseded(
  items: readonly PreparedWrite[],
  catalogue: ReadonlyMap<string, Memory>,
): void {
  for (const w of items) {
    if (w.supersedes !== undefined && !catalogue.has(w.supersedes))
      throw new MemoryNotFoundError(w.supersedes)
  }
}
