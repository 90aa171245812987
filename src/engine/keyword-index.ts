import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch'
import { termProcessor, tokenize, tokenizeQuery } from '../core/tokenize.ts'
import type { Memory } from '../core/types.ts'

/** Tuning of the BM25 leg. Changing any field changes the options hash: snapshots rebuild. */
export interface KeywordIndexOptions {
  /** Field boosts: an alias or tag hit says more than a word in the text. @default text 1, aliases 2, tags 1.5 */
  boost: { text: number; aliases: number; tags: number }
  /** Prefix-match query terms at least this long (0 turns prefix matching off). @default 0 */
  prefixMinLength: number
  /** Fuzzy-match query terms at least this long, within 20% edits (0: off). @default 0 */
  fuzzyMinLength: number
  /** BM25 parameters. @default k 1.2, b 0.7, d 0.5 (MiniSearch's BM25+ defaults) */
  bm25: { k: number; b: number; d: number }
  /** Porter-stem plain English words on both sides. @default true */
  stemming: boolean
  /** Drop English function words (`STOP_WORDS`) on both sides. @default true */
  stopWords: boolean
  /**
   * Second pass over the BM25 hits: a hit's score is multiplied by `1 + phraseBoost × share`,
   * where `share` is the fraction of the query's adjacent term pairs that stand side by side in
   * the memory too. The keyword list's score (`bm25` in explanations) includes this factor.
   * 0 turns it off; 0.25..1 is sensible. @default 0.5
   * @example phrase pairs of "lgbtq support group": [lgbtq support], [support group]
   */
  phraseBoost: number
}

export const DEFAULT_KEYWORD_OPTIONS: Readonly<KeywordIndexOptions> = Object.freeze({
  boost: { text: 1, aliases: 2, tags: 1.5 },
  prefixMinLength: 0,
  fuzzyMinLength: 0,
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  stemming: true,
  stopWords: true,
  phraseBoost: 0.5,
})

/**
 * Defaults under the caller's options; `boost` and `bm25` merge field by field, so
 * `{ bm25: { k: 1.5 } }` keeps the default `b` and `d`.
 *
 * @example
 * resolveKeywordOptions({ bm25: { k: 1.5 } }).bm25
 * // => { k: 1.5, b: 0.7, d: 0.5 }
 */
export function resolveKeywordOptions(
  options: Partial<Omit<KeywordIndexOptions, 'boost' | 'bm25'>> & {
    boost?: Partial<KeywordIndexOptions['boost']>
    bm25?: Partial<KeywordIndexOptions['bm25']>
  } = {},
): KeywordIndexOptions {
  return {
    ...DEFAULT_KEYWORD_OPTIONS,
    ...options,
    boost: { ...DEFAULT_KEYWORD_OPTIONS.boost, ...options.boost },
    bm25: { ...DEFAULT_KEYWORD_OPTIONS.bm25, ...options.bm25 },
  }
}

/** What the index holds per memory: the searchable fields only. */
interface KeywordDocument {
  id: string
  text: string
  aliases: string
  tags: string
}

/** One keyword hit: BM25 score and the processed query terms that matched. */
export interface KeywordHit {
  id: string
  score: number
  terms: string[]
}

const FIELDS = ['text', 'aliases', 'tags']

function toDocument(memory: Pick<Memory, 'id' | 'text' | 'aliases' | 'tags'>): KeywordDocument {
  // Newlines keep identifiers in separate aliases/tags from running together.
  return {
    id: memory.id,
    text: memory.text,
    aliases: memory.aliases.join('\n'),
    tags: memory.tags.join('\n'),
  }
}

/**
 * The BM25 leg: a MiniSearch index over text, aliases and tags, with Engram's identifier-aware
 * tokeniser and stemmer. Saved as a structured-clone object (`toJS`), not JSON, because
 * `loadJS` skips the parse that dominates `loadJSON` on large indexes.
 */
export class KeywordIndex {
  readonly #options: KeywordIndexOptions
  readonly #process: (term: string) => string | null
  /** Analysed texts of memories, by row object: a changed memory is a new object. */
  readonly #analysed = new WeakMap<object, string[]>()
  #search: MiniSearch<KeywordDocument>

