import { chunkPage, DEFAULT_PAGE_CHUNKING, pageHash, validatePage } from '../core/page/index.ts'
import { normalizeText } from '../core/text.ts'
import type { TrustLevel } from '../core/types.ts'

/** A page the importer is about to store: one conversation or one note. */
export interface PageDraft {
  /** Stable across imports of the same source entry (see `stablePageId`). */
  pageId: string
  title: string
  text: string
  source: string
  tags: string[]
  /** Left out: the import's cap (`'unverified'`) applies. */
  trust?: TrustLevel
  /** The source's own dates, epoch milliseconds; stored as the chunks' `createdAt`/`updatedAt`. */
  createdAt?: number
  updatedAt?: number
  /**
   * When what the page tells of happened, epoch ms (a conversation's first message; a note's
   * `happened` or `date`), and where that was a span, its end (the conversation's last update).
   * Stored as every chunk's `happenedAt`/`happenedUntil`, which the time filters read.
   */
  happenedAt?: number
  happenedUntil?: number
  meta: Record<string, unknown>
}

/** A draft as the JSONL `transfer.import` reads: the normalised page, one line per chunk. */
export interface PageLines {
  title: string
  /** The page as it will be stored (normalised): what a stored page is compared with. */
  text: string
  jsonl: string
  chunks: number
}

/** Longest page title (`pages.remember`'s). */
const MAX_TITLE = 256

/**
 * Chunks the page as `pages.remember` would and writes each chunk as an export's chunk line
 * (`pageId`, `chunk`, `page: { title, headingPath, start, end, overlap, hash }`) carrying the
 * source's dates, tags, trust and meta. Going through `transfer.import` rather than
 * `pages.remember` is what lets a page keep the dates of its source: a page write has no
 * `createdAt` or `meta` (and the contract is not to grow for this).
 *
 * @throws InvalidInputError from `validatePage` (`TEXT_TOO_LONG`, a control character…).
 */
export function pageLines(draft: PageDraft): PageLines {
  const text = validatePage(draft.text, 'text', DEFAULT_PAGE_CHUNKING.maxPageBytes)
  const title = cleanTitle(draft.title)
  const hash = pageHash(text)
  const common: Record<string, unknown> = {
    source: draft.source,
    tags: draft.tags,
    meta: draft.meta,
  }
  if (draft.trust !== undefined) common.trust = draft.trust
  if (draft.createdAt !== undefined) common.createdAt = draft.createdAt
  if (draft.updatedAt !== undefined)
    common.updatedAt = Math.max(draft.updatedAt, draft.createdAt ?? 0)
  if (draft.happenedAt !== undefined) {
    common.happenedAt = draft.happenedAt
    // An end before the start is a source's slip, not a span: the instant alone is kept.
    if (draft.happenedUntil !== undefined && draft.happenedUntil > draft.happenedAt)
      common.happenedUntil = draft.happenedUntil
  }
  const chunks = chunkPage(text)
  const jsonl = chunks
    .map((c) =>
      JSON.stringify({
        text: c.text,
        pageId: draft.pageId,
        chunk: c.index,
        page: {
          title,
          headingPath: c.headingPath,
          start: c.start,
          end: c.end,
          overlap: c.overlap,
          hash,
        },
        ...common,
      }),
    )
    .join('\n')
  return { title, text, jsonl, chunks: chunks.length }
}

/** The title as a page stores it, never empty and at most 256 characters. */
export function cleanTitle(title: string): string {
  // Stripped of what a name may not hold, so an odd title never costs the page.
  const plain = normalizeText(title.replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu, ' ')).replace(
    /\s+/g,
    ' ',
  )
  const cut = [...plain].slice(0, MAX_TITLE).join('').trim()
  return cut === '' ? 'Untitled' : cut
}

/**
 * The page id an entry of a source always gets in a namespace: `chatgpt-` and 16 hex digits
 * of the namespace and the export's own id. The same conversation imported again names the
 * same page, which is what makes a re-import add nothing and a newer export replace it.
 */
export function stablePageId(origin: string, namespace: string, sourceId: string): string {
  return `${origin}-${pageHash(`${namespace}\u0000${sourceId}`)}`
}
