import type { MemoryApi } from '../core/types.ts'
import { type PageDraft, pageLines } from './page-lines.ts'

/** What became of one page. */
export interface WrittenPage {
  status: 'created' | 'updated' | 'unchanged'
  chunks: number
  flagged: number
}

/**
 * Stores one page whole through `transfer.import` (one transaction, screened, chunks flagged
 * rather than rejected). A page already stored under the id with the same title and text is
 * left alone, so an interrupted import run again skips what it finished; one stored with
 * another text (the conversation went on) is replaced: forgotten, then stored again. The two
 * steps are not one transaction: if the tab closes between them the page is missing until the
 * import runs again, which stores it.
 */
export async function writePage(
  memory: MemoryApi,
  draft: PageDraft,
  namespace: string,
): Promise<WrittenPage> {
  const lines = pageLines(draft)
  const stored = await memory.pages.get(draft.pageId)
  if (stored && stored.text === lines.text && stored.title === lines.title) {
    return { status: 'unchanged', chunks: 0, flagged: 0 }
  }
  if (stored) await memory.pages.forget(draft.pageId)
  const report = await memory.transfer.import(lines.jsonl, {
    defaults: { namespace, poison: 'flag' },
  })
  if (report.created === 0) return { status: 'unchanged', chunks: 0, flagged: 0 }
  return {
    status: stored ? 'updated' : 'created',
    chunks: report.created,
    flagged: report.flagged,
  }
}
