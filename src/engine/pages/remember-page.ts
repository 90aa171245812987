import { monotonicFactory } from 'ulidx'
import { StorageError } from '../../core/errors.ts'
import { WRITE_ATTEMPTS } from '../../core/options.ts'
import type { PageResult } from '../../core/types.ts'
import type { EngineContext } from '../engine-context.ts'
import { locked } from '../opening.ts'
import { STALE } from '../write/index.ts'
import { applyPage, commitPage } from './commit-page.ts'
import { embedChunks } from './embed-chunks.ts'
import { findPage } from './find-page.ts'
import { checkPageInput } from './page-input.ts'
import { planPage } from './plan-page.ts'

/** What a page write needs beyond the context: a nudge for the backfill. */
export interface PageWriteDeps {
  /** Called when chunks were stored without vectors. */
  scheduleBackfill: () => void
  /** Page and chunk ids. @default a monotonic ULID */
  newId?: () => string
}

const ulid = monotonicFactory()

/**
 * `pages.remember` as a pipeline: the input checked whole (nothing is written for a bad one) →
 * under the write lock, the stored page it names found (`findPage`) → the chunks planned against
 * it (`planPage`) → the chunks that need one embedded, outside any transaction → one transaction
 * → the indexes. When another writer changed the page between the plan and the commit, catch up
 * and plan again.
 */
export async function rememberPage(
  ctx: EngineContext,
  input: unknown,
  deps: PageWriteDeps,
): Promise<PageResult> {
  ctx.assertOpen()
  const checked = checkPageInput(input, ctx.limits)
  return ctx.queue.run(() =>
    locked(ctx, async () => {
      for (let attempt = 1; ; attempt++) {
        const match = findPage(ctx.indexes.catalogue, checked)
        if (match.kind === 'same') {
          return {
            pageId: match.pageId,
            chunks: match.rows.length,
            status: 'unchanged',
            embedded: 0,
          }
        }
        const now = ctx.clock()
        const plan = planPage(checked, match, {
          newId: deps.newId ?? (() => ulid()),
          now,
          lifecycle: ctx.lifecycle,
        })
        const ready = ctx.readyDims() > 0 && ctx.indexes.vectors !== null
        const vectors = await embedChunks(plan.rows, ctx.embedder, ready)
        const model = ctx.embedder?.model ?? null
        const seqs = await commitPage(plan, vectors, {
          db: ctx.db,
          model,
          now,
          transact: (body) => ctx.transact(body),
        })
        if (seqs !== STALE) {
          applyPage(ctx.indexes, plan, vectors)
          ctx.upkeep.recordWrites(seqs)
          if (plan.rows.some((r) => r.embed && !vectors.has(r.row.id))) deps.scheduleBackfill()
          return {
            pageId: plan.pageId,
            chunks: plan.rows.length,
            status: plan.status,
            embedded: vectors.size,
          }
        }
        if (attempt >= WRITE_ATTEMPTS) {
          throw new StorageError(
            `page ${plan.pageId} kept changing in another tab (${attempt} tries)`,
          )
        }
        await ctx.upkeep.replay()
      }
    }),
  )
}
