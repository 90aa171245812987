import type { ChunkRow } from '../../core/page/chunk-row.ts'
import type { Memory, RememberResult } from '../../core/types.ts'
import { validateVector } from '../../core/validate.ts'
import type { EngineContext } from '../engine-context.ts'
import type { IndexSet } from '../index/index-set.ts'
import { commitPage, type PreparedPage, pageWritten } from '../pages/commit-page.ts'
import { embedChunks } from '../pages/embed-chunks.ts'
import type { PageLookup } from '../pages/find-page.ts'
import { chunkKey, reassembleRows } from '../pages/page-rows.ts'
import type { PagePlan, PlannedRow } from '../pages/plan-page.ts'
import { answered, runWrite, STALE, toMemory } from '../write/index.ts'
import type { ImportedPage } from './chunk-lines.ts'

/** What a page import needs beyond the context. */
export interface PageImportDeps {
  /** Page and chunk ids where the exported ones are taken. */
  newId: () => string
  /**
   * Called when chunks were stored without vectors.
   * @deprecated the unit of work starts the engine's backfill itself (`runWrite`); ignored
   */
  scheduleBackfill?: () => void
}

/**
 * Stores one imported page whole, as `pages.remember` stores a new one (`runWrite`): under the
 * write lock, one transaction for all its chunks, then the indexes. A page already stored with
 * the same text (under its id, or as a twin of the same namespace) is a duplicate: nothing is
 * written. A page whose id is taken by another page is stored under a fresh id, and a chunk
 * whose id is taken under a fresh one, so nothing stored is overwritten. Exported vectors of
 * the current model are kept; the other chunks are embedded (title, headings, text), else left
 * to the backfill.
 *
 * @returns each chunk's result, in chunk order.
 */
export async function importPage(
  ctx: EngineContext,
  page: ImportedPage,
  deps: PageImportDeps,
): Promise<RememberResult[]> {
  return runWrite<PreparedPage, RememberResult[]>(ctx, {
    prepare: async () => {
      const same = storedTwin(ctx.indexes, page)
      if (same) {
        return answered(
          same.map((row) => ({
            id: row.id,
            status: 'duplicate' as const,
            match: 'exact' as const,
          })),
        )
      }
      const now = ctx.clock()
      const plan = planImport(page, ctx.indexes, { ...deps, now, ctx })
      return { plan, vectors: await vectorsFor(plan, page, ctx), now }
    },
    commit: async ({ plan, vectors, now }) => {
      const model = ctx.embedder?.model ?? null
      const seqs = await commitPage(plan, vectors, { db: ctx.db, model, now })
      if (seqs === STALE) return STALE
      return pageWritten(
        plan,
        vectors,
        seqs,
        plan.rows.map(({ row }) => resultOf(row)),
      )
    },
    changing: () => `page ${page.pageId}`,
  })
}

function resultOf(row: Memory): RememberResult {
  return row.flags.length > 0
    ? { id: row.id, status: 'created', flags: row.flags }
    : { id: row.id, status: 'created' }
}

/**
 * The stored page that already holds this text in this namespace: by id first, else any twin,
 * found through the indexes' page maps (a catalogue scan per page made an import O(N²)).
 */
function storedTwin(indexes: PageLookup, page: ImportedPage): ChunkRow[] | undefined {
  const hash = page.chunks[0]!.write.restored.page.hash
  const same = (rows: ChunkRow[] | undefined) =>
    rows !== undefined && rows[0]!.page.hash === hash && reassembleRows(rows) === page.text
  const byId = indexes.pageRows(page.pageId, page.namespace)
  if (same(byId)) return byId
  for (const pageId of indexes.pagesBy(page.namespace, { hash })) {
    const rows = indexes.pageRows(pageId, page.namespace)
    if (same(rows)) return rows
  }
  return undefined
}

/**
 * The page's rows: its exported id and chunk ids where free, fresh ones where another memory
 * has them (a chunk's key names its page and its id, so it follows both).
 */
function planImport(
  page: ImportedPage,
  indexes: Pick<IndexSet, 'catalogue' | 'hasPage'>,
  ctx: PageImportDeps & { now: number; ctx: EngineContext },
): PagePlan {
  const pageId = indexes.hasPage(page.pageId) ? ctx.newId() : page.pageId
  const used = new Set<string>()
  const rows: PlannedRow[] = page.chunks.map(({ write }) => {
    const asked = write.id
    const id = asked && !indexes.catalogue.has(asked) && !used.has(asked) ? asked : ctx.newId()
    used.add(id)
    const memory = toMemory(id, { ...write, key: chunkKey(pageId, id) }, ctx.now, ctx.ctx.lifecycle)
    const { chunk, page: info } = write.restored
    return { row: { ...memory, pageId, chunk, page: info }, embed: true }
  })
  return { pageId, status: 'created', rows, removed: [], expected: [] }
}

/**
 * Each row's vector: the exported one when it fits the current model (its row then needs no
 * embedding), else embedded now from the row's embedding text when a model is ready.
 */
async function vectorsFor(
  plan: PagePlan,
  page: ImportedPage,
  ctx: EngineContext,
): Promise<Map<string, Float32Array>> {
  const dims = ctx.readyDims()
  const given = new Map<string, Float32Array>()
  plan.rows.forEach((planned, i) => {
    const vector = page.chunks[i]!.write.vector
    if (vector === undefined || dims === 0) return
    try {
      given.set(planned.row.id, validateVector(vector, dims, 'vector'))
      planned.embed = false
    } catch {
      // Embedded afresh instead, as a fact line's unusable vector is.
    }
  })
  const ready = dims > 0 && ctx.indexes.vectors !== null
  const embedded = await embedChunks(plan.rows, ctx.embedder, ready)
  for (const [id, vector] of given) embedded.set(id, vector)
  return embedded
}
