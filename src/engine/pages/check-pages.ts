import type { ChunkRow } from '../../core/page/chunk-row.ts'
import { pageHash } from '../../core/page/index.ts'
import type { Memory, VerifyReport } from '../../core/types.ts'
import { groupPages, reassembleRows } from './page-rows.ts'

/**
 * The pages among `memories` that no longer make up the page they were stored as: chunks not
 * numbered 0..n-1 once each, naming another title or hash than chunk 0, offsets that do not
 * tile the page, an overlap that does not repeat the end of the chunk before, or a reassembled
 * text whose `pageHash` is not the one stored. Sorted page ids.
 *
 * @example
 * brokenPages(rowsWithChunk3Gone)
 * // => ['01J…']
 */
export function brokenPages(memories: Iterable<Memory>): string[] {
  const broken: string[] = []
  for (const [pageId, chunks] of groupPages(memories)) {
    if (!isWhole(chunks)) broken.push(pageId)
  }
  return broken.sort()
}

/** The report with `brokenPages` added when there are some: any and the memory is not ok. */
export function withBrokenPages(report: VerifyReport, memories: Iterable<Memory>): VerifyReport {
  const broken = brokenPages(memories)
  return broken.length === 0 ? report : { ...report, ok: false, brokenPages: broken }
}

function isWhole(chunks: readonly ChunkRow[]): boolean {
  const first = chunks[0]!
  let end = 0
  let before = ''
  for (const [i, { chunk, page, text }] of chunks.entries()) {
    if (chunk !== i || page.title !== first.page.title || page.hash !== first.page.hash)
      return false
    if (page.start !== end - page.overlap || (i === 0 && page.overlap !== 0)) return false
    if (page.end - page.start !== text.length) return false
    // Reassembly skips the overlap, so it is compared here.
    if (text.slice(0, page.overlap) !== before.slice(before.length - page.overlap)) return false
    end = page.end
    before = text
  }
  return pageHash(reassembleRows(chunks)) === first.page.hash
}
