import type { LifecycleOptions } from '../../core/options.ts'
import type { ChunkRow } from '../../core/page/chunk-row.ts'
import { chunkPage, type PageChunk, pageHash, planChunkUpdate } from '../../core/page/index.ts'
import type { PageChunkInfo } from '../../core/types.ts'
import { toMemory } from '../write/index.ts'
import { screen, screenedText } from '../write/prepare.ts'
import type { PageMatch } from './find-page.ts'
import type { CheckedPage } from './page-input.ts'
import { chunkKey, PAGE_TYPE } from './page-rows.ts'

/** One row a page write stores, and whether it needs a new vector. */
export interface PlannedRow {
  row: ChunkRow
  embed: boolean
}

/** What a page write will do, worked out before anything is embedded or written. */
export interface PagePlan {
  pageId: string
  status: 'created' | 'updated'
  /** Every chunk of the page as it will be stored, in order. */
  rows: PlannedRow[]
  /** Ids of stored chunks the new page no longer has. */
  removed: string[]
  /** Ids of the stored chunks the plan was made against, to check in the transaction. */
  expected: string[]
}

/** What planning needs from the engine. */
export interface PlanContext {
  newId: () => string
  now: number
  lifecycle: LifecycleOptions
}

/**
 * The page's chunks as rows: a new page's all fresh; a changed page's paired with its stored
 * chunks (`planChunkUpdate`), a kept chunk keeping its id and vector (unless the title changed:
 * every chunk's embedding text names it), an added one fresh, the rest removed. Every chunk is
 * screened with the page's title, tags and source.
 *
 * @throws RejectedMemoryError when a chunk matches the poison screen under `poison: 'reject'`.
 */
export function planPage(
  p: CheckedPage,
  match: Exclude<PageMatch, { kind: 'same' }>,
  ctx: PlanContext,
): PagePlan {
  const chunks = chunkPage(p.page)
  const hash = pageHash(p.page)
  const flags = chunks.map((c, i) => chunkFlags(p, c, i))
  const pageId = match.pageId ?? ctx.newId()
  const info = (c: PageChunk): PageChunkInfo => ({
    title: p.title,
    headingPath: c.headingPath,
    start: c.start,
    end: c.end,
    overlap: c.overlap,
    hash,
  })
  const fresh = (c: PageChunk, createdAt: number): PlannedRow => {
    const id = ctx.newId()
    const memory = toMemory(
      id,
      prepared(p, c, chunkKey(pageId, id), flags[c.index]!),
      ctx.now,
      ctx.lifecycle,
    )
    memory.createdAt = createdAt
    return { row: withTime({ ...memory, pageId, chunk: c.index, page: info(c) }, p), embed: true }
  }
  if (match.kind === 'new') {
    return {
      pageId,
      status: 'created',
      rows: chunks.map((c) => fresh(c, ctx.now)),
      removed: [],
      expected: [],
    }
  }
  const stored = match.rows
  const byId = new Map(stored.map((r) => [r.id, r]))
  const createdAt = Math.min(...stored.map((r) => r.createdAt))
  const retitled = stored[0]!.page.title !== p.title
  const plan = planChunkUpdate(
    stored.map((r) => ({ id: r.id, text: r.text, headingPath: r.page.headingPath })),
    chunks,
  )
  const rows: PlannedRow[] = new Array(chunks.length)
  for (const { index, id } of plan.kept) {
    const c = chunks[index]!
    const old = byId.get(id)!
    rows[index] = {
      row: withTime(
        {
          ...old,
          text: c.text,
          tags: p.tags,
          source: p.source,
          trust: p.trust,
          flags: flags[index]!,
          updatedAt: ctx.now,
          chunk: index,
          page: info(c),
        },
        p,
      ),
      embed: retitled,
    }
  }
  for (const index of plan.added) rows[index] = fresh(chunks[index]!, createdAt)
  return {
    pageId,
    status: 'updated',
    rows,
    removed: plan.removed,
    expected: stored.map((r) => r.id),
  }
}

/** The row with the page's time (`happenedAt`, `happenedUntil`) and no other. */
function withTime(row: ChunkRow, p: CheckedPage): ChunkRow {
  const { happenedAt: _at, happenedUntil: _until, ...rest } = row
  const timed: ChunkRow = rest
  if (p.happenedAt !== undefined) timed.happenedAt = p.happenedAt
  if (p.happenedUntil !== undefined) timed.happenedUntil = p.happenedUntil
  return timed
}

function prepared(p: CheckedPage, c: PageChunk, key: string, flags: string[]) {
  return {
    text: c.text,
    key,
    namespace: p.namespace,
    type: PAGE_TYPE,
    tags: p.tags,
    aliases: [],
    source: p.source,
    trust: p.trust,
    flags,
  }
}

/** The poison screen over what recall hands a reader with the chunk: its text and the title. */
function chunkFlags(p: CheckedPage, c: PageChunk, i: number): string[] {
  const text = screenedText({
    text: c.text,
    aliases: [p.title],
    tags: p.tags,
    source: p.source,
    type: PAGE_TYPE,
  })
  return screen(text, p.poison, `chunks[${i}]`)
}
