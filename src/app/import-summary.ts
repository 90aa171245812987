/**
 * The words of the "Import from another assistant" card, from what `engram/import` reports:
 * its progress, its report, the pages one import stored, and a failure. Pure: no DOM.
 */

import type { ImportFromReport, ImportProgress, UndoImportReport } from '../import/index.ts'
import { EngramError, ImportFormatError, type Memory } from '../index.ts'
import { formatBytes } from './dom.ts'
import { describeError } from './field-errors.ts'

/** One page an import stored, from its chunks' rows. */
export interface ImportedPage {
  pageId: string
  title: string
  chunks: number
  /** Chunks the poison screen matched (stored flagged). */
  flagged: number
  /** The rule codes those chunks matched, each once. */
  rules: string[]
  /** The page holds outside text (an answer, a tool's output, a pasted document). */
  untrusted: boolean
}

/** What one import stored, read back by its tag: pages in title order, and facts. */
export interface ImportedItems {
  pages: ImportedPage[]
  facts: number
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`
}

/**
 * The rows tagged with one import, grouped by page.
 *
 * @example
 * importedItems(await memory.list({ tag: 'import:mx5b' })).pages[0]
 * // => { pageId: 'chatgpt-…', title: 'Three days in Lisbon', chunks: 3, flagged: 0, rules: [], untrusted: true }
 */
export function importedItems(rows: readonly Memory[]): ImportedItems {
  const pages = new Map<string, ImportedPage>()
  let facts = 0
  for (const row of rows) {
    if (!row.pageId) {
      facts++
      continue
    }
    let page = pages.get(row.pageId)
    if (!page) {
      page = {
        pageId: row.pageId,
        title: row.page?.title ?? row.pageId,
        chunks: 0,
        flagged: 0,
        rules: [],
        untrusted: false,
      }
      pages.set(row.pageId, page)
    }
    page.chunks++
    if (row.trust === 'untrusted') page.untrusted = true
    if (row.flags.length > 0) {
      page.flagged++
      for (const rule of row.flags) if (!page.rules.includes(rule)) page.rules.push(rule)
    }
  }
  const sorted = [...pages.values()].sort(
    (a, b) => a.title.localeCompare(b.title) || a.pageId.localeCompare(b.pageId),
  )
  return { pages: sorted, facts }
}

/**
 * How far an import has got, in words; `total` is the source's size when known.
 *
 * @example
 * progressLine({ read: 12, written: 10, bytes: 1_300_000 }, 4_200_000)
 * // => '12 read, 10 pages written, 1.2 MB of 4.0 MB'
 */
export function progressLine(progress: ImportProgress, total?: number): string {
  const bytes = total
    ? `${formatBytes(progress.bytes)} of ${formatBytes(total)}`
    : formatBytes(progress.bytes)
  return `${progress.read.toLocaleString('en')} read, ${plural(progress.written, 'page')} written, ${bytes}`
}

/**
 * What an import did, in one sentence.
 *
 * @example
 * reportLine({ detected: 'ChatGPT export (conversations.json)', read: 2, created: 2, updated: 0,
 *   unchanged: 0, chunks: 7, flagged: 1, facts: 0, relations: 0, skipped: [], … })
 * // => 'ChatGPT export (conversations.json): 2 read; 2 new, 0 changed, 0 already stored; 7 chunks, 1 flagged.'
 */
export function reportLine(report: ImportFromReport): string {
  const parts = [
    `${report.detected}: ${report.read.toLocaleString('en')} read`,
    `${report.created.toLocaleString('en')} new, ${report.updated.toLocaleString('en')} changed, ${report.unchanged.toLocaleString('en')} already stored`,
  ]
  const extra = [plural(report.chunks, 'chunk')]
  if (report.flagged > 0) extra.push(`${report.flagged.toLocaleString('en')} flagged`)
  if (report.facts > 0) extra.push(plural(report.facts, 'fact'))
  if (report.relations > 0) extra.push(plural(report.relations, 'link'))
  if (report.skipped.length > 0)
    extra.push(`${report.skipped.length.toLocaleString('en')} left out`)
  parts.push(extra.join(', '))
  return `${parts.join('; ')}.`
}

/**
 * A failed import, in words: the error's code and the entry it names, then what is stored.
 * `written` is how many pages the import had stored before it failed (kept: the undo takes
 * them out).
 *
 * @example
 * failureLine(new ImportFormatError(2, 'ChatGPT conversation 2 ("Sourdough"): no mapping'), 1)
 * // => 'IMPORT_FORMAT at entry 2: ChatGPT conversation 2 ("Sourdough"): no mapping. 1 page before it is stored; undo takes it out.'
 */
export function failureLine(failure: unknown, written: number): string {
  const stored =
    written === 0
      ? 'Nothing was stored.'
      : `${plural(written, 'page')} before it ${written === 1 ? 'is' : 'are'} stored; undo takes ${written === 1 ? 'it' : 'them'} out.`
  if (failure instanceof ImportFormatError) {
    const at = failure.line > 0 ? ` at entry ${failure.line}` : ''
    return `${failure.code}${at}: ${failure.detail}. ${stored}`
  }
  const text = describeError(failure).replace(/\.$/, '')
  return failure instanceof EngramError
    ? `${failure.code}: ${text}. ${stored}`
    : `${text}. ${stored}`
}

/**
 * What an undo removed, in words.
 *
 * @example
 * undoLine({ pages: 2, facts: 0 })
 * // => 'Undone: 2 pages removed.'
 */
export function undoLine(removed: UndoImportReport): string {
  const parts = [plural(removed.pages, 'page')]
  if (removed.facts > 0) parts.push(plural(removed.facts, 'fact'))
  return `Undone: ${parts.join(' and ')} removed.`
}
