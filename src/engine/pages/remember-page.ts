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
 * it (`planPage`) → the chunks that need one embedded, outside any transaction → one transaction
 * → the indexes. When another writer changed the page between the plan and the commit, catch up
 * and plan again (`runWrite`).
 */
export async function rememberPage(
  ctx: EngineContext,
  input: unknown,
  deps: PageWriteDeps = {},
): Promise<PageResult> {
  ctx.assertOpen()
  const checked = checkPageInput(input, ctx.limits)
  return runWrite<PreparedPage, PageResult>(ctx, {
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
      const ready = ctx.readyDims() > 0 && ctx.indexes.vectors !== null
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
}
