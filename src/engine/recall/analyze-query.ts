import { splitQuery } from '../../core/query.ts'
import { tokenize } from '../../core/tokenize.ts'
import type { KeywordIndex } from '../index/keyword-index.ts'

/**
 * A recall query analysed once, on the way in; every later stage reads this and nothing else of
 * the query.
 */
export interface AnalyzedQuery {
  /** As the caller wrote it: looked up whole as an alias, shown to the `select` hook. */
  raw: string
  /** Free text: the query with its phrases' quote marks removed (see `splitQuery`). */
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
}

/**
 * Parses the query and analyses its free text with the keyword index's own settings (stemming,
 * stop words), so the terms recall pairs and explains are the terms BM25 matched. (`searchTerms`
 * cuts the text once more, inside `tokenizeQuery`, which joins neighbouring words of its own cut.)
 *
 * @example
 * analyzeQuery('"auth handler" tests', new KeywordIndex())
 * // => { raw: '"auth handler" tests', text: 'auth handler tests', phrases: ['auth handler'],
 * //      tokens: ['auth', 'handler', 'tests'], terms: ['auth', 'handler', 'test'],
 * //      searchTerms: ['auth', 'handler', 'test', 'authhandl', 'handlertest'],
 * //      embedText: 'auth handler tests' }
 */
export function analyzeQuery(query: string, keyword: KeywordIndex): AnalyzedQuery {
  const { text, phrases } = splitQuery(query)
  const tokens = tokenize(text)
  return {
    raw: query,
    text,
    phrases,
    tokens,
    terms: keyword.termsOfTokens(tokens),
    searchTerms: keyword.queryTerms(text),
    embedText: text || query,
  }
}
