import { confidenceValue } from '../../core/lifecycle.ts'
import {
  CAPPED_TRUST,
  DEFAULT_JUDGE_TIMEOUT_MS,
  type LifecycleOptions,
  NEAR_DUPLICATE_RESCORE,
  REVIEW_CHUNK,
} from '../../core/options.ts'
import type {
  JudgeCase,
  JudgeHook,
  JudgeVerdict,
  Memory,
  Relation,
  ReviewReport,
} from '../../core/types.ts'
import { expectFunction, expectOptions, integerIn } from '../../core/validate.ts'
import { trustRank } from '../../core/vocabulary.ts'
import type { ChangeRow } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { connected, locked } from '../opening.ts'
import { dropEdges, edgesOf, putEdge } from '../relations.ts'
import { pageReviewActions, type ReviewAction, reviewAction } from './rules.ts'

/** Where an interrupted review stopped, kept in `meta` so the next one carries on. */
interface ReviewProgress {
  startedAt: number
  /** Merge candidates are memories created at or after this (the last full review's start). */
  since: number
  /** The last id of the last chunk committed. */
  cursor: string
}

/** The last review that ran to the end. */
export interface ReviewDone {
  startedAt: number
  completedAt: number
}

const PROGRESS_KEY = 'review:progress'
const DONE_KEY = 'review:done'

interface CheckedReview {
  judge?: JudgeHook
  judgeTimeoutMs: number
}

/** Checks `review()` options. @throws InvalidInputError `BAD_OPTION`. */
export function checkReviewOptions(options: unknown): CheckedReview {
  const o = expectOptions(options, 'options', ['judge', 'judgeTimeoutMs'], '')
  const checked: CheckedReview = {
    judgeTimeoutMs:
      o.judgeTimeoutMs === undefined
        ? DEFAULT_JUDGE_TIMEOUT_MS
        : integerIn(o.judgeTimeoutMs, 'judgeTimeoutMs', 1, 600_000),
  }
  if (o.judge !== undefined)
    checked.judge = expectFunction<JudgeHook>(o.judge, 'judge', 'a function (cases) => verdicts')
  return checked
}

/** When the last complete review started and ended; undefined if none has. */
export async function lastReview(ctx: EngineContext): Promise<ReviewDone | undefined> {
  return (await ctx.db.meta.get(DONE_KEY))?.value as ReviewDone | undefined
}

/**
 * The review pass as a pipeline over chunks of memories in id order, each chunk one step under
 * the write lock (writes interleave between steps): the rules per memory → merge and conflict
 * candidates among the chunk's new memories → the judge, if any → one transaction with the
 * progress mark → the indexes. A review cut short leaves its mark; the next one resumes there.
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
  await ctx.queue.run(() => locked(ctx, async () => {}))
  const ids = [...ctx.indexes.catalogue.keys()].filter((id) => id > run.cursor).sort()
  const seen: Seen = { pairs: new Set(), pages: new Set(), chunks: chunkIds(ctx) }
  for (let start = 0; start < ids.length; start += REVIEW_CHUNK) {
    const chunk = ids.slice(start, start + REVIEW_CHUNK)
    await ctx.queue.run(() =>
      locked(ctx, () => reviewChunk(ctx, chunk, run, checked, seen, report)),
    )
  }
  const done: ReviewDone = { startedAt: run.startedAt, completedAt: ctx.clock() }
  await ctx.mapped(
    ctx.db.transaction('rw', ctx.db.meta, async () => {
      await ctx.db.meta.delete(PROGRESS_KEY)
      await ctx.db.meta.put({ key: DONE_KEY, value: done })
    }),
  )
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

/** A page curated in a step: its chunk ids, as the catalogue held them when it was planned. */
interface PlannedPage {
  pageId: string
  ids: string[]
}

/** A decided merge: `from` folds into `into`. */
interface Merge {
  into: string
  from: string
  similarity: number
}

