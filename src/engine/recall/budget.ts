import { estimateTokens, packToBudget } from '../../core/token-budget.ts'
import type { RecallHit } from '../../core/types.ts'

/**
 * `tokenBudget`: keeps the hits, best first, that fit the budget (see `packToBudget`); a hit
 * that fits only by its summary carries the summary as its `text` (`memory.text` stays whole)
 * and `resolution: 'summary'`. A hit's `context` (`RecallOptions.context`) counts with it: a hit
 * whose neighbours do not fit what is left is kept without them, by the same rule. Without a
 * budget the hits pass through untouched.
 */
export function fitBudget(hits: RecallHit[], tokenBudget: number | undefined): RecallHit[] {
  if (tokenBudget === undefined) return hits
  if (hits.some((h) => h.context)) return fitWithContext(hits, tokenBudget)
  const items = hits.map((h) => ({
    text: h.memory.text,
    ...(h.memory.summary !== undefined ? { summary: h.memory.summary } : {}),
  }))
  return packToBudget(items, tokenBudget).map(({ index, resolution }) => {
    const hit = hits[index]!
    const text = resolution === 'summary' ? hit.memory.summary! : hit.text
    return { ...hit, text, resolution }
  })
}

/**
 * `packToBudget`'s rule, one hit at a time, with its context first tried whole: the hit and its
 * neighbours, else the hit alone, else its summary alone, else nothing and on to the next.
 */
function fitWithContext(hits: RecallHit[], budget: number): RecallHit[] {
  const kept: RecallHit[] = []
  let left = budget
  for (const hit of hits) {
    const { context, ...bare } = hit
    const full = estimateTokens(hit.memory.text)
    const around = context
      ? [...context.before, ...context.after].reduce((n, m) => n + estimateTokens(m.text), 0)
      : 0
    if (context && full + around <= left) {
      kept.push({ ...hit, resolution: 'full' })
      left -= full + around
    } else if (full <= left) {
      kept.push({ ...bare, resolution: 'full' })
      left -= full
    } else if (hit.memory.summary !== undefined && estimateTokens(hit.memory.summary) <= left) {
      kept.push({ ...bare, text: hit.memory.summary, resolution: 'summary' })
      left -= estimateTokens(hit.memory.summary)
    }
  }
  return kept
}
