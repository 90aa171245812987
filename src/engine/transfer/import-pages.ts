import type { ChunkRow } from '../../core/page/chunk-row.ts'
import type { Memory, RememberResult } from '../../core/types.ts'
import { validateVector } from '../../core/validate.ts'
import type { EngineContext } from '../engine-context.ts'
import type { IndexSet } from '../index/index-set.ts'
import { commitPages, type PreparedPage, pageWritten } from '../pages/commit-page.ts'
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

/** A group of pages as planned outside the transaction: each page's plan, or its answer. */
interface PreparedPages {
  pages: ({ answer: RememberResult[] } | PreparedPage)[]
}

/**
 * Stores imported pages, each whole, as `pages.remember` stores a new one (`runWrite`): under
 * the write lock, one transaction for the whole group (every chunk of every page), then the
 * indexes. One transaction a group, not a page: a transaction's fixed cost (in a browser a
 * commit through the storage process) was paid by every short conversation of an export. A
 * page already stored with the same text (under its id, or as a twin of the same namespace,
 * or earlier in the group) is a duplicate: nothing is written. A page whose id is taken by
 * another page is stored under a fresh id, and a chunk whose id is taken under a fresh one, so
 * nothing stored is overwritten. Exported vectors of the current model are kept; the other
 * chunks are embedded (title, headings, text), else left to the backfill. The group is written
 * whole or not at all; another tab's write in between makes the whole group plan again.
 *
 * @returns each page's chunk results, in page and chunk order.
 */
export async function importPages(
  ctx: EngineContext,
  pages: readonly ImportedPage[],
  deps: PageImportDeps,
): Promise<RememberResult[][]> {
  return runWrite<PreparedPages, RememberResult[][]>(ctx, {
    prepare: async () => {
      const now = ctx.clock()
      const claims = new GroupClaims()
      const prepared: PreparedPages['pages'] = []
      for (const page of pages) {
        const same = storedTwin(ctx.indexes, page)
        const answer = same ? duplicates(same.map((row) => row.id)) : claims.twin(page)
        if (answer) {
          prepared.push({ answer })
          continue
        }
        const plan = planImport(page, ctx.indexes, claims, { ...deps, now, ctx })
        claims.claim(page, plan)
        prepared.push({ plan, vectors: await vectorsFor(plan, page, ctx), now })
      }
      if (prepared.every((p) => 'answer' in p)) return answered(prepared.map((p) => p.answer))
      return { pages: prepared }
    },
    commit: async ({ pages: prepared }) => {
      const model = ctx.embedder?.model ?? null
      const stored = prepared.filter((p): p is PreparedPage => !('answer' in p))
      const seqs = await commitPages(stored, { db: ctx.db, model })
      if (seqs === STALE) return STALE
      const written = stored.map((p, i) => pageWritten(p.plan, p.vectors, seqs[i]!, []))
      return {
        result: prepared.map((p) =>
          'answer' in p ? p.answer : p.plan.rows.map(({ row }) => resultOf(row)),
        ),
        seqs: written.flatMap((w) => w.seqs ?? []),
        stored: written.flatMap((w) => w.stored ?? []),
        unembedded: written.some((w) => w.unembedded),
      }
    },
    changing: () => `${pages.length === 1 ? 'page' : 'pages'} ${pages[0]?.pageId ?? ''}`,
  })
}

function duplicates(ids: readonly string[]): RememberResult[] {
  return ids.map((id) => ({ id, status: 'duplicate' as const, match: 'exact' as const }))
}

/**
 * What the pages planned earlier in a group hold, which the indexes learn only after the
 * commit: their page ids, their chunk ids and their texts (a later twin is their duplicate).
 */
class GroupClaims {
  readonly pageIds = new Set<string>()
  readonly chunkIds = new Set<string>()
  readonly #texts = new Map<string, { text: string; ids: string[] }[]>()

  twin(page: ImportedPage): RememberResult[] | undefined {
    const held = this.#texts.get(GroupClaims.#key(page))
    const same = held?.find((t) => t.text === page.text)
    return same ? duplicates(same.ids) : undefined
  }

  claim(page: ImportedPage, plan: PagePlan): void {
    this.pageIds.add(plan.pageId)
    const ids = plan.rows.map(({ row }) => row.id)
    for (const id of ids) this.chunkIds.add(id)
    const key = GroupClaims.#key(page)
    const held = this.#texts.get(key) ?? []
    held.push({ text: page.text, ids })
    this.#texts.set(key, held)
  }

  static #key(page: ImportedPage): string {
    return `${page.namespace}\u0000${page.chunks[0]!.write.restored.page.hash}`
  }
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
  claims: GroupClaims,
  ctx: PageImportDeps & { now: number; ctx: EngineContext },
): PagePlan {
  const taken = indexes.hasPage(page.pageId) || claims.pageIds.has(page.pageId)
  const pageId = taken ? ctx.newId() : page.pageId
  const used = claims.chunkIds
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