async function reviewChunk(
  ctx: EngineContext,
  chunk: string[],
  run: ReviewProgress,
  checked: CheckedReview,
  seen: Seen,
  report: ReviewReport,
): Promise<void> {
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
  await commitChunk(ctx, chunk, actions, pages, merges, edges, run, now, report)
  report.scanned += rows.length
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

/**
 * Pairs worth a look among `live` memories created since `since`: each one's nearest stored
 * neighbours of the same namespace and type, as `duplicate` at `nearDuplicate` or more, and (only
 * for a judge) as `related` from `relatedFloor`. Each pair once per review.
 */
async function candidateCases(
  ctx: EngineContext,
  live: Memory[],
  since: number,
  withRelated: boolean,
  pairs: Set<string>,
): Promise<JudgeCase[]> {
  const index = ctx.indexes.vectors
  const model = ctx.embedder?.model
  if (!index || index.size === 0 || !model) return []
  const fresh = live.filter((m) => m.createdAt >= since && index.has(m.id))
  if (fresh.length === 0) return []
  const vectors = await ctx.mapped(ctx.db.vectors.bulkGet(fresh.map((m) => m.id)))
  const { nearDuplicate, relatedFloor } = ctx.retrieval
  const floor = withRelated ? relatedFloor : nearDuplicate
  const cases: JudgeCase[] = []
  fresh.forEach((m, i) => {
    const row = vectors[i]
    if (!row || row.model !== model) return
    const group = ctx.indexes.groupOf(m.namespace, m.type)
    const hits = index.search(row.vector, 4, { groups: [group], rescore: NEAR_DUPLICATE_RESCORE })
    for (const hit of hits) {
      if (hit.id === m.id || hit.score < floor) continue
      const other = ctx.indexes.catalogue.get(hit.id)
      if (!other || other.pageId !== undefined) continue
      const [older, newer] = other.id < m.id ? [other, m] : [m, other]
      const key = `${older.id}\u0000${newer.id}`
      if (pairs.has(key)) continue
      pairs.add(key)
      const kind = hit.score >= nearDuplicate ? 'duplicate' : 'related'
      cases.push({ kind, older, newer, similarity: hit.score })
    }
  })
  return cases
}

const TIMED_OUT = Symbol('timeout')

/** The judge's verdicts, or none when there is no judge, it failed or ran out of time. */
async function judged(
  cases: JudgeCase[],
  checked: CheckedReview,
  report: ReviewReport,
): Promise<(JudgeVerdict | undefined)[]> {
  if (!checked.judge) return []
  report.judge ??= 'applied'
  if (cases.length === 0) return []
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const reply = await Promise.race([
      Promise.resolve(checked.judge(cases)),
      new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), checked.judgeTimeoutMs)
      }),
    ])
    if (reply === TIMED_OUT) {
      report.judge = 'timeout'
      return []
    }
    if (!Array.isArray(reply)) throw new TypeError('expected an array of verdicts')
    const known = new Set<unknown>(['merge', 'supersedes', 'contradicts', 'keep'])
    return reply.map((v) => (known.has(v) ? (v as JudgeVerdict) : undefined))
  } catch {
    report.judge = 'failed'
    return []
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The merges and edges the cases come to: a duplicate merges unless the judge says otherwise, a
 * related pair only does what the judge says. A memory folds into one other at most, and a
 * memory being folded away absorbs nothing.
 */
function decide(
  cases: JudgeCase[],
  verdicts: (JudgeVerdict | undefined)[],
): { merges: Merge[]; edges: Omit<Relation, 'createdAt'>[] } {
  const merges: Merge[] = []
  const edges: Omit<Relation, 'createdAt'>[] = []
  const absorbed = new Set<string>()
  const absorbing = new Set<string>()
  cases.forEach((c, i) => {
    const verdict = verdicts[i] ?? (c.kind === 'duplicate' ? 'merge' : 'keep')
    if (verdict === 'merge') {
      const { older, newer } = c
      if (absorbed.has(newer.id) || absorbed.has(older.id) || absorbing.has(newer.id)) return
      absorbed.add(newer.id)
      absorbing.add(older.id)
      merges.push({ into: older.id, from: newer.id, similarity: c.similarity })
    } else if (verdict === 'supersedes' || verdict === 'contradicts') {
      edges.push({ from: c.newer.id, to: c.older.id, kind: verdict })
    }
  })
  return { merges, edges: edges.filter((e) => !absorbed.has(e.from) && !absorbed.has(e.to)) }
}

/**
 * One transaction for a chunk: every action against the rows as they are now (a row another
 * tab removed is skipped, and so is a page whose chunks another writer changed meanwhile: a
 * page is curated whole or not at all), the merges (the newer memory's counts folded into the older, its
 * edges moved over), the judge's edges, change entries and the progress mark. The indexes are
 * changed after the commit.
 */
async function commitChunk(
  ctx: EngineContext,
  chunk: string[],
  actions: Map<string, ReviewAction>,
  pages: readonly PlannedPage[],
  merges: Merge[],
  edges: Omit<Relation, 'createdAt'>[],
  run: ReviewProgress,
  now: number,
  report: ReviewReport,
): Promise<void> {
  const { db } = ctx
  const puts = new Map<string, Memory>()
  const deletes: string[] = []
  const made: Relation[] = []
  const seqs = await ctx.mapped(
    db.transaction('rw', [db.memories, db.vectors, db.changes, db.relations, db.meta], async () => {
      const changed = await changedPages(ctx, pages)
      const ids = [...actions.keys()]
      const rows = await db.memories.bulkGet(ids)
      for (const [i, row] of rows.entries()) {
        const action = actions.get(ids[i]!)!
        if (!row || changed.has(row.id)) continue
        if (action.remove) {
          deletes.push(row.id)
          continue
        }
        const next = { ...row }
        if (action.archive) next.archivedAt = now
        if (action.flag) next.needsReview = true
        if (action.promote) next.tier = action.promote
        if (action.archive || action.flag || action.promote) puts.set(row.id, next)
      }
      for (const m of merges) {
        const [into, from] = await db.memories.bulkGet([m.into, m.from])
        if (!into || !from || deletes.includes(into.id)) continue
        puts.set(into.id, folded(puts.get(into.id) ?? into, from, ctx.lifecycle))
        puts.delete(from.id)
        deletes.push(from.id)
        await moveEdges(ctx, from.id, into.id, now)
        report.merged.push(m)
      }
      for (const e of edges) made.push(await putEdge(db, e, now))
      await db.memories.bulkPut([...puts.values()])
      await db.memories.bulkDelete(deletes)
      await db.vectors.bulkDelete(deletes)
      await dropEdges(db, deletes)
      const changes: ChangeRow[] = [
        ...[...puts.keys()].map((id) => ({ op: 'put' as const, id, at: now })),
        ...deletes.map((id) => ({ op: 'delete' as const, id, at: now })),
      ]
      const added = changes.length > 0 ? await db.changes.bulkAdd(changes, { allKeys: true }) : []
      await db.meta.put({ key: PROGRESS_KEY, value: { ...run, cursor: chunk[chunk.length - 1]! } })
      return added as number[]
    }),
  )
  run.cursor = chunk[chunk.length - 1]!
  for (const id of deletes) ctx.indexes.remove(id)
  for (const m of puts.values()) ctx.indexes.refresh(m)
  ctx.upkeep.recordWrites(seqs)
  const merged = new Set(report.merged.map((m) => m.from))
  for (const [id, action] of actions) {
    if (action.remove && deletes.includes(id) && !merged.has(id)) report.removed.push(id)
    if (!puts.has(id)) continue
    if (action.archive) report.archived.push(id)
    if (action.flag) report.flagged.push(id)
    if (action.promote) report.promoted.push({ id, tier: action.promote })
  }
  report.related.push(...made)
}

/** Ids of the chunks of every planned page whose chunks in the table are no longer the planned ones. */
async function changedPages(
  ctx: EngineContext,
  pages: readonly PlannedPage[],
): Promise<Set<string>> {
  const changed = new Set<string>()
  for (const { pageId, ids } of pages) {
    const held = await ctx.db.memories.where('pageId').equals(pageId).primaryKeys()
    const planned = new Set(ids)
    if (held.length !== ids.length || held.some((id) => !planned.has(id as string)))
      for (const id of ids) changed.add(id)
  }
  return changed
}

/**
 * `into` with what `from` said folded in: its confirmations, recalls and last uses. A memory
 * derived from others carries the lowest trust of its inputs, and an untrusted one is held to
 * the confidence an untrusted write starts from at most.
 */
function folded(into: Memory, from: Memory, lifecycle: LifecycleOptions): Memory {
  const trust = trustRank(from.trust) > trustRank(into.trust) ? from.trust : into.trust
  const next: Memory = {
    ...into,
    trust,
    confirmations: into.confirmations + from.confirmations,
    recallCount: into.recallCount + from.recallCount,
    confirmedAt: Math.max(into.confirmedAt, from.confirmedAt),
  }
  if (CAPPED_TRUST.includes(trust))
    next.confidence = Math.min(confidenceValue(into.confidence), lifecycle.untrustedCeiling)
  const last = Math.max(into.lastRecalledAt ?? 0, from.lastRecalledAt ?? 0)
  if (last > 0) next.lastRecalledAt = last
  return next
}

/** Re-points `from`'s edges at `into` (an edge that would join `into` to itself is dropped). */
async function moveEdges(ctx: EngineContext, from: string, into: string, now: number) {
  for (const e of await edgesOf(ctx.db, [from])) {
    const moved = { from: e.from === from ? into : e.from, to: e.to === from ? into : e.to }
    if (moved.from !== moved.to) await putEdge(ctx.db, { ...moved, kind: e.kind }, now)
  }
}
