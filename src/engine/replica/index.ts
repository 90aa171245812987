import type { Memory, Relation } from '../../core/types.ts'
import type { ChangeRow, VectorRow } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import type { BackfillScheduler } from '../index/backfill-scheduler.ts'
import { dropEdges } from '../relations.ts'
import { runWrite, type StoredRow } from '../write/index.ts'

/** Local changes after a seq, with the rows and vectors they left, read in one transaction. */
export interface LocalChanges {
  changes: ChangeRow[]
  rows: Map<string, Memory>
  vectors: Map<string, VectorRow>
  /** The log no longer reaches back to the seq asked for: only a full pass is complete. */
  gap: boolean
  /** The last seq read (the one asked for when there is nothing new). */
  last: number
}

/** A memory another device wrote, to store here under its exact-dedup key. */
export interface RemotePut {
  /** The row; `id` is the id to use when no local memory has this key and no row has that id. */
  memory: Memory
  /** Its vector, used when it comes from this device's model; otherwise the backfill embeds. */
  vector?: { model: string; vector: Float32Array }
  /**
   * The local id of the memory this put re-words (another device edited its text, so its key
   * changed): that row is updated in place, keeping its id and edges, unless another memory
   * already holds the new key.
   */
  replaces?: string
}

/** What {@link Replica.apply} did: the local id of each put (undefined: unchanged), deletions. */
export interface Applied {
  ids: string[]
  changed: number
  deleted: number
}

/**
 * The engine's side of multi-device sync (`src/sync/`): reading what changed since a change-log
 * seq, and storing what another device wrote through the same path as a local write — one unit
 * of work (`runWrite`): the write queue, the cross-tab lock, one transaction over rows, vectors,
 * edges and the change log, then the indexes — so recall, `inspect.verify()` and other tabs (which follow the log) see remote
 * changes exactly as they see local ones.
 */
export class Replica {
  readonly #ctx: EngineContext

  /** `backfill`: the engine's, which every write's unit of work (`runWrite`) starts already. */
  constructor(ctx: EngineContext, backfill?: BackfillScheduler) {
    this.#ctx = ctx
    if (backfill) ctx.useBackfill(() => backfill.schedule())
  }

  /** The last change-log seq this engine's indexes reflect (cheap: no database read). */
  get seq(): number {
    return this.#ctx.upkeep.lastSeq
  }

  /** The current embedding model, whose vectors a remote put may bring; null without one. */
  get model(): string | null {
    return this.#ctx.embedder?.model ?? null
  }

  /**
   * The cosine at which this engine takes two memories for one: its model's (`nearDuplicateFor`)
   * unless the engine was opened with `retrieval.nearDuplicate`.
   */
  get nearDuplicate(): number {
    return this.#ctx.retrieval.nearDuplicate
  }

  /** The id of the local memory with this exact-dedup identity, if any. */
  idForKey(identity: Pick<Memory, 'namespace' | 'type' | 'key'>): string | undefined {
    return this.#ctx.indexes.idForKey(identity)
  }

  /** The local memory `id` as the indexes hold it. */
  row(id: string): Memory | undefined {
    return this.#ctx.indexes.catalogue.get(id)
  }

  /** Changes after `seq`, at most `limit`, with the rows and vectors of the ids they put. */
  async changesSince(seq: number, limit: number): Promise<LocalChanges> {
    const ctx = this.#ctx
    const { db } = ctx
    return ctx.mapped(
      db.transaction('r', db.changes, db.memories, db.vectors, async () => {
        const changes = await db.changes.where('seq').above(seq).limit(limit).toArray()
        const oldest = await db.changes.orderBy('seq').first()
        const gap = oldest !== undefined && oldest.seq! > seq + 1
        const ids = [...new Set(changes.filter((c) => c.op === 'put').map((c) => c.id))]
        const [rows, vectors] = await Promise.all([
          db.memories.bulkGet(ids),
          db.vectors.bulkGet(ids),
        ])
        return {
          changes,
          rows: byId(rows),
          vectors: byId(vectors),
          gap,
          last: changes.length > 0 ? changes[changes.length - 1]!.seq! : seq,
        }
      }),
    )
  }

  /** Every memory and the last seq they reflect, for a full pass; vectors only when asked. */
  async allRows(withVectors: boolean): Promise<Omit<LocalChanges, 'changes' | 'gap'>> {
    const ctx = this.#ctx
    const { db } = ctx
    return ctx.mapped(
      db.transaction('r', db.changes, db.memories, db.vectors, async () => {
        const [last, rows, vectors] = await Promise.all([
          db.changes.orderBy('seq').last(),
          db.memories.toArray(),
          withVectors ? db.vectors.toArray() : Promise.resolve([]),
        ])
        return { rows: byId(rows), vectors: byId(vectors), last: last?.seq ?? 0 }
      }),
    )
  }

  /** The engine's clock, so sync's tombstones and the engine's own writes share a time base. */
  now(): number {
    return this.#ctx.clock()
  }

  /** Every relation edge, for sync to compare with what it last replicated. */
  async edges(): Promise<Relation[]> {
    const ctx = this.#ctx
    return ctx.mapped(ctx.db.relations.toArray())
  }

