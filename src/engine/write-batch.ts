import type { Memory, RememberResult } from '../core/types.ts'
import { VectorIndex } from '../core/vector-index.ts'
import type { ChangeRow, EngramDatabase, VectorRow } from '../storage/index.ts'
import type { IndexSet } from './index-set.ts'
import type { PreparedWrite } from './prepare.ts'

/** What a batch write needs from the engine. */
export interface WriteContext {
  db: EngramDatabase
  indexes: IndexSet
  now: number
  newId: () => string
  /** Passage vectors, or undefined when no model is ready (the backfill embeds later). */
  embed: (texts: string[]) => Promise<Float32Array[] | undefined>
  model: string | null
  nearDuplicate: number
  transact: <T>(body: () => Promise<T>) => Promise<T>
}

export interface WriteOutcome {
  results: RememberResult[]
  seqs: number[]
  /** Memories stored without a vector. */
  unembedded: number
}

const groupKey = (w: { namespace: string; type: string; key: string }) =>
  `${w.namespace}\u0000${w.type}\u0000${w.key}`

/** A write that survived dedup, with the row and vector it will store. */
interface Fresh {
  index: number
  memory: Memory
  vector?: Float32Array
}

/**
 * Writes one batch all-or-nothing: exact dedup (against the table and within the batch),
 * embedding outside any transaction, near dedup against the vector index and the batch, then
 * one transaction for memories, vectors, confirmations and change entries. Indexes change only
 * after the commit, so a failed transaction leaves them as they were.
 */
export async function writeBatch(items: PreparedWrite[], ctx: WriteContext): Promise<WriteOutcome> {
  const { db, indexes, now } = ctx
  const results: RememberResult[] = new Array(items.length)
  const confirmations = new Map<string, number>()
  const confirm = (id: string) => confirmations.set(id, (confirmations.get(id) ?? 0) + 1)

  const existing = await db.memories
    .where('[namespace+type+key]')
    .anyOf(items.map((w) => [w.namespace, w.type, w.key]))
    .toArray()
  const byKey = new Map(existing.map((m) => [groupKey(m), m.id]))
  const firstOfKey = new Map<string, number>()
  /** Items that repeat an earlier item of this batch: index → index of the first. */
  const sameAs = new Map<number, { first: number; match: 'exact' | 'near'; similarity?: number }>()
  const candidates: number[] = []
  items.forEach((w, i) => {
    const key = groupKey(w)
    const id = byKey.get(key)
    if (id) {
      results[i] = { id, status: 'duplicate', match: 'exact' }
      confirm(id)
      return
    }
    const first = firstOfKey.get(key)
    if (first !== undefined) sameAs.set(i, { first, match: 'exact' })
    else {
      firstOfKey.set(key, i)
      candidates.push(i)
    }
  })

  const vectors = new Map<number, Float32Array>()
  for (const i of candidates) {
    const v = items[i]!.vector
    if (v instanceof Float32Array) vectors.set(i, v)
  }
  const toEmbed = candidates.filter((i) => !vectors.has(i))
  if (toEmbed.length > 0) {
    const embedded = await ctx.embed(toEmbed.map((i) => items[i]!.text))
    if (embedded) {
      toEmbed.forEach((i, j) => {
        vectors.set(i, embedded[j]!)
      })
    }
  }

  const fresh: Fresh[] = []
  // Near duplicates within the batch are found by a scan of its own small index, not by
  // comparing every pair (a 500-write batch would cost 125k dot products).
  const batchIndex = new VectorIndex(vectors.values().next().value?.length ?? 1)
  const ids = await takenIds(
    db,
    candidates.map((i) => items[i]!.id).filter((id) => id !== undefined),
  )
  for (const i of candidates) {
    const w = items[i]!
    const vector = vectors.get(i)
    if (vector) {
      const near = nearest(vector, w, ctx, batchIndex)
      if (near && near.similarity >= ctx.nearDuplicate) {
        if (near.id) {
          results[i] = {
            id: near.id,
            status: 'duplicate',
            match: 'near',
            similarity: near.similarity,
          }
          confirm(near.id)
        } else sameAs.set(i, { first: near.index!, match: 'near', similarity: near.similarity })
        continue
      }
    }
    const id = w.id && !ids.has(w.id) ? w.id : ctx.newId()
    ids.add(id)
    const memory = toMemory(id, w, now)
    fresh.push(vector ? { index: i, memory, vector } : { index: i, memory })
    if (vector) batchIndex.add(String(i), vector, ctx.indexes.groupOf(w.namespace, w.type))
    results[i] =
      w.flags.length > 0 ? { id, status: 'created', flags: w.flags } : { id, status: 'created' }
  }
  for (const [i, { first, match, similarity }] of sameAs) {
    const id = results[first]!.id
    results[i] =
      similarity === undefined
        ? { id, status: 'duplicate', match }
        : { id, status: 'duplicate', match, similarity }
    confirm(id)
  }

  const confirmedRows: Memory[] = []
  const seqs = await ctx.transact(async () => {
    if (fresh.length > 0) await db.memories.bulkAdd(fresh.map((f) => f.memory))
    const vectorRows: VectorRow[] = []
    for (const f of fresh) {
      if (f.vector)
        vectorRows.push({
          id: f.memory.id,
          model: ctx.model!,
          dims: f.vector.length,
          vector: f.vector,
        })
    }
    if (vectorRows.length > 0) await db.vectors.bulkPut(vectorRows)
    const confirmedIds = [...confirmations.keys()]
    // Reads see this transaction's own adds, so repeats within the batch confirm fresh rows too.
    const stored = confirmedIds.length > 0 ? await db.memories.bulkGet(confirmedIds) : []
    for (const row of stored) {
      if (!row) continue
      confirmedRows.push({
        ...row,
        confirmations: row.confirmations + confirmations.get(row.id)!,
        confirmedAt: now,
      })
    }
    if (confirmedRows.length > 0) await db.memories.bulkPut(confirmedRows)
    const changes: ChangeRow[] = [
      ...fresh.map((f) => ({ op: 'put' as const, id: f.memory.id, at: now })),
      ...confirmedRows.map((m) => ({ op: 'put' as const, id: m.id, at: now })),
    ]
    if (changes.length === 0) return []
    return db.changes.bulkAdd(changes, { allKeys: true })
  })

  for (const f of fresh) indexes.put(f.memory, f.vector)
  // A confirmation changes no indexed field: the catalogue row is enough.
  for (const row of confirmedRows) indexes.catalogue.set(row.id, row)
  const unembedded = fresh.filter((f) => !f.vector).length
  return { results, seqs: seqs as number[], unembedded }
}

