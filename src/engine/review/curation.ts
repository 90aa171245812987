import { MemoryNotFoundError } from '../../core/errors.ts'
import { feedbackFields } from '../../core/lifecycle.ts'
import type { Feedback, Memory, Relation } from '../../core/types.ts'
import { oneOf, validateId } from '../../core/validate.ts'
import { FEEDBACK_KINDS } from '../../core/vocabulary.ts'
import type { EngineContext } from '../engine-context.ts'
import { connected } from '../opening.ts'
import { checkEdge, edgesOf, putEdge } from '../relations.ts'
import { runWrite } from '../write/index.ts'

/**
 * The calls that tend what is stored rather than add to it: relations between memories and a
 * reader's feedback. Each is one unit of work (`runWrite`): the write queue, the cross-tab lock,
 * one transaction.
 * Relations change no index (recall reads them from their table), so they take no change-log
 * entry; feedback changes a memory (every chunk of a page, for a chunk), so it does.
 */
export class Curator {
  readonly #ctx: EngineContext

  constructor(ctx: EngineContext) {
    this.#ctx = ctx
  }

  async relate(fromId: string, toId: string, kind: Relation['kind']): Promise<Relation> {
    const ctx = this.#ctx
    ctx.assertOpen()
    const edge = checkEdge(fromId, toId, kind)
    return runWrite(ctx, {
      commit: async () => ({ result: await putEdge(ctx.db, edge, ctx.clock()) }),
    })
  }

  async unrelate(fromId: string, toId: string, kind: Relation['kind']): Promise<boolean> {
    const ctx = this.#ctx
    ctx.assertOpen()
    const edge = checkEdge(fromId, toId, kind)
    return runWrite(ctx, {
      commit: async () => {
        const key: [string, string, string] = [edge.from, edge.to, edge.kind]
        const held = await ctx.db.relations.get(key)
        if (held) await ctx.db.relations.delete(key)
        return { result: held !== undefined }
      },
    })
  }

  async relations(id: string): Promise<Relation[]> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    await connected(ctx)
    return ctx.mapped(edgesOf(ctx.db, [id]))
  }

  async feedback(id: string, verdict: Feedback): Promise<Memory> {
    const ctx = this.#ctx
    ctx.assertOpen()
    validateId(id)
    const checked = oneOf(verdict, FEEDBACK_KINDS, 'verdict')
    return runWrite(ctx, {
      commit: async () => {
        const now = ctx.clock()
        const row = await ctx.db.memories.get(id)
        if (!row) throw new MemoryNotFoundError(id)
        // A page is curated whole: feedback on a chunk (a recall hit) is feedback on its page,
        // or one chunk would expire, or be flagged, apart from the rest.
        const targets =
          row.pageId === undefined
            ? [row]
            : await ctx.db.memories.where('pageId').equals(row.pageId).toArray()
        const next = targets.map(
          (m): Memory => ({ ...m, ...feedbackFields(m, checked, now, ctx.lifecycle) }),
        )
        await ctx.db.memories.bulkPut(next)
        const changes = next.map((m) => ({ op: 'put' as const, id: m.id, at: now }))
        const seqs = (await ctx.db.changes.bulkAdd(changes, { allKeys: true })) as number[]
        return { result: next.find((m) => m.id === id)!, seqs, refreshed: next }
      },
    })
  }
}
