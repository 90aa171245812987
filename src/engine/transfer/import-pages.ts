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
import { answered, runWrite, STALE, type StoredRow, toMemory } from '../write/index.ts'
import type { ImportedChunk, ImportedPage } from './chunk-lines.ts'

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

/** One page of a group as planned: answered (stored already), or its plan and vectors. */
type GroupEntry = { same: RememberResult[] } | PreparedPage

/**
 * The file's pages in groups for {@link importPages}: whole pages, in file order, up to `size`
 * chunks a group (a longer page alone). A page whose hash another of the group has starts a
 * new group, so the twin check (against the indexes) sees the first one stored.
 */
export function groupPages(pages: readonly ImportedPage[], size: number): ImportedPage[][] {
  const groups: ImportedPage[][] = []
  let group: ImportedPage[] = []
  let chunks = 0
  let hashes = new Set<string>()
  for (const page of pages) {
    const hash = hashOf(page.chunks[0]!)
    if (group.length > 0 && (chunks + page.chunks.length > size || hashes.has(hash))) {
      groups.push(group)
      group = []
      chunks = 0
      hashes = new Set()
    }
    group.push(page)
    chunks += page.chunks.length
    hashes.add(hash)
  }
  if (group.length > 0) groups.push(group)
  return groups
}

/**
 * Stores a group of imported pages, each whole, as `pages.remember` stores a new one
 * (`runWrite`): under the write lock, one transaction for all their chunks, then the indexes.
 * One transaction a group rather than a page: a transaction's fixed cost, paid per page, was
 * most of what an import of many short conversations spent outside the screen and the rows.
 * A page already stored with the same text (under its id, or as a twin of the same namespace)
 * is a duplicate: nothing is written for it. A page whose id is taken by another page is
 * stored under a fresh id, and a chunk whose id is taken under a fresh one, so nothing stored
 * is overwritten. Exported vectors of the current model are kept; the other chunks are
 * embedded (title, headings, text), else left to the backfill.
 *
 * @returns each page's chunk results, in chunk order, pages in the group's order.
 */
export async function importPages(
  ctx: EngineContext,
  pages: readonly ImportedPage[],
  deps: PageImportDeps,
): Promise<RememberResult[][]> {
  return runWrite<{ entries: GroupEntry[]; now: number }, RememberResult[][]>(ctx, {
    prepare: async () => {
      const now = ctx.clock()
      const used = new Set<string>()
      const entries: GroupEntry[] = []
      for (const page of pages) {
        const same = storedTwin(ctx.indexes, page)
        if (same) {
          entries.push({ same: same.map((row) => duplicateOf(row.id)) })
          continue
        }
        const plan = planImport(page, ctx.indexes, { ...deps, now, ctx, used })
        entries.push({ plan, vectors: await vectorsFor(plan, page, ctx), now })
      }
      // Every page stored already: no transaction to open.
      if (entries.every((e) => 'same' in e)) return answered(entries.map((e) => e.same))
      return { entries, now }
    },
    commit: async ({ entries, now }) => {
      const model = ctx.embedder?.model ?? null
      const seqs: number[] = []
      const stored: StoredRow[] = []
      let unembedded = false
      for (const entry of entries) {
        if ('same' in entry) continue
        const written = await commitPage(entry.plan, entry.vectors, { db: ctx.db, model, now })
        if (written === STALE) return STALE
        const done = pageWritten(entry.plan, entry.vectors, written, undefined)
        seqs.push(...written)
        stored.push(...(done.stored ?? []))
        unembedded ||= done.unembedded === true
      }
      const result = entries.map((e) =>
        'same' in e ? e.same : e.plan.rows.map(({ row }) => resultOf(row)),
      )
      // New pages only: nothing of what was stored is removed.
      return { result, seqs, removed: [], stored, unembedded }
    },
    changing: () => `pages ${pages.map((p) => p.pageId).join(', ')}`,
  })
}

function hashOf(chunk: ImportedChunk): string {
  return chunk.write.restored.page.hash
}

function duplicateOf(id: string): RememberResult {
  return { id, status: 'duplicate', match: 'exact' }
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
  const hash = hashOf(page.chunks[0]!)
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
 * (or another page of the group: `used`) has them; a chunk's key names its page and its id,
 * so it follows both.
 */
function planImport(
  page: ImportedPage,
  indexes: Pick<IndexSet, 'catalogue' | 'hasPage'>,
  ctx: PageImportDeps & { now: number; ctx: EngineContext; used: Set<string> },
): PagePlan {
  const pageId = indexes.hasPage(page.pageId) ? ctx.newId() : page.pageId
  const { used } = ctx
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
