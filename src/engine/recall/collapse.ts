import type { RecallHit } from '../../core/types.ts'
import type { Ranked } from './rank.ts'

/** The ranking with each page down to its best chunk, and how many of its chunks each stands for. */
export interface Collapsed {
  ranked: Ranked[]
  /** Id of a page's best chunk → how many more of the page's chunks ranked below it. */
  more: ReadonlyMap<string, number>
}

/**
 * One entry per page: a chunk of a page already in the ranking is dropped and counted on the
 * page's best chunk (the first), so `k` hits are `k` facts or pages, not five slices of one
 * manual. Facts pass through. `collapse: false` returns the ranking as it is.
 */
export function collapsePages(ranked: readonly Ranked[], collapse: boolean): Collapsed {
  if (!collapse) return { ranked: [...ranked], more: new Map() }
  const best = new Map<string, string>()
  const more = new Map<string, number>()
  const kept: Ranked[] = []
  for (const one of ranked) {
    const pageId = one.memory.pageId
    if (pageId === undefined) {
      kept.push(one)
      continue
    }
    const first = best.get(pageId)
    if (first === undefined) {
      best.set(pageId, one.memory.id)
      kept.push(one)
    } else more.set(first, (more.get(first) ?? 0) + 1)
  }
  return { ranked: kept, more }
}

/** Chunk hits told where they sit in their page (`page`), and collapsed ones how many more. */
export function placePageHits(hits: RecallHit[], more: ReadonlyMap<string, number>): void {
  for (const hit of hits) {
    const { pageId, chunk, page } = hit.memory
    if (pageId === undefined || chunk === undefined || !page) continue
    hit.page = {
      pageId,
      title: page.title,
      headingPath: page.headingPath,
      chunk,
      start: page.start,
      end: page.end,
    }
    const n = more.get(hit.id)
    if (n !== undefined) hit.more = n
  }
}
