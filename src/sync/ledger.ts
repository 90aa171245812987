import type { PouchDatabase } from './pouch.ts'
import type { VersionVector } from './versions.ts'

/** The version of one document this device last accepted (applied, wrote, or merged). */
export interface Accepted {
  vv: VersionVector
  /** Its revision in the mirror, whose body a repair writes back over a tampered one. */
  rev: string
  deleted: boolean
}

/** `_local` documents never replicate: the server cannot see or change the ledger. */
const PREFIX = '_local/engram-sync-ledger-'
/** Shards, so a step rewrites only the part it changed, not one entry per memory held. */
const SHARDS = 16

/**
 * What this device has seen of every replicated document, kept in the mirror apart from the
 * documents themselves: the server can replay an old sealed body as a new revision, or delete
 * one, but it cannot make a device forget which version it had.
 */
export class Ledger {
  readonly #entries = new Map<string, Accepted>()
  readonly #revs = new Map<number, string>()
  readonly #dirty = new Set<number>()

  static async load(mirror: PouchDatabase): Promise<Ledger> {
    const ledger = new Ledger()
    for (let shard = 0; shard < SHARDS; shard++) {
      try {
        const doc = (await mirror.get(`${PREFIX}${shard}`)) as unknown as {
          _rev: string
          entries: Record<string, Accepted>
        }
        ledger.#revs.set(shard, doc._rev)
        for (const [id, entry] of Object.entries(doc.entries)) ledger.#entries.set(id, entry)
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error
      }
    }
    return ledger
  }

  get(docId: string): Accepted | undefined {
    return this.#entries.get(docId)
  }

  accept(docId: string, entry: Accepted): void {
    this.#entries.set(docId, entry)
    this.#dirty.add(shardOf(docId))
  }

  /** Writes the shards changed since the last save. */
  async save(mirror: PouchDatabase): Promise<void> {
    for (const shard of [...this.#dirty]) {
      const entries: Record<string, Accepted> = {}
      for (const [id, entry] of this.#entries) if (shardOf(id) === shard) entries[id] = entry
      const doc: Record<string, unknown> = { _id: `${PREFIX}${shard}`, entries }
      const rev = this.#revs.get(shard)
      if (rev) doc._rev = rev
      const result = await mirror.put(doc)
      this.#revs.set(shard, result.rev)
      this.#dirty.delete(shard)
    }
  }
}

function shardOf(docId: string): number {
  let h = 0
  for (let i = 0; i < docId.length; i++) h = (h * 31 + docId.charCodeAt(i)) | 0
  return Math.abs(h) % SHARDS
}
