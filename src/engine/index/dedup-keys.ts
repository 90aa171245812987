import type { Memory } from '../../core/types.ts'

type Identity = Pick<Memory, 'namespace' | 'type' | 'key'>

/** FNV-1a over namespace, type and key with NUL between them: a bucket, not an identity. */
function hashOf(m: Identity): number {
  return mix(mix(mix(0x811c9dc5, m.namespace), m.type), m.key) >>> 0
}

/** `h` with the text's UTF-16 units mixed in, then the NUL after it. */
function mix(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return Math.imul(h, 0x01000193)
}

/**
 * The exact-dedup identity of each memory (namespace, type, key: unique per database, the
 * `[namespace+type+key]` index) → the id holding it, for the index set. Filed by a 32-bit hash
 * of the identity, each bucket holding ids whose rows the catalogue is asked to confirm: no
 * string per memory (the `namespace\0type\0key` strings were a text's copy each, 17 MB at 100k).
 *
 * The last id filed under an identity holds it, and dropping an id frees the identity only if
 * that id holds it: replay applies changes one id at a time, so two rows may share a key for a
 * moment.
 */
export class DedupKeys {
  readonly #buckets = new Map<number, string | string[]>()
  readonly #identityOf: (id: string) => Identity | undefined
  /** The rows of a catalogue adopted whole, not filed yet (see {@link DedupKeys.adoptLater}). */
  #unfiled: (() => Iterable<Identity & { id: string }>) | undefined

  /** `identityOf` reads an id's current namespace, type and key (the catalogue's). */
  constructor(identityOf: (id: string) => Identity | undefined) {
    this.#identityOf = identityOf
  }

  /**
   * For a catalogue adopted whole (a snapshot's): its rows are filed, from `rows()` as they are
   * by then, at the first call that reads or changes the keys (a write's dedup check, a replay),
   * not in the cold start before the first answer, which needs none (a fifth of the adoption).
   * Filing them in catalogue order files each identity under the id it would have eagerly.
   */
  adoptLater(rows: () => Iterable<Identity & { id: string }>): void {
    this.clear()
    this.#unfiled = rows
  }

  /** Files `memory.id` as the holder of its identity (which it must already have there). */
  file(memory: Identity & { id: string }): void {
    this.#fileUnfiled()
    this.#file(memory)
  }

  #file(memory: Identity & { id: string }): void {
    const hash = hashOf(memory)
    const held = this.#buckets.get(hash)
    if (held === undefined) {
      this.#buckets.set(hash, memory.id)
      return
    }
    const ids = typeof held === 'string' ? [held] : held
    const at = ids.findIndex((id) => id === memory.id || this.#holds(id, memory))
    if (at === -1) ids.push(memory.id)
    else ids[at] = memory.id
    this.#buckets.set(hash, ids.length === 1 ? ids[0]! : ids)
  }

  /** Drops `memory.id` as holder of `memory`'s identity, if it holds it. */
  drop(memory: Identity & { id: string }): void {
    this.#fileUnfiled()
    const hash = hashOf(memory)
    const held = this.#buckets.get(hash)
    if (held === memory.id) this.#buckets.delete(hash)
    else if (Array.isArray(held)) {
      const ids = held.filter((id) => id !== memory.id)
      this.#buckets.set(hash, ids.length === 1 ? ids[0]! : ids)
    }
  }

  /** The id holding this identity, if one does. */
  idFor(write: Identity): string | undefined {
    this.#fileUnfiled()
    const held = this.#buckets.get(hashOf(write))
    if (held === undefined) return undefined
    if (typeof held === 'string') return this.#holds(held, write) ? held : undefined
    return held.find((id) => this.#holds(id, write))
  }

  clear(): void {
    this.#buckets.clear()
    this.#unfiled = undefined
  }

  #fileUnfiled(): void {
    const rows = this.#unfiled
    if (!rows) return
    this.#unfiled = undefined
    for (const row of rows()) this.#file(row)
  }

  #holds(id: string, write: Identity): boolean {
    const m = this.#identityOf(id)
    return (
      m !== undefined &&
      m.key === write.key &&
      m.namespace === write.namespace &&
      m.type === write.type
    )
  }
}
