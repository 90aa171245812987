import { happenedSpan, overlapsTime } from '../../core/recall/boosts.ts'
import { formatWindow } from '../../core/time/index.ts'
import type { Memory, RecallHit, TimeSettings } from '../../core/types.ts'
import type { AnalyzedQuery } from './analyze-query.ts'

/**
 * Whether a query is only a time: it names a window and leaves no word to search for once its
 * time words are out ("what did I do last week?"); the lists would find only memories that
 * happen to say "week".
 */
export function onlyTime(q: AnalyzedQuery): boolean {
  return q.windows.length > 0 && q.termsBesideTime.length === 0 && q.phrases.length === 0
}

/**
 * The answer to a query that is only a time: the memories the recall's filter accepts whose
 * time overlaps a window the query names, newest first, one per page (its latest chunk), as a
 * `timeline` over the same scope would list them; via `recent`, each with its time boost.
 *
 * @example
 * windowHits(catalogue.values(), q, accept, 5, DEFAULT_TIME, true)[0].explanation
 * // => 'recent: in window 2024-03-04..2024-03-10, newest first -> #1'
 */
export function windowHits(
  memories: Iterable<Memory>,
  q: AnalyzedQuery,
  accept: (id: string) => boolean,
  k: number,
  time: TimeSettings,
  explain: boolean,
): RecallHit[] {
  const label = (w: { start: number; end: number }) =>
    formatWindow(w, { offsetMinutes: time.offsetMinutes })
  const found: { memory: Memory; at: number; window: string }[] = []
  for (const memory of memories) {
    if (!accept(memory.id)) continue
    const window = q.windows.find((w) => overlapsTime(memory, w.start, w.end))
    if (window) found.push({ memory, at: happenedSpan(memory)[0], window: label(window) })
  }
  found.sort((a, b) => b.at - a.at || (a.memory.id < b.memory.id ? 1 : -1))
  const pages = new Set<string>()
  const hits: RecallHit[] = []
  for (const { memory, window } of found) {
    if (hits.length === k) break
    if (memory.pageId !== undefined) {
      if (pages.has(memory.pageId)) continue
      pages.add(memory.pageId)
    }
    const rank = hits.length + 1
    const days = `in window ${window}`
    hits.push({
      id: memory.id,
      text: memory.text,
      memory,
      rank,
      score: 1,
      fused: 1,
      via: 'recent',
      lists: {},
      terms: [],
      boosts:
        time.factor === 1
          ? []
          : [{ name: 'time', factor: time.factor, detail: `${days} ×${time.factor}` }],
      flagged: memory.flags.length > 0,
      explanation: explain ? `recent: ${days}, newest first -> #${rank}` : '',
    })
  }
  return hits
}
