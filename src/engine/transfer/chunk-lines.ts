import { ImportFormatError, InvalidInputError } from '../../core/errors.ts'
import { DEFAULT_LIMITS } from '../../core/options.ts'
import { DEFAULT_PAGE_CHUNKING, pageHash, reassemblePage } from '../../core/page/index.ts'
import { utf8Length } from '../../core/text.ts'
import type { PageChunkInfo, PoisonPolicy } from '../../core/types.ts'
import {
  checkCharacters,
  expectArray,
  expectOptions,
  expectString,
  integerIn,
  validateId,
  validateName,
} from '../../core/validate.ts'
import { PAGE_TYPE } from '../pages/page-rows.ts'
import { type PreparedWrite, screen } from '../write/prepare.ts'

/** A chunk line, checked: its write (text verbatim, type `'page'`, `restored.page` set). */
export interface ImportedChunk {
  line: number
  write: PreparedWrite & { restored: { pageId: string; chunk: number; page: PageChunkInfo } }
}

/** The chunk lines of one page, checked together: they reassemble to the page they name. */
export interface ImportedPage {
  pageId: string
  namespace: string
  /** The page reassembled from its chunks. */
  text: string
  /** In order: `chunks[i]` is chunk `i`. */
  chunks: ImportedChunk[]
}

/** What a chunk is, whatever the caller's `defaults` or the line say: a page has no aliases. */
export const CHUNK_OPTIONS = { type: PAGE_TYPE, aliases: [] as string[] }

/** Whether a line is a chunk of a page: it says where it sits. */
export function isChunkLine(record: Record<string, unknown>): boolean {
  return record.page !== undefined || record.pageId !== undefined || record.chunk !== undefined
}

/** A chunk's longest text, trailing blank lines included: the ceiling of `maxBytes` chunking. */
const MAX_CHUNK_BYTES = DEFAULT_LIMITS.maxTextBytes
/** Headings a chunk may sit under (Markdown has 6 levels; a page may nest quotes and lists). */
const MAX_HEADINGS = 16
const PAGE_FIELDS: Record<keyof PageChunkInfo, true> = {
  title: true,
  headingPath: true,
  start: true,
  end: true,
  overlap: true,
  hash: true,
}
const PAGE_FIELD_NAMES = Object.keys(PAGE_FIELDS)

/**
 * Turns a line's prepared write into a chunk's: the text as the line holds it (a chunk is
 * stored verbatim, trailing blank lines included, so the page reassembles exactly), `pageId`,
 * `chunk` and `page` checked and restored, the title and headings screened with the text.
 *
 * @throws InvalidInputError naming the field (`page.start`); RejectedMemoryError.
 */
export function asChunk(
  prepared: PreparedWrite,
  record: Record<string, unknown>,
  poison: PoisonPolicy,
): ImportedChunk['write'] {
  const page = checkPageInfo(record.page)
  const pageId = validateId(record.pageId, 'pageId')
  const chunk = integerIn(record.chunk, 'chunk', 0, Number.MAX_SAFE_INTEGER)
  const text = checkCharacters(expectString(record.text, 'text'), 'text')
  if (utf8Length(text) > MAX_CHUNK_BYTES) {
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      'text',
      `expected a chunk of at most ${MAX_CHUNK_BYTES} bytes of UTF-8, got more`,
    )
  }
  if (page.end - page.start !== text.length || page.overlap > text.length) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'page.end',
      `expected page.end - page.start = ${text.length} (the text's length) and page.overlap at most that, got ${page.end - page.start} and ${page.overlap}`,
    )
  }
  const placed = screen([page.title, ...page.headingPath].join('\n'), poison, 'page')
  const flags = [...new Set([...prepared.flags, ...placed])]
  const restored = { ...prepared.restored, pageId, chunk, page }
  return { ...prepared, text, flags, restored }
}

