/**
 * A model-free token estimate for packing prompt blocks. No tokeniser ships with Engram (each
 * model family has its own), so budgets are kept with a rule that errs on the high side.
 */

/**
 * Estimated tokens in `text`: one per 4 ASCII characters (English under GPT- and Claude-style
 * BPE tokenisers averages about 4), plus one per non-ASCII code point (CJK and emoji are often
 * a token each or more, accented Latin a little less). Over-counts rather than under-counts, so
 * a block packed to a budget fits it.
 *
 * @example
 * estimateTokens('The owner prefers metric units') // => 8
 * estimateTokens('東京に住んでいる')               // => 8
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
