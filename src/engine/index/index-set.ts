import type { RankedItem } from '../../core/fusion.ts'
import { type ChunkRow, isChunk } from '../../core/page/chunk-row.ts'
import { dedupKey } from '../../core/text.ts'
import type { Memory, TrustLevel } from '../../core/types.ts'
import { VectorIndex } from '../../core/vector/index.ts'
import { Catalogue } from './catalogue.ts'
import { DedupKeys } from './dedup-keys.ts'
import { KeywordIndex, type KeywordIndexOptions } from './keyword-index.ts'
import { addTo, removeFrom } from './multimap.ts'
import { PageMaps } from './page-maps.ts'
import { PhraseKeys } from './phrase-keys.ts'
import { adoptSegments, type CatalogueSegment, type MadeSegment, segmentsOf } from './segments.ts'

const TRUST_ORDER: Record<TrustLevel, number> = { untrusted: 0, unverified: 1, trusted: 2 }

/** What recall may look at: everything is optional except the namespace. */
export interface RecallFilter {
  namespace: string
  types?: readonly string[]
  tags?: readonly string[]
  minTrust?: TrustLevel
  includeFlagged?: boolean
}

/**
 * The derived, in-memory side of a memory: a catalogue of rows by id, the keyword index, the
 * vector index (current model only), exact alias/tag maps and the dedup keys. It is only ever
 * changed through `put`, `refresh` and `remove`, which keep all of them in step.
 */
