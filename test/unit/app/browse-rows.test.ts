import { describe, expect, it } from 'vitest'
import { browseRows, stillWanted } from '../../../src/app/browse-rows.ts'
import type { Memory, PageInfo } from '../../../src/core/types.ts'

/** The fields `browseRows` reads; the rest of a memory does not matter to it. */
const fact = (id: string): Memory => ({ id, text: `fact ${id}`, tags: [] }) as unknown as Memory
const chunk = (pageId: string, n: number): Memory =>
  ({
    id: `${pageId}#${n}`,
    text: `chunk ${n}`,
    tags: [],
    pageId,
    chunk: n,
    page: { title: `chunk title of ${pageId}` },
  }) as unknown as Memory
const info = (pageId: string, chunks: number): [string, PageInfo] => [
  pageId,
  { pageId, title: `Title of ${pageId}`, source: 'user', chunks, updatedAt: 0 },
]

describe('browseRows', () => {
  it('folds every chunk of a page into one row where its first chunk was, facts kept in order', () => {
    const items = [fact('a'), chunk('p', 0), fact('b'), chunk('p', 1), chunk('p', 2), fact('c')]
    const rows = browseRows(items, new Map([info('p', 3)]))
    expect(rows.map((row) => (row.kind === 'page' ? `page:${row.pageId}` : row.memory.id))).toEqual(
      ['a', 'page:p', 'b', 'c'],
    )
    const page = rows[1]
    expect(page).toMatchObject({ kind: 'page', title: 'Title of p', total: 3 })
    expect(page?.kind === 'page' && page.chunks.map((m) => m.id)).toEqual(['p#0', 'p#1', 'p#2'])
  })

  it('keeps two pages apart and names a page it has no info on by its chunks’ title', () => {
    const rows = browseRows([chunk('p', 0), chunk('q', 0), chunk('p', 1)])
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({
      kind: 'page',
      pageId: 'p',
      title: 'chunk title of p',
      total: 2,
    })
    expect(rows[1]).toMatchObject({ kind: 'page', pageId: 'q', total: 1 })
  })
})

describe('stillWanted', () => {
  it('asks for the rows missing while there are too few', () => {
    expect(stillWanted(browseRows([fact('a'), chunk('p', 0)], new Map([info('p', 1)])), 10)).toBe(8)
  })

  it('asks for the chunks a shown page still lacks once there are enough rows, then for nothing', () => {
    const facts = Array.from({ length: 9 }, (_, i) => fact(`f${i}`))
    const pages = new Map([info('p', 49)])
    expect(stillWanted(browseRows([...facts, chunk('p', 0)], pages), 10)).toBe(48)
    const all = Array.from({ length: 49 }, (_, i) => chunk('p', i))
    expect(stillWanted(browseRows([...facts, ...all], pages), 10)).toBe(0)
    expect(stillWanted(browseRows([...facts, fact('x')]), 10)).toBe(0)
  })
})
