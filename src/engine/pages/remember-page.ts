import type { PageResult } from '../../core/types.ts'
import type { EngineContext } from '../engine-context.ts'
import { answered, runWrite, STALE } from '../write/index.ts'
import { commitPage, type PreparedPage, pageWritten } from './commit-page.ts'
import { embedChunks } from './embed-chunks.ts'
import { findPage } from './find-page.ts'
import { checkPageInput } from './page-input.ts'
import { planPage } from './plan-page.ts'

/** What a page write needs beyond the context. */
export interface PageWriteDeps {
  /**
   * Called when chunks were stored without vectors.
   * @deprecated the unit of work starts the engine's backfill itself (`runWrite`); ignored
   */
  scheduleBackfill?: () => void
  /** Page and chunk ids. @default the engine's (`EngineContext.newId`) */
  newId?: () => string
}

/**
 * `pages.remember` as a pipeline: the input checked whole (nothing is written for a bad one) →
 * under the write lock, the stored page it names found (`findPage`) → the chunks planned against
 * it (`planPage`) → with `wait: 'vectors'` only, the chunks that need one embedded, outside any
 * transaction → one transaction → the indexes (keyword search finds the page from here) → the
 * backfill, started for the chunks without a vector. When another writer changed the page
 * between the plan and the commit, catch up and plan again (`runWrite`).
 */
export async function rememberPage(
  ctx: EngineContext,
  input: unknown,
  deps: PageWriteDeps = {},
): Promise<PageResult> {
  ctx.assertOpen()
  const checked = checkPageInput(input, ctx.limits)
  const written = await runWrite<PreparedPage, Omit<PageResult, 'pending'>>(ctx, {
    prepare: async () => {
      const match = findPage(ctx.indexes, checked)
      if (match.kind === 'same') {
        return answered({
          pageId: match.pageId,
          chunks: match.rows.length,
          status: 'unchanged',
          embedded: 0,
        })
      }
      const now = ctx.clock()
      const plan = planPage(checked, match, {
        newId: deps.newId ?? ctx.newId,
        now,
        lifecycle: ctx.lifecycle,
      })
      // Embedding is the cost of a page (a 1 MB page is minutes on WASM): by default the
      // chunks go in without vectors and the backfill makes them, a batch per write turn.
      const ready =
        checked.wait === 'vectors' && ctx.readyDims() > 0 && ctx.indexes.vectors !== null
      return { plan, vectors: await embedChunks(plan.rows, ctx.embedder, ready), now }
    },
    commit: async ({ plan, vectors, now }) => {
      const model = ctx.embedder?.model ?? null
      const seqs = await commitPage(plan, vectors, { db: ctx.db, model, now })
      if (seqs === STALE) return STALE
      return pageWritten(plan, vectors, seqs, {
        pageId: plan.pageId,
        chunks: plan.rows.length,
        status: plan.status,
        embedded: vectors.size,
      })
    },
    changing: ({ plan }) => `page ${plan.pageId}`,
  })
  return { ...written, pending: pendingChunks(ctx, written.pageId) }
}

/** The page's chunks the vector index holds no vector for (all of them without a model). */
export function pendingChunks(ctx: Pick<EngineContext, 'indexes'>, pageId: string): number {
  const { vectors } = ctx.indexes
  const rows = ctx.indexes.pageRows(pageId) ?? []
  return vectors ? rows.filter((r) => !vectors.has(r.id)).length : rows.length
}
