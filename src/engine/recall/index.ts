import type { LifecycleOptions, LimitOptions, RetrievalOptions } from '../../core/options.ts'
import { SMALL_STORE_FLOOR } from '../../core/recall/floor.ts'
import type {
  Degraded,
  Embedder,
  IndexFailure,
  Memory,
  RecallHit,
  Relation,
  SelectionOutcome,
} from '../../core/types.ts'
import { calibrationFor } from '../../embedder/model-table.ts'
import type { IndexSet } from '../index/index-set.ts'
import { analyzeQuery } from './analyze-query.ts'
import { fitBudget } from './budget.ts'
import { collapsePages, placePageHits } from './collapse.ts'
import { attachContext } from './context.ts'
import { explainHits } from './explain.ts'
import { explainFloor, floorCandidates } from './floor.ts'
import { fuseLists } from './fuse.ts'
import { highlightHits } from './highlight.ts'
import { buildLists } from './lists.ts'
import { OPEN_WORLD_MODELS, openWorldCosine } from './open-world.ts'
import type { CheckedRecallOptions } from './options.ts'
import { rankCandidates } from './rank.ts'
import { RECENCY_WINDOW, recencyHits } from './recency-window.ts'
import { expandRelated, hideSuperseded, noteContradictions } from './relations.ts'
import { recallScope } from './scope.ts'
import { selectHits } from './select.ts'
import type { VectorBlocker } from './vector-list.ts'
import { onlyTime, windowHits } from './window-hits.ts'

/** What recall needs from the engine. */
export interface RecallContext {
  indexes: IndexSet
  embedder?: Embedder
  /** Why the vector list cannot run right now, or null when it can. */
  vectorBlocker(): VectorBlocker
  retrieval: RetrievalOptions
  limits: LimitOptions
  lifecycle: LifecycleOptions
  /**
   * The newest `limit` memories straight from the table, newest first, for when the indexes
   * are unavailable; absent: recall always uses the indexes.
   */
  recent?: (limit: number) => Promise<Memory[]>
  /** True while the indexes cannot be trusted (a rebuild is reading the tables). */
  indexesUnavailable?: () => boolean
  /** The recorded failure while the indexes failed to restore, which recall explains by. */
  indexFailure?: () => IndexFailure | undefined
  /** Every stored edge touching any of `ids`; absent: recall ignores relations. */
  edges?: (ids: string[]) => Promise<Relation[]>
  now: number
}

/** Hits and the lists behind them, before logging. */
export interface RecallOutcome {
  hits: RecallHit[]
  /** Candidates within the top `k` that the relevance floor dropped (`RecallResult.filtered`). */
  filtered: number
  degraded?: Degraded
  /** Present when a `select` hook was given. */
  selection?: SelectionOutcome
}

/**
 * The read path (docs/architecture.md §2, Recall) as a pipeline, each stage in `recall/`: the
 * query analysed once (a query that is only a time, "what did I do last week?", is answered
 * from the window: `window-hits.ts`) →
 * keyword, vector, alias and tag lists over one scope → fusion → boosts and the final order →
 * superseded memories hidden → the relevance floor → one hit per page → hits explained,
 * contradictions named, chunks placed in their page → the optional `select` hook → `expand`
 * along relations → each hit's neighbours (`context`) → the token budget → highlights.
 */
export async function runRecall(
  ctx: RecallContext,
  query: string,
  o: CheckedRecallOptions,
): Promise<RecallOutcome> {
  const { indexes, retrieval } = ctx
  const clock = o.time ? { now: ctx.now, offsetMinutes: o.time.offsetMinutes } : undefined
  const q = analyzeQuery(query, indexes.keyword, clock)
  if (ctx.recent && ctx.indexesUnavailable?.()) {
    const rows = await ctx.recent(RECENCY_WINDOW)
    const failure = ctx.indexFailure?.()
    const hits = recencyHits(rows, q, o, { now: ctx.now, lifecycle: ctx.lifecycle, failure })
    return { hits, filtered: 0, degraded: 'recency' }
  }
  const scope = recallScope(indexes, q, o, ctx.now, ctx.lifecycle)
  if (o.time && onlyTime(q)) {
    const hits = windowHits(indexes.catalogue.values(), q, scope.accept, o.k, o.time, o.explain)
    const around = attachContext(hits, indexes, o.context, scope.accept)
    return { hits: fitBudget(around, o.tokenBudget), filtered: 0 }
  }
  const found = await buildLists(ctx, q, scope, o, retrieval.listDepth)
  const calibration = calibrationFor(ctx.embedder?.model)
  const fused = fuseLists(found.lists, found.vector, retrieval, {
    query: q,
    terms: found.terms,
    calibration,
  })
  const ranked = rankCandidates(
    fused.candidates,
    indexes.catalogue,
    o.boosts,
    ctx.now,
    ctx.lifecycle,
    o.time ? { windows: q.windows, when: q.asksWhen, ...o.time } : undefined,
  )
  const edges = ctx.edges ? await ctx.edges(ranked.map((r) => r.memory.id)) : []
  const visible = hideSuperseded(ranked, edges, o.includeSuperseded)
  // Only a small store, whose cosines have no distribution to judge by, is held against the
  // open world, with the query vector the vector list embedded; nothing is read everywhere else.
  const queryVector = found.vector?.query
  const small =
    queryVector !== undefined &&
    found.vector?.list !== undefined &&
    indexes.vectors != null &&
    indexes.vectors.size < SMALL_STORE_FLOOR.memories
  const openWorld =
    o.floor && calibration && small && ctx.embedder && OPEN_WORLD_MODELS.has(ctx.embedder.model)
      ? await openWorldCosine(ctx.embedder, queryVector)
      : undefined
  const floored = floorCandidates(visible, {
    q,
    found,
    calibration,
    policy: o.floor,
    termsOf: (memory) => indexes.keyword.termsOf(memory),
    k: o.k,
    listDepth: retrieval.listDepth,
    ...(openWorld === undefined ? {} : { openWorld }),
  })
  const collapsed = collapsePages(floored.kept, o.collapsePages)
  const shown = o.select ? Math.max(o.k, o.selectOptions.candidates) : o.k
  const explained = explainHits(collapsed.ranked.slice(0, shown), found, fused.method, o.explain)
  explainFloor(explained, floored)
  placePageHits(explained, collapsed.more)
  const selected = await selectHits(noteContradictions(explained, edges), q.raw, o)
  const outcome: RecallOutcome = { ...selected, filtered: floored.filtered }
  outcome.hits = expandRelated(outcome.hits, edges, indexes.catalogue, scope.accept, o)
  outcome.hits = attachContext(outcome.hits, indexes, o.context, scope.accept)
  outcome.hits = fitBudget(outcome.hits, o.tokenBudget)
  highlightHits(outcome.hits, q, indexes.keyword.processTerm)
  if (found.degraded) outcome.degraded = found.degraded
  return outcome
}