  /**
   * Stores edges another device related or unrelated, as one write (`runWrite`).
   * An edge whose end is not held here is skipped (it is stored once both ends are); relating
   * an edge already held keeps the earlier `createdAt`. Returns how many edges changed.
   */
  async applyEdges(puts: readonly Relation[], removes: readonly Relation[]): Promise<number> {
    const ctx = this.#ctx
    ctx.assertOpen()
    if (puts.length === 0 && removes.length === 0) return 0
    return runWrite(ctx, {
      commit: async () => {
        const { db } = ctx
        let changed = 0
        for (const edge of removes) {
          const key: [string, string, string] = [edge.from, edge.to, edge.kind]
          if (!(await db.relations.get(key))) continue
          await db.relations.delete(key)
          changed++
        }
        for (const edge of puts) {
          const [from, to] = await db.memories.bulkGet([edge.from, edge.to])
          if (!from || !to) continue
          const held = await db.relations.get([edge.from, edge.to, edge.kind])
          if (held && held.createdAt <= edge.createdAt) continue
          await db.relations.put({ ...edge })
          changed++
        }
        // Edges change no index (recall reads them from their table): no change-log entry.
        return { result: changed }
      },
    })
  }

  /** A passage vector of `text` from the current model, or undefined when none is ready. */
  async embed(text: string): Promise<Float32Array | undefined> {
    const embedder = this.#ctx.embedder
    if (embedder?.state !== 'ready' || !this.#ctx.indexes.vectors) return undefined
    try {
      return (await embedder.embed([text], { kind: 'passage' }))[0]
    } catch {
      return undefined
    }
  }

  /** The nearest other memory of the same namespace and type, by cosine. */
  nearest(
    vector: Float32Array,
    identity: Pick<Memory, 'namespace' | 'type'>,
    except: string | undefined,
  ): { id: string; similarity: number } | undefined {
    const { indexes } = this.#ctx
    if (!indexes.vectors || indexes.vectors.size === 0) return undefined
    const groups = [indexes.groupOf(identity.namespace, identity.type)]
    for (const hit of indexes.vectors.search(vector, 2, { groups })) {
      if (hit.id !== except) return { id: hit.id, similarity: hit.score }
    }
    return undefined
  }

  /**
   * Stores remote changes as one write: `deletes` (local ids) first, then `puts`, each matched
   * to the local memory with its namespace, type and key (a new one when there is none). A put
   * that would leave the row as it is writes nothing. A vector from another model, or none, leaves
   * a new or re-worded memory to the backfill.
   *
   * `guard` is the last local seq the caller has pushed: a memory changed here after it is left
   * as it is (deleted or not), since its newer local version has yet to be merged remotely.
   */
  async apply(
    puts: readonly RemotePut[],
    deletes: readonly string[],
    guard = Infinity,
  ): Promise<Applied> {
    const ctx = this.#ctx
    return runWrite(ctx, {
      commit: async () => {
        const { db } = ctx
        const model = this.model
        const dims = ctx.readyDims()
        const now = ctx.clock()
        const changes: ChangeRow[] = []
        const removed: string[] = []
        const changedHere = async (id: string) =>
          ((await db.changes.where('id').equals(id).last())?.seq ?? 0) > guard
        for (const id of deletes) {
          if (!(await db.memories.get(id)) || (await changedHere(id))) continue
          await db.memories.delete(id)
          await db.vectors.delete(id)
          removed.push(id)
          changes.push({ op: 'delete', id, at: now })
        }
        await dropEdges(db, removed)
        const ids: string[] = []
        const stored: StoredRow[] = []
        for (const put of puts) {
          const { memory } = put
          const held =
            (await db.memories
              .where('[namespace+type+key]')
              .equals([memory.namespace, memory.type, memory.key])
              .first()) ?? (put.replaces ? await db.memories.get(put.replaces) : undefined)
          const id = held?.id ?? ((await db.memories.get(memory.id)) ? ctx.newId() : memory.id)
          ids.push(id)
          if (held && (await changedHere(held.id))) continue
          const row = { ...memory, id }
          const usable =
            put.vector && put.vector.model === model && put.vector.vector.length === dims
              ? put.vector.vector
              : undefined
          if (held && sameRow(held, row) && !usable) continue
          await db.memories.put(row)
          const reworded = !held || held.text !== row.text
          if (usable) await db.vectors.put({ id, model: model!, dims, vector: usable })
          else if (reworded) await db.vectors.delete(id)
          stored.push(
            usable
              ? { memory: row, vector: usable, dropVector: false }
              : { memory: row, dropVector: reworded },
          )
          changes.push({ op: 'put', id, at: now })
        }
        const seqs = changes.length > 0 ? await db.changes.bulkAdd(changes, { allKeys: true }) : []
        return {
          result: { ids, changed: stored.length, deleted: removed.length },
          seqs: seqs as number[],
          removed,
          stored,
          unembedded: stored.some((s) => s.dropVector),
        }
      },
    })
  }
}

/** Whether two rows hold the same fields and values (key order aside). */
function sameRow(a: Memory, b: Memory): boolean {
  return stable(a) === stable(b)
}

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  )
}

function byId<T extends { id: string }>(rows: readonly (T | undefined)[]): Map<string, T> {
  const map = new Map<string, T>()
  for (const row of rows) if (row !== undefined) map.set(row.id, row)
  return map
}
