import { splitQuery } from '../../core/query.ts'
import { asksWhen, findTimeWindows, type TimeWindow } from '../../core/time/index.ts'
import { tokenize } from '../../core/tokenize.ts'
import type { KeywordIndex } from '../index/keyword-index.ts'

/**
 * A recall query analysed once, on the way in; every later stage reads this and nothing else of
 * the query.
 */
export interface AnalyzedQuery {
  /** As the caller wrote it: looked up whole as an alias, shown to the `select` hook. */
  raw: string
  /**
   * Free text: the query with its phrases' quote marks removed (see `splitQuery`). Its time words
   * stay in: "May 2023" written in a memory is a strong keyword match (LoCoMo held out, hybrid
   * hit@5 0.623 with them cut, 0.738 kept; `scripts/eval/temporal.ts`), and the boost adds on top.
   * Relative words ("last week") stay too: cutting only those, keeping calendar names, lost on
   * LoCoMo's tuning questions with time words (hybrid hit@1 0.667 → 0.595; docs/time.md).
   */
  text: string
  /** Quoted phrases in `phraseKey` form; a hit must contain every one. */
  phrases: readonly string[]
  /** Tokens of `text` (see `tokenize`), casing kept: the names the alias and tag lists look up. */
  tokens: readonly string[]
  /** Index terms of `text` in order, duplicates kept: the phrase pass pairs neighbours of these. */
  terms: readonly string[]
  /** What BM25 searches for: `terms` plus adjacent plain words joined (`authhandler`). */
  searchTerms: readonly string[]
  /** What the embedder is given: the free text, or the raw query when it is all quotes. */
  embedText: string
  /** The windows the query's time words name ("last week"), in order; `[]` when none or not read. */
  windows: readonly TimeWindow[]
  /**
   * Index terms of the text without its time words: none left means the query asks only for a
   * time ("what did I do last week?"), answered from the window.
   */
  termsBesideTime: readonly string[]
  /** The query asks when ("When did Ana move?"): the time boost favours memories naming a time. */
  asksWhen: boolean
}

/** Where a recall reads time words from: the engine's clock, and the calendar's zone. */
export interface QueryClock {
  now: number
  /** Minutes east of UTC of the calendar the words mean. @default 0 */
  offsetMinutes?: number
}

/**
 * Parses the query and analyses its free text with the keyword index's own settings (stemming,
 * stop words), so the terms recall pairs and explains are the terms BM25 matched. (`searchTerms`
 * cuts the text once more, inside `tokenizeQuery`, which joins neighbouring words of its own cut.)
 * With a `clock`, time words ("in May 2023") are resolved to windows; they stay in the text the
 * lists search, and `termsBesideTime` says what the query asks beside them.
 *
 * @example
 * analyzeQuery('"auth handler" tests', new KeywordIndex())
 * // => { raw: '"auth handler" tests', text: 'auth handler tests', phrases: ['auth handler'],
 * //      tokens: ['auth', 'handler', 'tests'], terms: ['auth', 'handler', 'test'],
 * //      searchTerms: ['auth', 'handler', 'test', 'authhandl', 'handlertest'],
 * //      embedText: 'auth handler tests', windows: [],
 * //      termsBesideTime: ['auth', 'handler', 'test'], asksWhen: false }
 */
export function analyzeQuery(
  query: string,
  keyword: KeywordIndex,
  clock?: QueryClock,
): AnalyzedQuery {
  const split = splitQuery(query)
  const windows = clock ? findTimeWindows(split.text, clock.now, offsetOf(clock)) : []
  const text = split.text
  const tokens = tokenize(text)
  const terms = keyword.termsOfTokens(tokens)
  return {
    raw: query,
    text,
    phrases: split.phrases,
    tokens,
    terms,
    searchTerms: keyword.queryTerms(text),
    embedText: text || query,
    windows,
    termsBesideTime:
      windows.length > 0 ? keyword.termsOfTokens(tokenize(withoutSpans(text, windows))) : terms,
    asksWhen: clock !== undefined && asksWhen(text),
  }
}

function offsetOf(clock: QueryClock): { offsetMinutes?: number } {
  return clock.offsetMinutes === undefined ? {} : { offsetMinutes: clock.offsetMinutes }
}

/** `text` with the windows' words cut out, spaces collapsed. */
function withoutSpans(text: string, windows: readonly TimeWindow[]): string {
  let out = ''
  let from = 0
  for (const { span } of windows) {
    out += `${text.slice(from, span[0])} `
    from = span[1]
  }
  return (out + text.slice(from)).replace(/\s{2,}/g, ' ').trim()
}
