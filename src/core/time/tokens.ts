/** The query cut into the tokens the time parser reads, each with its place in the query. */

export type TokenKind = 'word' | 'number' | 'iso' | 'mark'

export interface Token {
  kind: TokenKind
  /** Lower-cased text; for a number, its digits without an ordinal or plural suffix. */
  text: string
  /** UTF-16 offsets in the query: first unit, first unit after. */
  start: number
  end: number
  /** A number's value, or NaN when it has a decimal or thousands part ("2019.5", "1,000"). */
  value: number
  /** A number's suffix: "th" of "8th", "s" of "1990s"; otherwise "". */
  suffix: string
}

// ISO dates (2023-05-08, 2023-05, 2023/05/08) before plain numbers, so their digits are one
// token; a number keeps its decimal or thousands part so "2019.5" never reads as a year.
const TOKEN =
  /(\d{4}[-/]\d{1,2}(?:[-/]\d{1,2})?(?![\d/-]))|(?<![\p{L}\d])(\d+(?:[.,:]\d+)*)(st|nd|rd|th|s)?(?![\p{L}\d])|(\p{L}+(?:['’]\p{L}+)?)|(\S)/gu

export function tokenize(query: string): Token[] {
  const tokens: Token[] = []
  for (const m of query.matchAll(TOKEN)) {
    const start = m.index
    const end = start + m[0].length
    const base = { start, end, value: Number.NaN, suffix: '' }
    if (m[1] !== undefined) tokens.push({ ...base, kind: 'iso', text: m[1] })
    else if (m[2] !== undefined) {
      const plain = /^\d+$/.test(m[2])
      const value = plain ? Number(m[2]) : Number.NaN
      tokens.push({ ...base, kind: 'number', text: m[2], value, suffix: m[3] ?? '' })
    } else if (m[4] !== undefined) {
      tokens.push({ ...base, kind: 'word', text: m[4].toLowerCase().replace('’', "'") })
    } else tokens.push({ ...base, kind: 'mark', text: m[5] ?? '' })
  }
  return tokens
}
