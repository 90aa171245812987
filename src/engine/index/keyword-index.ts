import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch'
import type { RankedItem } from '../../core/fusion.ts'
import {
  DEFAULT_KEYWORD_OPTIONS,
  KEYWORD_AUTO_VACUUM,
  type KeywordIndexOptions,
} from '../../core/options.ts'
import { termProcessor, tokenize, tokenizeQuery } from '../../core/tokenize.ts'
import type { Memory } from '../../core/types.ts'
import {
  compactPostings,
  fromKeywordImage,
  type KeywordImage,
  toKeywordImage,
} from './keyword-image.ts'

export type { KeywordIndexOptions }

/** How many texts' terms {@link KeywordIndex.termsOf} keeps. */
const ANALYSED_TEXTS = 4096
/**
 * The postings are compacted once this many documents were put since the last time, and this
 * share of the index: new postings cost a `Map` entry (some 25 B) until then, 8 B after, and
 * each compaction copies every posting, so growing by a share keeps the copies to a few per
 * posting over an import.
 */
const COMPACT_AFTER = 2048
const COMPACT_SHARE = 0.25
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
 * tokeniser and stemmer. Saved as a {@link KeywordImage} (`toImage`): typed arrays and strings
 * clone and load far faster than MiniSearch's object per term, and postings decode lazily.
 */
export class KeywordIndex {
  readonly #options: KeywordIndexOptions
  readonly #process: (term: string) => string | null
  /**
   * Terms of texts analysed lately, by text: the columnar catalogue hands out a fresh row object
   * on every read, so a cache by object never hit, while recall reads the same candidates'
   * texts (the same strings) query after query.
   */
  readonly #analysed = new Map<string, string[]>()
  #search: MiniSearch<KeywordDocument>
  /** Documents put since the postings were last compacted (or loaded encoded). */
  #loose = 0

  /**
   * `snapshot` is a {@link KeywordImage} ({@link KeywordIndex.toImage}, what snapshots save) or
   * MiniSearch's plain object ({@link KeywordIndex.toJS}); either must come from an index of the
   * same options. A damaged image throws.
   */
  constructor(options: Partial<KeywordIndexOptions> = {}, snapshot?: AsPlainObject | KeywordImage) {
    this.#options = resolveKeywordOptions(options)
    this.#process = termProcessor(this.#options)
    const miniOptions = this.#miniSearchOptions()
    this.#search = !snapshot
      ? new MiniSearch<KeywordDocument>(miniOptions)
      : 'format' in snapshot
        ? fromKeywordImage<KeywordDocument>(snapshot, miniOptions)
        : MiniSearch.loadJS<KeywordDocument>(snapshot, miniOptions)
  }

