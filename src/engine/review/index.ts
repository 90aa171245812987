import { REVIEW_CHUNK } from '../../core/options.ts'
import type { Memory, ReviewReport } from '../../core/types.ts'
import type { EngineContext } from '../engine-context.ts'
import { connected } from '../opening.ts'
import { inWriteTurn, runWrite, type WriteAttempt } from '../write/index.ts'
import { candidateCases } from './candidates.ts'
import {
  type ChunkOutcome,
  type ChunkPlan,
  commitChunk,
  type PlannedPage,
  reportChunk,
} from './commit.ts'
import { decide, judged } from './judge.ts'
import { type CheckedReview, checkReviewOptions } from './options.ts'
import {
  DONE_KEY,
  lastReview,
  PROGRESS_KEY,
  type ReviewDone,
  type ReviewProgress,
} from './progress.ts'
import { pageReviewActions, type ReviewAction, reviewAction } from './rules.ts'

/**
 * The review pass as a pipeline over chunks of memories in id order, each chunk one write unit
 * of work (`runWrite`; writes interleave between steps): under the lock, the rules per memory →
 * merge and conflict candidates among the chunk's new memories → the judge, if any; then one
 * transaction with the progress mark → the indexes. A review cut short leaves its mark; the
 * next one resumes there; its end is one more write (the mark cleared, the pass recorded done).
 */
export async function runReview(ctx: EngineContext, options: unknown): Promise<ReviewReport> {
  const checked = checkReviewOptions(options)
  const started = performance.now()
  await connected(ctx)
  const progress = (await ctx.mapped(ctx.db.meta.get(PROGRESS_KEY)))?.value as
    | ReviewProgress
    | undefined
  const run: ReviewProgress = progress ?? {
    startedAt: ctx.clock(),
    since: (await ctx.mapped(lastReview(ctx)))?.startedAt ?? 0,
    cursor: '',
  }
  const report = emptyReport(progress !== undefined)
  // Catch up with other tabs first: the ids to review come from this engine's catalogue.
  await inWriteTurn(ctx, async () => {})
  const ids = [...ctx.indexes.catalogue.keys()].filter((id) => id > run.cursor).sort()
  const seen: Seen = { pairs: new Set(), pages: new Set(), chunks: chunkIds(ctx) }
  for (let start = 0; start < ids.length; start += REVIEW_CHUNK) {
    const chunk = ids.slice(start, start + REVIEW_CHUNK)
    await reviewChunk(ctx, chunk, run, checked, seen, report)
  }
  await runWrite(ctx, {
    commit: async () => {
      const done: ReviewDone = { startedAt: run.startedAt, completedAt: ctx.clock() }
      await ctx.db.meta.delete(PROGRESS_KEY)
      await ctx.db.meta.put({ key: DONE_KEY, value: done })
      return { result: undefined }
    },
    tables: [ctx.db.meta],
  })
  report.tookMs = performance.now() - started
  return report
}

function emptyReport(resumed: boolean): ReviewReport {
  return {
    scanned: 0,
    archived: [],
    removed: [],
    flagged: [],
    merged: [],
    related: [],
    promoted: [],
    resumed,
    tookMs: 0,
  }
}

/** What one review has dealt with already (pairs it looked at, pages it curated), and the pages. */
interface Seen {
  pairs: Set<string>
  pages: Set<string>
  /** Each page's chunk ids as the catalogue held them when the review began. */
  chunks: Map<string, string[]>
}

function chunkIds(ctx: EngineContext): Map<string, string[]> {
  const pages = new Map<string, string[]>()
  for (const m of ctx.indexes.catalogue.values()) {
    if (m.pageId === undefined) continue
    const ids = pages.get(m.pageId)
    if (ids) ids.push(m.id)
    else pages.set(m.pageId, [m.id])
  }
  return pages
}

/** A step's plan, with how many of its memories the catalogue held. */
type StepPlan = ChunkPlan & { scanned: number }

/**
 * One step as a write unit of work: the plan under the lock (the rules, the candidates, the
 * judge), the chunk's transaction; once it committed, the report and the cursor move on.
 */
async function reviewChunk(
  ctx: EngineContext,
  chunk: string[],
  run: ReviewProgress,
  checked: CheckedReview,
  seen: Seen,
  report: ReviewReport,
): Promise<void> {
  const step: WriteAttempt<StepPlan, { plan: StepPlan; outcome: ChunkOutcome }> = {
    prepare: () => planChunk(ctx, chunk, run, checked, seen, report),
    commit: async (plan) => {
      const written = await commitChunk(ctx, plan, run)
      return { ...written, result: { plan, outcome: written.result } }
    },
    tables: [ctx.db.meta],
  }
  const { plan, outcome } = await runWrite(ctx, step)
  run.cursor = chunk[chunk.length - 1]!
  reportChunk(plan, outcome, report)
  report.scanned += plan.scanned
}

async function planChunk(
  ctx: EngineContext,
  chunk: string[],
  run: ReviewProgress,
  checked: CheckedReview,
  seen: Seen,
  report: ReviewReport,
): Promise<StepPlan> {
  const now = ctx.clock()
  const { catalogue } = ctx.indexes
  const rows = chunk.map((id) => catalogue.get(id)).filter((m): m is Memory => m !== undefined)
  const memories = rows.filter((m) => m.pageId === undefined)
  const actions = new Map(memories.map((m) => [m.id, reviewAction(m, now, ctx.lifecycle)]))
  const pages = pageActions(ctx, rows, seen, now, actions)
  // Only memories merge: a chunk is a slice of its page, and a page repeats itself at will.
  const live = memories.filter((m) => !actions.get(m.id)!.remove && !actions.get(m.id)!.archive)
  const cases = await candidateCases(ctx, live, run.since, checked.judge !== undefined, seen.pairs)
  const verdicts = await judged(cases, checked, report)
  const { merges, edges } = decide(cases, verdicts)
  return { chunk, actions, pages, merges, edges, now, scanned: rows.length }
}

/**
 * The actions for the pages the step's chunks belong to, each page once per review and whole
 * (`pageReviewActions`): all of its chunks, also those in other steps, are read from the
 * catalogue, and their actions added to `actions`.
 */
function pageActions(
  ctx: EngineContext,
  rows: readonly Memory[],
  seen: Seen,
  now: number,
  actions: Map<string, ReviewAction>,
): PlannedPage[] {
  const pages: PlannedPage[] = []
  for (const row of rows) {
    if (row.pageId === undefined || seen.pages.has(row.pageId)) continue
    seen.pages.add(row.pageId)
    const { catalogue } = ctx.indexes
    const chunks = (seen.chunks.get(row.pageId) ?? [row.id])
      .map((id) => catalogue.get(id))
      .filter((m): m is Memory => m !== undefined)
    for (const [id, action] of pageReviewActions(chunks, now, ctx.lifecycle))
      actions.set(id, action)
    pages.push({ pageId: row.pageId, ids: chunks.map((c) => c.id) })
  }
  return pages
}
