import type { Memory } from '../../core/types.ts'

type Identity = Pick<Memory, 'namespace' | 'type' | 'key'>

/** FNV-1a over namespace, type and key with NUL between them: a bucket, not an identity. */
function hashOf(m: Identity): number {
  let h = 0x811c9dc5
  const mix = (s: string) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
    h = Math.imul(h, 0x01000193)
  }
  mix(m.namespace)
  mix(m.type)
  mix(m.key)
  return h >>> 0
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

  /** `identityOf` reads an id's current namespace, type and key (the catalogue's). */
  constructor(identityOf: (id: string) => Identity | undefined) {
    this.#identityOf = identityOf
  }

  /** Files `memory.id` as the holder of its identity (which it must already have there). */
  file(memory: Identity & { id: string }): void {
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
    const held = this.#buckets.get(hashOf(write))
    if (held === undefined) return undefined
    if (typeof held === 'string') return this.#holds(held, write) ? held : undefined
    return held.find((id) => this.#holds(id, write))
  }

  clear(): void {
    this.#buckets.clear()
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
