import { dedupKey } from '../core/text.ts'
import type { Memory, TrustLevel } from '../core/types.ts'
import { VectorIndex } from '../core/vector-index.ts'
import { KeywordIndex, type KeywordIndexOptions } from './keyword-index.ts'

const TRUST_ORDER: Record<TrustLevel, number> = { untrusted: 0, unverified: 1, trusted: 2 }

/** What recall may look at: everything is optional except the namespace. */
export interface RecallFilter {
  namespace: string
  types?: readonly string[]
  tags?: readonly string[]
  minTrust?: TrustLevel
  includeFlagged?: boolean
  now: number
}

/**
 * The derived, in-memory side of a memory: a catalogue of rows by id, the keyword index, the
 * vector index (current model only) and exact alias/tag maps. It is only ever changed through
 * `put` and `remove`, which keep all of them in step.
 */
export class IndexSet {
  readonly catalogue = new Map<string, Memory>()
  readonly keyword: KeywordIndex
  #vectors: VectorIndex | null
  readonly #aliases = new Map<string, Set<string>>()
  readonly #tags = new Map<string, Set<string>>()
  readonly #groups = new Map<string, number>()

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
    const previous = this.catalogue.get(memory.id)
    if (previous) this.#unmap(previous)
    this.catalogue.set(memory.id, memory)
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

  /** Replaces only the vector, for backfill and re-embedding. */
  putVector(id: string, vector: Float32Array): void {
    const memory = this.catalogue.get(id)
    if (!memory || !this.#vectors) return
    this.#vectors.add(id, vector, this.groupOf(memory.namespace, memory.type))
  }

  removeVector(id: string): void {
    this.#vectors?.remove(id)
  }

  remove(id: string): void {
    const memory = this.catalogue.get(id)
    if (memory) this.#unmap(memory)
    this.catalogue.delete(id)
    this.keyword.remove(id)
    this.#vectors?.remove(id)
  }

  clear(): void {
    this.catalogue.clear()
    this.keyword.clear()
    this.#vectors?.clear()
    this.#aliases.clear()
    this.#tags.clear()
  }

  /** Rebuilds the catalogue and alias/tag maps around indexes restored from a snapshot. */
  adoptCatalogue(memories: Iterable<Memory>): void {
    this.catalogue.clear()
    this.#aliases.clear()
    this.#tags.clear()
    for (const memory of memories) {
      this.catalogue.set(memory.id, memory)
      this.#map(memory)
      this.groupOf(memory.namespace, memory.type)
    }
  }

  /** Ids whose alias equals `text` after normalisation. */
  aliasHits(text: string): ReadonlySet<string> | undefined {
    return this.#aliases.get(dedupKey(text))
  }

  /** Ids carrying `tag` (case-insensitive). */
  tagHits(tag: string): ReadonlySet<string> | undefined {
    return this.#tags.get(tag.toLowerCase())
  }

  /** A predicate for everything the filter asks beyond namespace and type. */
  accept(filter: RecallFilter): (id: string) => boolean {
    const { namespace, types, tags, minTrust, includeFlagged = true, now } = filter
    const minLevel = minTrust ? TRUST_ORDER[minTrust] : 0
    const wantTags = tags?.map((t) => t.toLowerCase())
    return (id) => {
      const m = this.catalogue.get(id)
      if (!m || m.namespace !== namespace) return false
      if (types && !types.includes(m.type)) return false
      if (m.expiresAt !== undefined && m.expiresAt <= now) return false
      if (minLevel > 0 && TRUST_ORDER[m.trust] < minLevel) return false
      if (!includeFlagged && m.flags.length > 0) return false
      if (wantTags) {
        for (const tag of wantTags) if (!m.tags.some((t) => t.toLowerCase() === tag)) return false
      }
      return true
    }
  }

  #map(memory: Memory): void {
    for (const alias of memory.aliases) addTo(this.#aliases, dedupKey(alias), memory.id)
    for (const tag of memory.tags) addTo(this.#tags, tag.toLowerCase(), memory.id)
  }

  #unmap(memory: Memory): void {
    for (const alias of memory.aliases) removeFrom(this.#aliases, dedupKey(alias), memory.id)
    for (const tag of memory.tags) removeFrom(this.#tags, tag.toLowerCase(), memory.id)
  }
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let set = map.get(key)
  if (!set) {
    set = new Set()
    map.set(key, set)
  }
  set.add(id)
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const set = map.get(key)
  if (!set) return
  set.delete(id)
  if (set.size === 0) map.delete(key)
}
