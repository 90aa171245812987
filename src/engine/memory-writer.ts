import { monotonicFactory } from 'ulidx'
import { InvalidInputError, MemoryNotFoundError } from '../core/errors.ts'
import type {
  ImportOptions,
  ImportReport,
  Memory,
  MemoryPatch,
  RememberItem,
  RememberOptions,
  RememberResult,
} from '../core/types.ts'
import { validateId, validateVector } from '../core/validate.ts'
import { isConstraintError, type VectorRow } from '../storage/index.ts'
import type { BackfillScheduler } from './backfill-scheduler.ts'
import type { EngineContext } from './engine-context.ts'
import { checkImportOptions, parseJsonl } from './import-export.ts'
import { advance, replay } from './index-sync.ts'
import { locked } from './lifecycle.ts'
import { type PreparedWrite, preparePatch, prepareWrite, screen, screenedText } from './prepare.ts'
import { writeBatch } from './write-batch.ts'
import { Coalescer } from './write-queue.ts'

/** Texts per embedding call: a large `rememberMany` is embedded in pieces, stored in one go. */
const EMBED_CHUNK = 64

/** Attempts of a batch that lost a unique-key race to a writer that held no shared lock. */
const CONSTRAINT_RETRIES = 3

/**
 * Every path that changes memories: `remember` (coalesced), `rememberMany`, `update`, `forget`
 * and `importMemories`. Each runs through the write queue and under the cross-tab lock, commits
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
    if (!Array.isArray(items)) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'items',
        'expected an array of { text, ...options }',
      )
    }
    const prepared = items.map((item, i) => {
      if (!item || typeof item !== 'object') {
        throw new InvalidInputError(
          'BAD_OPTION',
          `items[${i}]`,
          'expected an object with a text field',
        )
      }
      const p = prepareWrite(item.text, item, this.#ctx.limits, `items[${i}].`)
      this.#checkVector(p, `items[${i}].vector`)
      return p
    })
    if (prepared.length === 0) return []
    return this.#ctx.queue.run(() => this.#write(prepared))
  }

  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    const changes = preparePatch(patch, ctx.limits)
    return ctx.queue.run(() =>
      locked(ctx, async () => {
        const { db } = ctx
        const current = await db.memories.get(id)
        if (!current) throw new MemoryNotFoundError(id)
        const { poison = 'reject', key, expiresAt, ...fields } = changes
        const next: Memory = { ...current, ...fields, updatedAt: ctx.clock() }
        if (key !== undefined) next.key = key
        if (expiresAt === null) delete next.expiresAt
        else if (expiresAt !== undefined) next.expiresAt = expiresAt
        if (
          fields.text !== undefined ||
          fields.aliases !== undefined ||
          fields.tags !== undefined
        ) {
          next.flags = screen(screenedText(next), poison, 'patch')
        }
        if (next.key !== current.key || next.type !== current.type) {
          const clash = await db.memories
            .where('[namespace+type+key]')
            .equals([next.namespace, next.type, next.key])
            .first()
          if (clash && clash.id !== id) {
            throw new InvalidInputError(
              'DUPLICATE_TEXT',
              'patch.text',
              `memory ${clash.id} already says this`,
            )
          }
        }
        let vector: Float32Array | undefined
        let dropVector = false
        if (next.text !== current.text) {
          vector = await this.#embedPassages([next.text]).then((v) => v?.[0])
          dropVector = !vector
        } else if (next.type !== current.type) {
          vector = (await db.vectors.get(id))?.vector
        }
        const seq = await ctx.transact(async () => {
          // Recall counters are written without the write lock (they change no index); take
          // theirs from the row as it is now, so this update does not undo them.
          const latest = await db.memories.get(id)
          if (!latest) throw new MemoryNotFoundError(id)
          next.recallCount = latest.recallCount
          if (latest.lastRecalledAt !== undefined) next.lastRecalledAt = latest.lastRecalledAt
          await db.memories.put(next)
          if (vector) await db.vectors.put(this.#vectorRow(id, vector))
          else if (dropVector) await db.vectors.delete(id)
          return db.changes.add({ op: 'put', id, at: next.updatedAt })
        })
        ctx.indexes.put(next, vector)
        if (dropVector) ctx.indexes.removeVector(id)
        advance(ctx, [seq])
        return next
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
          if (!exists) throw new MemoryNotFoundError(id)
          await db.memories.delete(id)
          await db.vectors.delete(id)
          return db.changes.add({ op: 'delete', id, at: ctx.clock() })
        })
        ctx.indexes.remove(id)
        advance(ctx, [seq])
      }),
    )
  }

  async importMemories(jsonl: string, options?: ImportOptions): Promise<ImportReport> {
    const ctx = this.#ctx
    ctx.assertOpen()
    const batchSize = checkImportOptions(options, ctx.writeBatch)
    const lines = parseJsonl(jsonl, options, ctx.limits, ctx.embedder?.model ?? null)
    const report: ImportReport = { lines: lines.length, created: 0, duplicates: 0, flagged: 0 }
    for (let start = 0; start < lines.length; start += batchSize) {
      const batch = lines.slice(start, start + batchSize)
      for (const p of batch) {
        if (p.vector === undefined) continue
        try {
          this.#checkVector(p, 'vector')
        } catch {
          delete p.vector // embedded afresh instead
        }
      }
      const results = await ctx.queue.run(() => this.#write(batch))
      for (const r of results) {
        if (r.status === 'created') report.created++
        else report.duplicates++
        if (r.flags?.length) report.flagged++
      }
      ctx.emit({
        type: 'import',
        done: Math.min(start + batchSize, lines.length),
        total: lines.length,
      })
    }
    return report
  }

  /**
   * One batch, inside the queue: dedup, embed, one transaction, then the indexes. A unique-key
   * failure means a writer outside this engine's lock stored the same text (or id) first: catch
   * up and run the batch again, so the caller gets the duplicate instead of an error.
   */
  #write(items: PreparedWrite[]): Promise<RememberResult[]> {
    const ctx = this.#ctx
    ctx.assertOpen()
    return locked(ctx, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const outcome = await writeBatch(items, {
            db: ctx.db,
            indexes: ctx.indexes,
            now: ctx.clock(),
            newId: () => this.#ulid(),
            embed: (texts) => this.#embedPassages(texts),
            model: ctx.embedder?.model ?? null,
            nearDuplicate: ctx.retrieval.nearDuplicate,
            transact: (body) => ctx.transact(body),
          })
          advance(ctx, outcome.seqs)
          if (outcome.unembedded > 0) this.#backfill.schedule()
          return outcome.results
        } catch (error) {
          if (!isConstraintError(error) || attempt >= CONSTRAINT_RETRIES) throw error
          await replay(ctx)
        }
      }
    })
  }

  async #embedPassages(texts: string[]): Promise<Float32Array[] | undefined> {
    const embedder = this.#ctx.embedder
    if (embedder?.state !== 'ready' || !this.#ctx.indexes.vectors) return undefined
    try {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += EMBED_CHUNK) {
        const chunk = texts.slice(start, start + EMBED_CHUNK)
        vectors.push(...(await embedder.embed(chunk, { kind: 'passage' })))
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

  #vectorRow(id: string, vector: Float32Array): VectorRow {
    return { id, model: this.#ctx.embedder!.model, dims: vector.length, vector }
  }
}
