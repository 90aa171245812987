import { describe, expect, it } from 'vitest'
import type { Memory, RecallHit } from '../../../../src/core/types.ts'
import { collapsePages, placePageHits } from '../../../../src/engine/recall/collapse.ts'
import type { Ranked } from '../../../../src/engine/recall/rank.ts'
import { row } from '../fixtures.ts'

function chunk(id: string, pageId: string, index: number): Memory {
  return row(id, `chunk ${id}`, {
    type: 'page',
    pageId,
    chunk: index,
    page: {
      title: `Page ${pageId}`,
      headingPath: ['Intro'],
      start: index * 10,
      end: index * 10 + 10,
      overlap: 0,
      hash: 'h',
    },
  })
}

function ranked(memories: Memory[]): Ranked[] {
  return memories.map((memory, i) => ({
    candidate: { id: memory.id, fused: 1 - i / 10, lists: {}, fusionRanks: {} },
    memory,
    boosts: [],
    score: 1 - i / 10,
  }))
}

describe('collapsePages', () => {
  const list = ranked([
    chunk('c1', 'p', 1),
    row('f1', 'a fact'),
    chunk('c0', 'p', 0),
    chunk('d0', 'q', 0),
    chunk('c2', 'p', 2),
  ])

  it('keeps the best chunk of each page, in rank order, and counts the rest on it', () => {
    const { ranked: kept, more } = collapsePages(list, true)
    expect(kept.map((r) => r.memory.id)).toEqual(['c1', 'f1', 'd0'])
    expect([...more]).toEqual([['c1', 2]])
  })

  it('leaves the ranking as it is when turned off', () => {
    const { ranked: kept, more } = collapsePages(list, false)
    expect(kept.map((r) => r.memory.id)).toEqual(['c1', 'f1', 'c0', 'd0', 'c2'])
    expect(more.size).toBe(0)
  })
})

describe('placePageHits', () => {
  it('tells a chunk hit its page and place, and leaves facts alone', () => {
    const hits = [chunk('c1', 'p', 1), row('f1', 'a fact')].map(
      (memory) => ({ id: memory.id, text: memory.text, memory }) as RecallHit,
    )
    placePageHits(hits, new Map([['c1', 2]]))
    expect(hits[0]!.page).toEqual({
      pageId: 'p',
      title: 'Page p',
      headingPath: ['Intro'],
      chunk: 1,
      start: 10,
      end: 20,
    })
    expect(hits[0]!.more).toBe(2)
    expect(hits[1]!.page).toBeUndefined()
    expect(hits[1]!.more).toBeUndefined()
  })
})
