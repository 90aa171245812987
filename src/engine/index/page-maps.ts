import { isChunk } from '../../core/page/chunk-row.ts'
import type { Memory } from '../../core/types.ts'
import { addTo, removeFrom } from './multimap.ts'

const NONE: ReadonlySet<string> = new Set()

/**
 * Page id → ids of the chunks carrying it, and a page's name (namespace, title, source) and
 * text (namespace, page hash) → its chunk ids, kept beside the catalogue by the index set: a
 * page write finds the page it names, or a twin, without grouping the whole catalogue.
 */
export class PageMaps {
  readonly #pages = new Map<string, Set<string>>()
  readonly #keys = new Map<string, Set<string>>()

  /** Files a row under its page id and keys, unless it is filed under the same ones already. */
  map(memory: Memory, previous: Memory | undefined): void {
    const keys = pageKeysOf(memory)
    if (previous) {
      const before = pageKeysOf(previous)
      // Left in place, as the catalogue keeps a replaced row's position.
      const same =
        previous.pageId === memory.pageId &&
        before.length === keys.length &&
        before.every((k, i) => k === keys[i])
      if (same) return
      this.unmap(previous)
    }
    if (memory.pageId === undefined) return
    addTo(this.#pages, memory.pageId, memory.id)
    for (const key of keys) addTo(this.#keys, key, memory.id)
  }

  unmap(memory: Memory): void {
    if (memory.pageId === undefined) return
    removeFrom(this.#pages, memory.pageId, memory.id)
    for (const key of pageKeysOf(memory)) removeFrom(this.#keys, key, memory.id)
  }

  clear(): void {
    this.#pages.clear()
    this.#keys.clear()
  }

  has(pageId: string): boolean {
    return this.#pages.has(pageId)
  }

  /** Ids of the rows carrying this page id. */
  chunksOf(pageId: string): ReadonlySet<string> {
    return this.#pages.get(pageId) ?? NONE
  }

  /** Ids of the chunks with this namespace and name, or this namespace and page hash. */
  chunksBy(
    namespace: string,
    by: { title: string; source: string } | { hash: string },
  ): ReadonlySet<string> {
    const key = 'hash' in by ? textKey(namespace, by.hash) : nameKey(namespace, by.title, by.source)
    return this.#keys.get(key) ?? NONE
  }
}

const nameKey = (namespace: string, title: string, source: string) =>
  `n\u0000${namespace}\u0000${title}\u0000${source}`
const textKey = (namespace: string, hash: string) => `t\u0000${namespace}\u0000${hash}`

/** The keys a chunk row is found by as part of its page: its name and its text. */
function pageKeysOf(memory: Memory): string[] {
  if (!isChunk(memory)) return []
  return [
    nameKey(memory.namespace, memory.page.title, memory.source),
    textKey(memory.namespace, memory.page.hash),
  ]
}