async function takenIds(db: EngramDatabase, wanted: string[]): Promise<Set<string>> {
  if (wanted.length === 0) return new Set()
  const keys = await db.memories.where('id').anyOf(wanted).primaryKeys()
  return new Set(keys)
}

/**
 * Candidates re-scored per near-duplicate check: the int8 estimate is within about 0.01 of the
 * cosine, so a neighbour at 0.97 or above is always among the best few.
 */
const NEAR_RESCORE = 16

/** The closest stored memory of the same namespace and type, or an earlier item of the batch. */
function nearest(
  vector: Float32Array,
  w: PreparedWrite,
  ctx: WriteContext,
  batchIndex: VectorIndex,
): { id?: string; index?: number; similarity: number } | undefined {
  let best: { id?: string; index?: number; similarity: number } | undefined
  const groups = [ctx.indexes.groupOf(w.namespace, w.type)]
  const index = ctx.indexes.vectors
  if (index && index.size > 0) {
    const [top] = index.search(vector, 1, { groups, rescore: NEAR_RESCORE })
    if (top) best = { id: top.id, similarity: top.score }
  }
  if (batchIndex.size > 0) {
    const [top] = batchIndex.search(vector, 1, { groups, rescore: NEAR_RESCORE })
    if (top && (!best || top.score > best.similarity)) {
      best = { index: Number(top.id), similarity: top.score }
    }
  }
  return best
}

/** The stored row for a validated write. */
export function toMemory(id: string, w: PreparedWrite, now: number): Memory {
  const memory: Memory = {
    id,
    namespace: w.namespace,
    type: w.type,
    text: w.text,
    key: w.key,
    tags: w.tags,
    aliases: w.aliases,
    source: w.source,
    trust: w.trust,
    confidence: w.confidence,
    flags: w.flags,
    createdAt: w.createdAt ?? now,
    updatedAt: now,
    confirmedAt: now,
    confirmations: 1,
    recallCount: 0,
  }
  if (w.expiresAt !== undefined) memory.expiresAt = w.expiresAt
  if (w.meta !== undefined) memory.meta = w.meta
  return memory
}