function checkPageInfo(value: unknown): PageChunkInfo {
  const o = expectOptions(value, 'page', PAGE_FIELD_NAMES, 'page.', true)
  const start = integerIn(o.start, 'page.start', 0, DEFAULT_PAGE_CHUNKING.maxPageBytes)
  const end = integerIn(o.end, 'page.end', start, DEFAULT_PAGE_CHUNKING.maxPageBytes)
  const headings = expectArray(o.headingPath, 'page.headingPath', 'an array of headings')
  if (headings.length > MAX_HEADINGS) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'page.headingPath',
      `expected at most ${MAX_HEADINGS} headings, got ${headings.length}`,
    )
  }
  const hash = expectString(o.hash, 'page.hash')
  if (!/^[0-9a-f]{16}$/.test(hash)) {
    throw new InvalidInputError('BAD_OPTION', 'page.hash', 'expected 16 hex digits (pageHash)')
  }
  return {
    title: validateName(o.title, 'page.title'),
    headingPath: headings.map((h, i) => checkHeading(h, `page.headingPath[${i}]`)),
    start,
    end,
    overlap: integerIn(o.overlap, 'page.overlap', 0, end - start),
    hash,
  }
}

function checkHeading(value: unknown, field: string): string {
  const heading = checkCharacters(expectString(value, field), field)
  if (heading.length > MAX_CHUNK_BYTES) {
    throw new InvalidInputError('TEXT_TOO_LONG', field, `expected a heading, got a long text`)
  }
  return heading
}

/**
 * The chunk lines grouped by page and checked as pages: each page's chunks numbered 0..n-1 once
 * each, every one naming the same title, hash and namespace, their offsets tiling the page, and
 * the reassembled page matching the hash. A file missing one chunk of a page, or holding an
 * edited one, is refused: an import stores whole pages or none.
 *
 * @throws ImportFormatError naming the first line at fault.
 */
export function gatherPages(chunks: readonly ImportedChunk[]): ImportedPage[] {
  const byPage = new Map<string, ImportedChunk[]>()
  for (const c of chunks) {
    const held = byPage.get(c.write.restored.pageId)
    if (held) held.push(c)
    else byPage.set(c.write.restored.pageId, [c])
  }
  return [...byPage].map(([pageId, list]) => {
    list.sort((a, b) => a.write.restored.chunk - b.write.restored.chunk || a.line - b.line)
    const text = checkPage(pageId, list)
    return { pageId, namespace: list[0]!.write.namespace, text, chunks: list }
  })
}

/** The page's text, once its chunks are found to make it up. */
function checkPage(pageId: string, chunks: readonly ImportedChunk[]): string {
  const first = chunks[0]!.write
  let end = 0
  let before = ''
  chunks.forEach(({ line, write }, i) => {
    const { chunk, page } = write.restored
    const fault = (what: string) => new ImportFormatError(line, `page ${pageId}: ${what}`)
    if (chunk !== i) throw fault(`expected chunk ${i}, got chunk ${chunk} (missing or repeated)`)
    if (page.title !== first.restored.page.title || page.hash !== first.restored.page.hash) {
      throw fault(`chunk ${i} names another title or hash than chunk 0`)
    }
    if (write.namespace !== first.namespace) throw fault(`chunk ${i} is in another namespace`)
    if (page.start !== end - page.overlap || (i === 0 && page.overlap !== 0)) {
      throw fault(`chunk ${i} starts at ${page.start}, expected ${end - page.overlap}`)
    }
    // The overlap repeats the end of the chunk before: reassembly skips it, so compare it here.
    if (write.text.slice(0, page.overlap) !== before.slice(before.length - page.overlap)) {
      throw fault(`chunk ${i} does not start with the end of chunk ${i - 1}`)
    }
    end = page.end
    before = write.text
  })
  const text = reassemblePage(
    chunks.map(({ write }) => ({
      index: write.restored.chunk,
      text: write.text,
      overlap: write.restored.page.overlap,
    })),
  )
  if (pageHash(text) !== first.restored.page.hash) {
    throw new ImportFormatError(
      chunks[0]!.line,
      `page ${pageId}: its chunks do not reassemble to the page they name (page.hash differs)`,
    )
  }
  return text
}
