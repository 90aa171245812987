import type { Memory, PageInfo } from '../index.ts'

/** One row of the Browse list: a memory, or a page standing for all its chunks. */
export type BrowseRow =
  | { kind: 'memory'; memory: Memory }
  | {
      kind: 'page'
      pageId: string
      title: string
      /** The chunks of this page among the memories listed, in list order. */
      chunks: Memory[]
      /** How many chunks the page has in all (`PageInfo.chunks`); the listed ones if unknown. */
      total: number
    }

/**
 * Folds page chunks into one row per page, placed where the page's first listed chunk was; other
 * memories stay rows of their own, in order. A chunk is a slice of its page and changes only
 * through it, so Browse shows the page, not 49 raw chunks among the facts.
 *
 * @example
 * browseRows([fact, chunk0, chunk1, other], new Map([[pageId, { title: 'Guide', chunks: 2, … }]]))
 * // => [{ kind: 'memory', memory: fact }, { kind: 'page', pageId, title: 'Guide', chunks: [chunk0, chunk1], total: 2 }, { kind: 'memory', memory: other }]
 */
export function browseRows(
  items: readonly Memory[],
  pages: ReadonlyMap<string, PageInfo> = new Map(),
): BrowseRow[] {
  const rows: BrowseRow[] = []
  const byPage = new Map<string, Extract<BrowseRow, { kind: 'page' }>>()
  for (const memory of items) {
    if (memory.pageId === undefined) {
      rows.push({ kind: 'memory', memory })
      continue
    }
    const row = byPage.get(memory.pageId)
    if (row) {
      row.chunks.push(memory)
      row.total = Math.max(row.total, row.chunks.length)
      continue
    }
    const info = pages.get(memory.pageId)
    const group = {
      kind: 'page' as const,
      pageId: memory.pageId,
      title: info?.title ?? memory.page?.title ?? memory.pageId,
      chunks: [memory],
      total: Math.max(info?.chunks ?? 1, 1),
    }
    byPage.set(memory.pageId, group)
    rows.push(group)
  }
  return rows
}

/**
 * How many more memories to list before Browse can show a page of `wanted` rows: the rows
 * missing, or, once there are enough, the chunks still missing from the pages shown (else the
 * next Browse page would show a page again). 0: done.
 *
 * @example
 * stillWanted(browseRows(tenFacts), 10) // => 0
 * stillWanted(browseRows([...nineFacts, firstOfThreeChunks], pages), 10) // => 2
 */
export function stillWanted(rows: readonly BrowseRow[], wanted: number): number {
  if (rows.length < wanted) return wanted - rows.length
  let missing = 0
  for (const row of rows) if (row.kind === 'page') missing += row.total - row.chunks.length
  return missing
}
