/**
 * Token estimates for a recall's `tokenBudget`. No tokeniser ships with Engram (each model
 * family has its own), so the rule errs on the high side: a packed answer fits its budget.
 */

/**
 * Estimated tokens in `text`: one per 4 ASCII characters (English under GPT- and Claude-style
 * BPE averages about 4), plus one per non-ASCII code point (CJK and emoji are often a token
 * each). The same rule as the agent's `estimateTokens`.
 *
 * @example
 * estimateTokens('The owner prefers metric units') // => 8
 */
export function estimateTokens(text: string): number {
  let ascii = 0
  let other = 0
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) ascii++
    else other++
  }
  return Math.ceil(ascii / 4) + other
}

/** How a packed item is shown: whole, or by its one-line summary. */
export type Resolution = 'full' | 'summary'

/**
 * Packs items in order into `budget` tokens: each whole if it fits, else by its summary if it
 * has one that fits, else it is left out and packing goes on, so a smaller, lower-ranked item
 * may still fill what is left. The one packing rule of Engram: recall's `tokenBudget` and the
 * agent's prompt blocks (`packMemoriesForPrompt`) both pack with it. Skipping beats stopping:
 * one long memory at rank 2 would otherwise waste the budget the next ones fit in, and the
 * packed items keep their rank order either way.
 *
 * @example
 * packToBudget([{ text: 'a'.repeat(40) }, { text: 'b'.repeat(400), summary: 'short' }], 12)
 * // => [{ index: 0, resolution: 'full', tokens: 10 }, { index: 1, resolution: 'summary', tokens: 2 }]
 * packToBudget([{ text: 'a'.repeat(400) }, { text: 'b'.repeat(8) }], 12)
 * // => [{ index: 1, resolution: 'full', tokens: 2 }]
 */
export function packToBudget(
  items: readonly { text: string; summary?: string }[],
  budget: number,
): { index: number; resolution: Resolution; tokens: number }[] {
  const packed: { index: number; resolution: Resolution; tokens: number }[] = []
  let left = budget
  for (const [index, item] of items.entries()) {
    const full = estimateTokens(item.text)
    if (full <= left) {
      packed.push({ index, resolution: 'full', tokens: full })
      left -= full
      continue
    }
    const short = item.summary !== undefined ? estimateTokens(item.summary) : Infinity
    if (short > left) continue
    packed.push({ index, resolution: 'summary', tokens: short })
    left -= short
  }
  return packed
}