export class IndexSet {
  readonly keyword: KeywordIndex
  /** Rows in columns (see {@link Catalogue}): the heap of 100k row objects was a third of it. */
  readonly #catalogue = new Catalogue()
  #vectors: VectorIndex | null
  readonly #aliases = new Map<string, Set<string>>()
  readonly #tags = new Map<string, Set<string>>()
  readonly #groups = new Map<string, number>()
  readonly #keys = new DedupKeys((id) => {
    const slot = this.#catalogue.slotOf(id)
    if (slot === undefined) return undefined
    const c = this.#catalogue
    const key = c.keyAt(slot)
    const namespace = c.stringAt(slot, 'namespace')
    const type = c.stringAt(slot, 'type')
    if (key === undefined || namespace === undefined || type === undefined) return undefined
    return { namespace, type, key }
  })
  /** Phrase keys and the candidates of a quoted query's matches. */
  readonly #phrases = new PhraseKeys()
  /**
   * Page id → ids of the memories carrying it, and a page's name (namespace, title, source) and
   * text (namespace, page hash) → its chunk ids: a page write finds the stored page it names, or
   * a twin, without grouping the whole catalogue (which made an import of N pages O(N²), issue
   * 29). Kept with the catalogue by `put`, `refresh`, `remove` and `adoptCatalogue`.
   */
  readonly #pages = new PageMaps()
  #restoredCounters: number | undefined

  /**
   * `groups` restores the namespace+type numbering a snapshot's vector index was built with: its
   * rows carry those numbers, so renumbering on load would file vectors under the wrong group.
   */
  constructor(
    keyword: KeywordIndex,
    vectors: VectorIndex | null,
    groups: Iterable<[string, number]> = [],
  ) {
    this.keyword = keyword
    this.#vectors = vectors
    for (const [key, group] of groups) this.#groups.set(key, group)
  }

  static empty(keywordOptions: Partial<KeywordIndexOptions>, dims: number): IndexSet {
    return new IndexSet(new KeywordIndex(keywordOptions), dims > 0 ? new VectorIndex(dims) : null)
  }

  /** Every memory by id, as the indexes know it. */
  get catalogue(): ReadonlyMap<string, Memory> {
    return this.#catalogue
  }

  get vectors(): VectorIndex | null {
    return this.#vectors
  }

  /** Creates the vector index once the model's dims are known. */
  ensureVectors(dims: number): VectorIndex {
    if (!this.#vectors || this.#vectors.dims !== dims) this.#vectors = new VectorIndex(dims)
    return this.#vectors
  }

  dropVectors(): void {
    this.#vectors?.clear()
  }

  /** Small integer per namespace+type, so the vector scan filters without string compares. */
  groupOf(namespace: string, type: string): number {
    const key = `${namespace}\u0000${type}`
    let group = this.#groups.get(key)
    if (group === undefined) {
      // Not `size`: restored numberings need not be dense.
      group = this.#nextGroup()
      this.#groups.set(key, group)
    }
    return group
  }

  /** The namespace+type numbering, for a snapshot. */
  groupEntries(): [string, number][] {
    return [...this.#groups]
  }

  #nextGroup(): number {
    let next = 0
    for (const group of this.#groups.values()) if (group >= next) next = group + 1
    return next
  }

  groupsFor(namespace: string, types?: readonly string[]): Set<number> {
    const groups = new Set<number>()
    for (const [key, group] of this.#groups) {
      const [ns, type] = key.split('\u0000') as [string, string]
      if (ns === namespace && (!types || types.includes(type))) groups.add(group)
    }
    return groups
  }

  /** Adds or replaces a memory everywhere; `vector` (current model) replaces or keeps the old one. */
  put(memory: Memory, vector?: Float32Array): void {
    const previous = this.#catalogue.get(memory.id)
    if (previous) this.#unmap(previous)
    this.#pages.map(memory, previous)
    if (!previous || previous.text !== memory.text) this.#phrases.put(memory)
    this.#catalogue.set(memory)
    this.keyword.put(memory)
    this.#map(memory)
    const group = this.groupOf(memory.namespace, memory.type)
    if (vector && this.#vectors) this.#vectors.add(memory.id, vector, group)
    else if (
      previous &&
      (previous.namespace !== memory.namespace || previous.type !== memory.type)
    ) {
      // The group lives in the vector index; a caller moving a memory passes its vector again.
      this.#vectors?.remove(memory.id)
    }
  }

  /**
   * Replaces a catalogue row whose indexed fields are unchanged (confirmations, recall counters),
   * without touching the indexes. A row that is not held, or changed an indexed field, is `put`.
   */
  refresh(memory: Memory): void {
    const held = this.#catalogue.get(memory.id)
    if (held && sameIndexedFields(held, memory)) {
      this.#catalogue.set(memory)
      this.#pages.map(memory, held)
    } else this.put(memory)
  }

  /** Replaces only the vector, for backfill and re-embedding. */
  putVector(id: string, vector: Float32Array): void {
    const memory = this.#catalogue.get(id)
    if (!memory || !this.#vectors) return
    this.#vectors.add(id, vector, this.groupOf(memory.namespace, memory.type))
  }

  removeVector(id: string): void {
    this.#vectors?.remove(id)
  }

  remove(id: string): void {
    const memory = this.#catalogue.get(id)
    if (memory) {
      this.#unmap(memory)
      this.#pages.unmap(memory)
    }
    this.#catalogue.delete(id)
    this.#phrases.delete(id)
    this.keyword.remove(id)
    this.#vectors?.remove(id)
  }

  clear(): void {
    this.#catalogue.clear()
    this.keyword.clear()
    this.#vectors?.clear()
    this.#aliases.clear()
    this.#tags.clear()
    this.#keys.clear()
    this.#phrases.clear()
    this.#pages.clear()
  }

  /**
   * The recall-counter mark of the catalogue the snapshot brought ({@link restoreCatalogue}), or
   * undefined when the catalogue still has to be read from the table.
   */
  get restoredCounters(): number | undefined {
    return this.#restoredCounters
  }

  /**
   * The catalogue saved with the snapshot, as of the recall-counter mark `counters`: the open
   * checks it against the table (ids, change log, mark) before trusting it.
   */
  restoreCatalogue(
    memories: Iterable<Memory>,
    counters: number,
    segments: readonly CatalogueSegment[] = [],
  ): void {
    this.adoptCatalogue(memories)
    this.#restoredCounters = counters
    adoptSegments(this.#catalogue, segments)
  }

  /** The catalogue in segments for a snapshot: see {@link segmentsOf}. */
  catalogueSegments(all = false): MadeSegment[] {
    return segmentsOf(this.#catalogue, all)
  }

  /** Rebuilds the catalogue and alias/tag maps around indexes restored from a snapshot. */
  adoptCatalogue(memories: Iterable<Memory>): void {
    this.#restoredCounters = undefined
    this.#catalogue.clear()
    this.#aliases.clear()
    this.#tags.clear()
    this.#keys.adoptLater(() => this.#identities())
    this.#phrases.adoptLater(() => this.#texts())
    this.#pages.clear()
    if (Array.isArray(memories)) this.#catalogue.reserve(memories.length)
    for (const memory of memories) {
      this.#catalogue.set(memory)
      this.#mapNames(memory)
      this.#pages.map(memory, undefined)
      this.groupOf(memory.namespace, memory.type)
    }
  }

  /** The id of the memory with this namespace, type and dedup key, if the indexes hold one. */
  idForKey(write: Pick<Memory, 'namespace' | 'type' | 'key'>): string | undefined {
    return this.#keys.idFor(write)
  }

  /** Whether any memory carries this page id. */
  hasPage(pageId: string): boolean {
    return this.#pages.has(pageId)
  }

  /** The page's chunk rows in chunk order (only `namespace`'s when given); undefined for none. */
  pageRows(pageId: string, namespace?: string): ChunkRow[] | undefined {
    const rows: ChunkRow[] = []
    for (const id of this.#pages.chunksOf(pageId)) {
      const row = this.#catalogue.get(id)
      if (row && isChunk(row) && (namespace === undefined || row.namespace === namespace)) {
        rows.push(row)
      }
    }
    return rows.length > 0 ? rows.sort((a, b) => a.chunk - b.chunk) : undefined
  }

  /**
   * Ids of the pages with a chunk of this namespace, title and source (`{ title, source }`) or
   * of this namespace and page hash (`{ hash }`), in the order their chunks were first filed
   * so: candidates, which the caller confirms on each page's rows.
   */
  pagesBy(
    namespace: string,
    by: { title: string; source: string } | { hash: string },
  ): ReadonlySet<string> {
    const pages = new Set<string>()
    const c = this.#catalogue
    for (const id of this.#pages.chunksBy(namespace, by))
      pages.add(c.stringAt(c.slotOf(id)!, 'pageId')!)
    return pages
  }

  /** Ids whose alias equals `text` after normalisation. */
  aliasHits(text: string): ReadonlySet<string> | undefined {
    return this.#aliases.get(dedupKey(text))
  }

  /** Ids carrying `tag` (case-insensitive). */
  tagHits(tag: string): ReadonlySet<string> | undefined {
    return this.#tags.get(tag.toLowerCase())
  }

  /**
   * An exact list: memories carrying an alias (or a tag) among `names`, each scored by how
   * selective its name is, ln(1 + N/n) / ln(1 + N) for a name n of the store's N memories carry
   * (1 for a name only one memory has; near 0 for one nearly all carry). One that holds more
   * than `limit` memories keeps only those in `found` (another list's), so it re-ranks
   * candidates rather than pulling in an arbitrary subset.
   */
  exactList(
    kind: 'alias' | 'tag',
    names: Iterable<string>,
    accept: (id: string) => boolean,
    found: ReadonlySet<string>,
    limit: number,
  ): RankedItem[] {
    const size = this.#catalogue.size
    const scores = new Map<string, number>()
    for (const name of names) {
      const ids = kind === 'alias' ? this.aliasHits(name) : this.tagHits(name)
      if (!ids || ids.size === 0) continue
      const specificity = Math.log1p(size / ids.size) / Math.log1p(size)
      for (const id of ids) {
        if (accept(id) && specificity > (scores.get(id) ?? -1)) scores.set(id, specificity)
      }
    }
    let items = [...scores].map(([id, score]) => ({ id, score }))
    if (items.length > limit) items = items.filter((item) => found.has(item.id))
    return items.sort((a, b) => b.score - a.score)
  }

  /** Whether the memory's text holds every phrase (see `matchesPhrases` in core/query.ts). */
  hasPhrases(id: string, phrases: readonly string[]): boolean {
    if (phrases.length === 0) return true
    const slot = this.#catalogue.slotOf(id)
    return slot !== undefined && this.#phrases.matches(this.#textOf(slot), phrases)
  }

  /**
   * Ids among which every memory holding all `phrases` is (posting lists of the phrases' words,
   * see `PhraseKeys.candidates`), or undefined when every memory is a candidate: recall checks
   * these, rather than asking each row a list scores whether it holds the phrases.
   */
  phraseCandidates(phrases: readonly string[]): Iterable<string> | undefined {
    return this.#phrases.candidates(phrases, this.keyword)
  }

  /**
   * Phrase matches another list could not find (a phrase of stop words, say), in catalogue order,
   * at most `limit`, skipping `seen`; scored 0, so they rank after every real hit.
   */
  phraseScan(
    phrases: readonly string[],
    accept: (id: string) => boolean,
    limit: number,
    seen: ReadonlyMap<string, unknown>,
  ): RankedItem[] {
    const items: RankedItem[] = []
    for (const slot of this.#catalogue.slots()) {
      if (items.length >= limit) break
      const id = this.#catalogue.idAt(slot)
      if (seen.has(id) || !accept(id)) continue
      if (this.#phrases.matches(this.#textOf(slot), phrases)) items.push({ id, score: 0 })
    }
    return items
  }

  /** A predicate for everything the filter asks beyond namespace and type. */
  accept(filter: RecallFilter): (id: string) => boolean {
    const { namespace, types, tags, minTrust, includeFlagged = true } = filter
    const minLevel = minTrust ? TRUST_ORDER[minTrust] : 0
    const wantTags = tags?.map((t) => t.toLowerCase())
    const c = this.#catalogue
    // Reads the columns it needs: recall asks this of every candidate of every list.
    return (id) => {
      const slot = c.slotOf(id)
      if (slot === undefined || c.stringAt(slot, 'namespace') !== namespace) return false
      if (types && !types.includes(c.stringAt(slot, 'type')!)) return false
      if (minLevel > 0 && TRUST_ORDER[c.stringAt(slot, 'trust') as TrustLevel] < minLevel)
        return false
      if (!includeFlagged && c.listAt(slot, 'flags').length > 0) return false
      if (wantTags) {
        const held = c.listAt(slot, 'tags')
        for (const tag of wantTags) if (!held.some((t) => t.toLowerCase() === tag)) return false
      }
      return true
    }
  }

  #map(memory: Memory): void {
    this.#mapNames(memory)
    this.#keys.file(memory)
  }

  /** Files the memory's aliases and tags (recall's exact lists). */
  #mapNames(memory: Memory): void {
    for (const alias of memory.aliases) addTo(this.#aliases, dedupKey(alias), memory.id)
    for (const tag of memory.tags) addTo(this.#tags, tag.toLowerCase(), memory.id)
  }

  #unmap(memory: Memory): void {
    for (const alias of memory.aliases) removeFrom(this.#aliases, dedupKey(alias), memory.id)
    for (const tag of memory.tags) removeFrom(this.#tags, tag.toLowerCase(), memory.id)
    this.#keys.drop(memory)
  }

  #textOf(slot: number): { id: string; text: string } {
    return { id: this.#catalogue.idAt(slot), text: this.#catalogue.textAt(slot) }
  }

  /** Every memory's id, namespace, type and key, in catalogue order, for the dedup keys. */
  *#identities(): Generator<Pick<Memory, 'id' | 'namespace' | 'type' | 'key'>> {
    const c = this.#catalogue
    for (const slot of c.slots()) {
      const namespace = c.stringAt(slot, 'namespace')
      const type = c.stringAt(slot, 'type')
      const key = c.keyAt(slot)
      // An odd row lacking one has no identity a write could name (filing it eagerly threw).
      if (namespace === undefined || type === undefined || key === undefined) continue
      yield { id: c.idAt(slot), namespace, type, key }
    }
  }

  /** Every memory's id and text, in catalogue order, without materialising the rows. */
  *#texts(): Generator<{ id: string; text: string }> {
    for (const slot of this.#catalogue.slots()) yield this.#textOf(slot)
  }
}

/** Whether two versions of a row agree on every field an index structure is built from. */
function sameIndexedFields(a: Memory, b: Memory): boolean {
  return (
    a.text === b.text &&
    a.namespace === b.namespace &&
    a.type === b.type &&
    a.key === b.key &&
    sameList(a.aliases, b.aliases) &&
    sameList(a.tags, b.tags)
  )
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i])
}