  /** This index's term processor (stemming, stop words): highlights match the way BM25 does. */
  get processTerm(): (term: string) => string | null {
    return this.#process
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
    if (++this.#loose >= Math.max(COMPACT_AFTER, this.#search.documentCount * COMPACT_SHARE))
      this.compact()
  }

  /**
   * Encodes every posting into one array (see `compactPostings`): what was put since the last
   * time stops costing a `Map` a term and field. Answers are unchanged. Run as the index grows.
   */
  compact(): void {
    compactPostings(this.#search as MiniSearch<never>)
    this.#loose = 0
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
    this.#loose = 0
  }

  /** BM25 over a query string: {@link searchTerms} of its {@link queryTerms}. */
  search(query: string, limit: number, accept?: (id: string) => boolean): KeywordHit[] {
    return this.searchTerms(this.queryTerms(query), limit, accept)
  }

  /**
   * BM25 over query terms already analysed by this index ({@link queryTerms}), OR-ed. `accept`
   * filters candidates (namespace, type, tags, trust) before the limit is applied, so
   * filtered-out memories never crowd out real hits.
   */
  searchTerms(
    terms: readonly string[],
    limit: number,
    accept?: (id: string) => boolean,
  ): KeywordHit[] {
    const { prefixMinLength, fuzzyMinLength } = this.#options
    // The terms are analysed already: MiniSearch is told to take them as they are.
    const results: SearchResult[] = this.#search.search('', {
      combineWith: 'OR',
      tokenize: () => terms as string[],
      processTerm: (term: string) => term,
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
    return this.termsOfTokens(tokenize(text))
  }

  /** Index terms of tokens already cut by `tokenize`, in order: {@link analyze} without the cut. */
  termsOfTokens(tokens: readonly string[]): string[] {
    const process = this.#process
    const terms: string[] = []
    for (const token of tokens) {
      const term = process(token)
      if (term !== null) terms.push(term)
    }
    return terms
  }

  /**
   * What BM25 searches for a query text: {@link analyze}'s terms plus adjacent plain words
   * joined (`auth handler` also asks for `authhandler`), duplicates kept (a repeated word counts
   * twice, as MiniSearch would count it).
   */
  queryTerms(text: string): string[] {
    return this.termsOfTokens(tokenizeQuery(text))
  }

  /** {@link analyze} of a memory's text, remembered for the last few thousand texts. Read only. */
  termsOf(memory: Pick<Memory, 'text'>): readonly string[] {
    const text = memory.text
    let terms = this.#analysed.get(text)
    if (!terms) {
      terms = this.analyze(text)
      // Emptied when full: simpler than an LRU, and a recall's candidates fill it again at once.
      if (this.#analysed.size >= ANALYSED_TEXTS) this.#analysed.clear()
      this.#analysed.set(text, terms)
    }
    return terms
  }

  /**
   * The keyword list's second pass: each item's BM25 score times `1 + phraseBoost × (the share of
   * the query's adjacent term pairs that also stand side by side in the memory)`, then re-sorted
   * (stably: equal scores keep BM25's order). "support group" then outranks a memory that says
   * "support" here and "group" there. `queryTerms` are {@link analyze}'s terms of the query.
   */
  phrasePass(
    items: RankedItem[],
    queryTerms: readonly string[],
    memoryOf: (id: string) => Pick<Memory, 'text'> | undefined,
  ): void {
    const boost = this.#options.phraseBoost
    if (boost <= 0 || items.length < 2) return
    const pairs = adjacentPairs(queryTerms)
    if (pairs.size === 0) return
    for (const item of items) {
      const memory = memoryOf(item.id)
      if (!memory) continue
      const text = this.termsOf(memory)
      const matched = new Set<string>()
      for (let i = 1; i < text.length; i++) {
        const pair = `${text[i - 1]} ${text[i]}`
        if (pairs.has(pair)) matched.add(pair)
      }
      item.score *= 1 + (boost * matched.size) / pairs.size
    }
    items.sort((a, b) => b.score - a.score)
  }

  /**
   * Ids of the memories whose text, aliases or tags hold the index term `term` exactly (no
   * prefix, no fuzz): a posting list, read from MiniSearch's inverted index without scoring.
   */
  idsWithTerm(term: string): string[] {
    const inner = this.#search as unknown as MiniSearchInternals
    const ids: string[] = []
    const fields = inner._index.get(term)
    if (!fields) return ids
    const seen = new Set<number>()
    for (const docs of fields.values()) {
      for (const shortId of docs.keys()) {
        if (seen.has(shortId)) continue
        seen.add(shortId)
        // A discarded memory stays in the inverted index until the next vacuum.
        const id = inner._documentIds.get(shortId)
        if (id !== undefined) ids.push(id as string)
      }
    }
    return ids
  }

  /** Ids the index holds; walks the saved form, so keep it to `inspect.verify()`. */
  ids(): string[] {
    return Object.values(this.#search.toJSON().documentIds) as string[]
  }

  /** MiniSearch's own plain-object form (the benchmarks' heap figures read it). */
  toJS(): AsPlainObject {
    return this.#search.toJSON()
  }

  /**
   * The image a snapshot saves: typed arrays and strings, cloned as blocks by IndexedDB and
   * loaded with each term's postings left encoded until first used (see {@link KeywordImage}).
   */
  toImage(): KeywordImage {
    return toKeywordImage(this.#search as MiniSearch<never>)
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
      autoVacuum: { ...KEYWORD_AUTO_VACUUM },
    }
  }
}

/**
 * The parts of MiniSearch 7 that `idsWithTerm` reads (the version is pinned; the unit test of
 * `idsWithTerm` fails if they move): term → field id → short document id → frequency, and short
 * id → id for the documents not discarded.
 */
interface MiniSearchInternals {
  _index: { get(term: string): Map<number, Map<number, number>> | undefined }
  _documentIds: Map<number, unknown>
}

/** The distinct pairs `"a b"` of neighbouring terms, a term next to itself left out. */
function adjacentPairs(terms: readonly string[]): Set<string> {
  const pairs = new Set<string>()
  for (let i = 1; i < terms.length; i++) {
    if (terms[i - 1] !== terms[i]) pairs.add(`${terms[i - 1]} ${terms[i]}`)
  }
  return pairs
}
