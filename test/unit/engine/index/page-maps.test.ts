/**
 * The page maps `IndexSet` keeps beside the catalogue (issue 29): a page write finds the page
 * it names, or a twin, through them instead of grouping every chunk of the store, which made an
 * import of N pages O(N²). They must follow every change the catalogue sees.
 */
import { describe, expect, it } from 'vitest'
import type { Memory } from '../../../../src/core/types.ts'
import { IndexSet } from '../../../../src/engine/index/index-set.ts'
import { row } from '../fixtures.ts'

/** Chunk `chunk` of page `pageId`, with the page's title, source and hash. */
function chunkRow(
  id: string,
  pageId: string,
  chunk: number,
  page: { title?: string; hash?: string; namespace?: string; source?: string } = {},
): Memory {
  return row(id, `chunk ${chunk} of ${pageId}`, {
    type: 'page',
    pageId,
    chunk,
    namespace: page.namespace ?? 'default',
    source: page.source ?? 'notes',
    page: {
      title: page.title ?? 'Guide',
      headingPath: [],
      start: 0,
      end: 10,
      overlap: 0,
      hash: page.hash ?? 'h1',
    },
  })
}

const empty = () => IndexSet.empty({}, 0)

describe('IndexSet page maps', () => {
  it('gives a page its chunk rows in chunk order, only a namespace’s when asked', () => {
    const indexes = empty()
    indexes.put(chunkRow('c2', 'p', 2))
    indexes.put(chunkRow('c0', 'p', 0))
    indexes.put(chunkRow('c1', 'p', 1))
    indexes.put(row('fact', 'not a chunk'))
    expect(indexes.pageRows('p')?.map((r) => r.id)).toEqual(['c0', 'c1', 'c2'])
    expect(indexes.pageRows('p', 'other')).toBeUndefined()
    expect(indexes.pageRows('q')).toBeUndefined()
    expect(indexes.hasPage('p')).toBe(true)
    expect(indexes.hasPage('q')).toBe(false)
  })

  it('finds pages by namespace, title and source, and by namespace and page hash', () => {
    const indexes = empty()
    indexes.put(chunkRow('a0', 'a', 0, { title: 'Guide', hash: 'h1' }))
    indexes.put(chunkRow('b0', 'b', 0, { title: 'Guide', hash: 'h2' }))
    indexes.put(chunkRow('c0', 'c', 0, { title: 'Guide', hash: 'h1', namespace: 'x' }))
    indexes.put(chunkRow('d0', 'd', 0, { title: 'Guide', source: 'web' }))
    expect([...indexes.pagesBy('default', { title: 'Guide', source: 'notes' })]).toEqual(['a', 'b'])
    expect([...indexes.pagesBy('default', { hash: 'h1' })]).toEqual(['a', 'd'])
    expect([...indexes.pagesBy('x', { hash: 'h1' })]).toEqual(['c'])
    expect(indexes.pagesBy('default', { title: 'Other', source: 'notes' }).size).toBe(0)
  })

  it('follows a retitled chunk, a moved chunk and a removed page', () => {
    const indexes = empty()
    indexes.put(chunkRow('a0', 'a', 0))
    indexes.put(chunkRow('a1', 'a', 1))
    indexes.put(chunkRow('a0', 'a', 0, { title: 'Manual', hash: 'h9' }))
    expect([...indexes.pagesBy('default', { title: 'Manual', source: 'notes' })]).toEqual(['a'])
    expect([...indexes.pagesBy('default', { hash: 'h1' })]).toEqual(['a'])
    indexes.put(chunkRow('a1', 'b', 0, { title: 'Manual', hash: 'h9' }))
    expect(indexes.pageRows('a')?.map((r) => r.id)).toEqual(['a0'])
    expect(indexes.pageRows('b')?.map((r) => r.id)).toEqual(['a1'])
    expect(indexes.pagesBy('default', { hash: 'h1' }).size).toBe(0)
    indexes.remove('a0')
    indexes.remove('a1')
    expect(indexes.hasPage('a')).toBe(false)
    expect(indexes.hasPage('b')).toBe(false)
    expect(indexes.pagesBy('default', { title: 'Manual', source: 'notes' }).size).toBe(0)
  })

  it('keeps a page first among its name’s pages when its chunks are put again', () => {
    const indexes = empty()
    indexes.put(chunkRow('a0', 'a', 0))
    indexes.put(chunkRow('b0', 'b', 0))
    indexes.put({ ...chunkRow('a0', 'a', 0), recallCount: 3 })
    indexes.refresh({ ...chunkRow('a0', 'a', 0), recallCount: 4 })
    expect([...indexes.pagesBy('default', { title: 'Guide', source: 'notes' })]).toEqual(['a', 'b'])
  })

  it('is rebuilt with an adopted catalogue and emptied by clear', () => {
    const indexes = empty()
    indexes.put(chunkRow('old', 'gone', 0))
    indexes.adoptCatalogue([chunkRow('a0', 'a', 0), chunkRow('a1', 'a', 1)])
    expect(indexes.hasPage('gone')).toBe(false)
    expect(indexes.pageRows('a')?.map((r) => r.id)).toEqual(['a0', 'a1'])
    expect([...indexes.pagesBy('default', { hash: 'h1' })]).toEqual(['a'])
    indexes.clear()
    expect(indexes.hasPage('a')).toBe(false)
    expect(indexes.pagesBy('default', { hash: 'h1' }).size).toBe(0)
  })
})
