import { type ChunkRow, isChunk } from '../../core/page/chunk-row.ts'
import { embeddingText, reassemblePage } from '../../core/page/index.ts'
import type { Memory } from '../../core/types.ts'

/** The type every chunk of a page is stored as. */
export const PAGE_TYPE = 'page'

/**
 * The dedup key of a chunk: unique per chunk and never a text's key (those cannot hold NUL), so
 * chunks are never exact duplicates of each other, of another page's chunks or of facts, and a
 * page may repeat a paragraph.
 */
export function chunkKey(pageId: string, id: string): string {
  return `\u0000page\u0000${pageId}\u0000${id}`
}

/** What a chunk is embedded from: its page title and headings, then its text, trimmed. */
export function chunkEmbeddingText(row: Pick<Memory, 'text' | 'page'>): string {
  if (!row.page) return embeddingText({ text: row.text })
  return embeddingText({
    text: row.text,
    pageTitle: row.page.title,
    headingPath: row.page.headingPath,
  })
}

/** The page's own text back from its chunk rows (any order). */
export function reassembleRows(rows: readonly ChunkRow[]): string {
  return reassemblePage(
    rows.map((r) => ({ index: r.chunk, text: r.text, overlap: r.page.overlap })),
  )
}

/** Chunk rows grouped by page, each page's chunks in order; only `namespace`'s when given. */
export function groupPages(rows: Iterable<Memory>, namespace?: string): Map<string, ChunkRow[]> {
  const pages = new Map<string, ChunkRow[]>()
  for (const row of rows) {
    if (!isChunk(row) || (namespace !== undefined && row.namespace !== namespace)) continue
    const held = pages.get(row.pageId)
    if (held) held.push(row)
    else pages.set(row.pageId, [row])
  }
  for (const chunks of pages.values()) chunks.sort((a, b) => a.chunk - b.chunk)
  return pages
}