  constructor(options: Partial<KeywordIndexOptions> = {}, snapshot?: AsPlainObject) {
    this.#options = resolveKeywordOptions(options)
    this.#process = termProcessor(this.#options)
    const miniOptions = this.#miniSearchOptions()
    this.#search = snapshot
      ? MiniSearch.loadJS<KeywordDocument>(snapshot, miniOptions)
      : new MiniSearch<KeywordDocument>(miniOptions)
  }

  /** See {@link KeywordIndexOptions.phraseBoost}. */
  get phraseBoost(): number {
    return this.#options.phraseBoost
  }

  get size(): number {
    return this.#search.documentCount
  }

  has(id: string): boolean {
    return this.#search.has(id)
  }

  /** Adds or replaces. */
  put(memory: Pick<Memory, 'id' | 'text' | 'aliases' | 'tags'>): void {
    const document = toDocument(memory)
    if (this.#search.has(memory.id)) this.#search.replace(document)
    else this.#search.add(document)
  }

  putAll(memories: Iterable<Pick<Memory, 'id' | 'text' | 'aliases' | 'tags'>>): void {
    for (const memory of memories) this.put(memory)
  }

  remove(id: string): boolean {
    if (!this.#search.has(id)) return false
    this.#search.discard(id)
    return true
  }

  clear(): void {
    this.#search.removeAll()
  }

  /**
   * BM25 over the query, terms OR-ed. `accept` filters candidates (namespace, type, tags,
   * trust) before the limit is applied, so filtered-out memories never crowd out real hits.
   */
  search(query: string, limit: number, accept?: (id: string) => boolean): KeywordHit[] {
    const { prefixMinLength, fuzzyMinLength } = this.#options
    const results: SearchResult[] = this.#search.search(query, {
      combineWith: 'OR',
      ...(accept ? { filter: (result: SearchResult) => accept(result.id as string) } : {}),
      ...(prefixMinLength > 0 ? { prefix: (term: string) => term.length >= prefixMinLength } : {}),
      ...(fuzzyMinLength > 0
        ? { fuzzy: (term: string) => (term.length >= fuzzyMinLength ? 0.2 : false) }
        : {}),
    })
    const hits: KeywordHit[] = []
    for (let i = 0; i < results.length && hits.length < limit; i++) {
      const result = results[i]!
      hits.push({ id: result.id as string, score: result.score, terms: result.queryTerms })
    }
    return hits
  }

  /**
   * Index terms of a text in order, as this index analyses it (its stemming and stop-word
   * settings), compounds' extra parts included.
   */
  analyze(text: string): string[] {
    const process = this.#process
    const terms: string[] = []
    for (const token of tokenize(text)) {
      const term = process(token)
      if (term !== null) terms.push(term)
    }
    return terms
  }

  /** {@link analyze} of a memory's text, remembered for as long as that memory object lives. */
  termsOf(memory: Pick<Memory, 'text'>): string[] {
    let terms = this.#analysed.get(memory)
    if (!terms) {
      terms = this.analyze(memory.text)
      this.#analysed.set(memory, terms)
    }
    return terms
  }

  /** Ids the index holds; walks the saved form, so keep it to `verify()`. */
  ids(): string[] {
    return Object.values(this.#search.toJSON().documentIds) as string[]
  }

  /** A structured-clone-friendly copy for a snapshot. */
  toJS(): AsPlainObject {
    return this.#search.toJSON()
  }

  /** Stable description of everything that changes what the index contains. */
  fingerprint(): string {
    return JSON.stringify(this.#options)
  }

  #miniSearchOptions() {
    const { boost, bm25 } = this.#options
    return {
      fields: FIELDS,
      idField: 'id',
      tokenize,
      processTerm: this.#process,
      searchOptions: { boost, bm25, tokenize: tokenizeQuery },
      autoVacuum: { minDirtCount: 200, minDirtFactor: 0.1, batchSize: 1000, batchWait: 10 },
    }
  }
}
