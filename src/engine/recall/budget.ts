import { packToBudget } from '../../core/token-budget.ts'
import type { RecallHit } from '../../core/types.ts'

/**
 * `tokenBudget`: keeps the hits, best first, that fit the budget (see `packToBudget`); a hit
 * that fits only by its summary carries the summary as its `text` (`memory.text` stays whole)
 * and `resolution: 'summary'`. Without a budget the hits pass through untouched.
 */
export function fitBudget(hits: RecallHit[], tokenBudget: number | undefined): RecallHit[] {
  if (tokenBudget === undefined) return hits
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
