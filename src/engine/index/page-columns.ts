import type { PageChunkInfo } from '../../core/types.ts'
import type { ListTable, StringTable } from './interned.ts'

const PAGE_KEYS = ['title', 'headingPath', 'start', 'end', 'overlap', 'hash'] as const

/**
 * A chunk's `page` info in the catalogue's columns: title and page hash as codes into its string
 * table, the heading path into its list table, the offsets three numbers a row. Made at the
 * first chunk, so a store without pages pays nothing for them.
 */
export class PageColumns {
  readonly #strings: StringTable
  readonly #lists: ListTable
  #title = new Uint32Array(0)
  #hash = new Uint32Array(0)
  #headings = new Uint32Array(0)
  #spans = new Float64Array(0)

  constructor(strings: StringTable, lists: ListTable) {
    this.#strings = strings
    this.#lists = lists
  }

  /** Makes room for `capacity` rows, once the first chunk came. */
  grow(capacity: number): void {
    if (this.#title.length > 0) this.#resize(capacity)
  }

  /** Files `page` at `slot` if it has the usual shape; false (nothing filed) for any other. */
  write(slot: number, capacity: number, page: unknown): boolean {
    if (typeof page !== 'object' || page === null) return false
    const info = page as Record<string, unknown>
    const keys = Object.keys(info)
    if (keys.length !== PAGE_KEYS.length || PAGE_KEYS.some((k, i) => keys[i] !== k)) return false
    const { title, hash, start, end, overlap } = info
    if (typeof title !== 'string' || typeof hash !== 'string') return false
    if (typeof start !== 'number' || typeof end !== 'number' || typeof overlap !== 'number')
      return false
    const headings = this.#lists.acquire(info.headingPath)
    if (headings === undefined) return false
    if (this.#title.length === 0) this.#resize(capacity)
    this.#title[slot] = this.#strings.acquire(title)
    this.#hash[slot] = this.#strings.acquire(hash)
    this.#headings[slot] = headings
    this.#spans.set([start, end, overlap], slot * 3)
    return true
  }

  release(slot: number): void {
    const title = this.#title[slot]
    if (title === undefined || title === 0) return
    this.#strings.release(title)
    this.#strings.release(this.#hash[slot]!)
    this.#lists.release(this.#headings[slot]!)
    this.#title[slot] = 0
    this.#hash[slot] = 0
    this.#headings[slot] = 0
  }

  /** A fresh `page` of the row at `slot`, or undefined when it has none filed here. */
  read(slot: number): PageChunkInfo | undefined {
    const title = this.#title[slot]
    if (title === undefined || title === 0) return undefined
    const spans = this.#spans
    return {
      title: this.#strings.value(title)!,
      headingPath: this.#lists.value(this.#headings[slot]!).slice(),
      start: spans[slot * 3]!,
      end: spans[slot * 3 + 1]!,
      overlap: spans[slot * 3 + 2]!,
      hash: this.#strings.value(this.#hash[slot]!)!,
    }
  }

  #resize(capacity: number): void {
    const copy = <C extends Uint32Array | Float64Array>(
      column: C,
      length: number,
      make: (n: number) => C,
    ) => {
      const next = make(length)
      next.set(column)
      return next
    }
    this.#title = copy(this.#title, capacity, (n) => new Uint32Array(n))
    this.#hash = copy(this.#hash, capacity, (n) => new Uint32Array(n))
    this.#headings = copy(this.#headings, capacity, (n) => new Uint32Array(n))
    this.#spans = copy(this.#spans, capacity * 3, (n) => new Float64Array(n))
  }
}
