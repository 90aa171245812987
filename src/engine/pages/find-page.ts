import { InvalidInputError } from '../../core/errors.ts'
import type { ChunkRow } from '../../core/page/chunk-row.ts'
import { pageHash } from '../../core/page/index.ts'
import type { Memory } from '../../core/types.ts'
import type { CheckedPage } from './page-input.ts'
import { groupPages, reassembleRows } from './page-rows.ts'

/** The stored page a write is about, and whether the write would change it. */
export type PageMatch =
  | { kind: 'new'; pageId?: string }
  | { kind: 'same'; pageId: string; rows: ChunkRow[] }
  | { kind: 'changed'; pageId: string; rows: ChunkRow[] }

/**
 * Which stored page a write names: the one with its `pageId`; else the one of the same
 * namespace, title and source; else one holding the same text (`pageHash`, confirmed in full),
 * which the write repeats. Read from the catalogue, caught up under the write lock.
 *
 * @throws InvalidInputError `BAD_OPTION` when `pageId` names a page of another namespace.
 */
export function findPage(catalogue: ReadonlyMap<string, Memory>, p: CheckedPage): PageMatch {
  const pages = groupPages(catalogue.values())
  if (p.pageId !== undefined) {
    const rows = pages.get(p.pageId)
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
  const hash = pageHash(p.page)
  let twin: PageMatch | undefined
  for (const [pageId, rows] of pages) {
    const first = rows[0]!
    if (first.namespace !== p.namespace) continue
    if (first.page.title === p.title && first.source === p.source) return compare(pageId, rows, p)
    if (!twin && first.page.hash === hash && reassembleRows(rows) === p.page) {
      twin = { kind: 'same', pageId, rows }
    }
  }
  return twin ?? { kind: 'new' }
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
