import { InvalidInputError } from '../../core/errors.ts'
import type { ChunkRow } from '../../core/page/chunk-row.ts'
import { pageHash } from '../../core/page/index.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { CheckedPage } from './page-input.ts'
import { reassembleRows } from './page-rows.ts'

/** The stored page a write is about, and whether the write would change it. */
export type PageMatch =
  | { kind: 'new'; pageId?: string }
  | { kind: 'same'; pageId: string; rows: ChunkRow[] }
  | { kind: 'changed'; pageId: string; rows: ChunkRow[] }

/** What finding a page reads: the page maps the indexes keep beside the catalogue. */
export type PageLookup = Pick<IndexSet, 'pageRows' | 'pagesBy'>

/**
 * Which stored page a write names: the one with its `pageId`; else the one of the same
 * namespace, title and source; else one holding the same text (`pageHash`, confirmed in full),
 * which the write repeats. Read from the indexes' page maps (never a catalogue scan), caught up
 * under the write lock.
 *
 * @throws InvalidInputError `BAD_OPTION` when `pageId` names a page of another namespace.
 */
export function findPage(indexes: PageLookup, p: CheckedPage): PageMatch {
  if (p.pageId !== undefined) {
    const rows = indexes.pageRows(p.pageId)
    if (!rows) return { kind: 'new', pageId: p.pageId }
    if (rows[0]!.namespace !== p.namespace) {
      throw new InvalidInputError(
        'BAD_OPTION',
        'pageId',
        `page ${p.pageId} lives in namespace ${rows[0]!.namespace}, not ${p.namespace}`,
      )
    }
    return compare(p.pageId, rows, p)
  }
  for (const pageId of indexes.pagesBy(p.namespace, { title: p.title, source: p.source })) {
    const rows = indexes.pageRows(pageId)!
    const first = rows[0]!
    const named =
      first.namespace === p.namespace && first.page.title === p.title && first.source === p.source
    if (named) return compare(pageId, rows, p)
  }
  const hash = pageHash(p.page)
  for (const pageId of indexes.pagesBy(p.namespace, { hash })) {
    const rows = indexes.pageRows(pageId)!
    const first = rows[0]!
    if (
      first.namespace === p.namespace &&
      first.page.hash === hash &&
      reassembleRows(rows) === p.page
    ) {
      return { kind: 'same', pageId, rows }
    }
  }
  return { kind: 'new' }
}

function compare(pageId: string, rows: ChunkRow[], p: CheckedPage): PageMatch {
  const first = rows[0]!
  const same =
    first.page.title === p.title &&
    first.source === p.source &&
    first.trust === p.trust &&
    sameList(first.tags, p.tags) &&
    reassembleRows(rows) === p.page
  return { kind: same ? 'same' : 'changed', pageId, rows }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
