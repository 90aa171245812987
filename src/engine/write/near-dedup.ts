import { mayMerge } from '../../core/near-duplicate.ts'
import { NEAR_DUPLICATE_RESCORE } from '../../core/options.ts'
import { type VectorHit, VectorIndex } from '../../core/vector/index.ts'
import type { IndexSet } from '../index-set.ts'
import { isChunk } from '../pages/page-rows.ts'
import type { PreparedWrite } from '../prepare.ts'
import { MAX_RELATED } from './neighbours.ts'

/** The candidates after near dedup. */
export interface NearDedup {
  /** Item index → the stored memory it nearly repeats, and the cosine. */
  stored: Map<number, { id: string; similarity: number }>
  /** Item index → the earlier new item of this batch it nearly repeats, and the cosine. */
  repeats: Map<number, { first: number; similarity: number }>
  /** Candidates that are new memories, in batch order. */
  fresh: number[]
  /**
   * Item index → its closest stored memories of the group (up to `MAX_RELATED`), from the one
   * search of the store each item gets: the `related` neighbours come from the same hits.
   */
  searched: Map<number, VectorHit[]>
}

/**
 * Compares each embedded candidate with its nearest neighbour of the same namespace and type,
 * among the stored memories and the batch's earlier new items: at a cosine of `threshold` or
 * more it is that memory. A candidate without a vector is new (the backfill checks it later).
 */
export function nearDedup(
  items: readonly PreparedWrite[],
  candidates: readonly number[],
  vectors: ReadonlyMap<number, Float32Array>,
  indexes: IndexSet,
  threshold: number,
): NearDedup {
  const out: NearDedup = { stored: new Map(), repeats: new Map(), fresh: [], searched: new Map() }
  // Near duplicates within the batch are found by a scan of its own small index, not by
  // comparing every pair (a 500-write batch would cost 125k dot products).
  const batch = new VectorIndex(vectors.values().next().value?.length ?? 1)
  for (const i of candidates) {
    const w = items[i]!
    const vector = vectors.get(i)
    if (vector) {
      const group = indexes.groupOf(w.namespace, w.type)
      const storedHits = searchStored(vector, group, indexes.vectors)
      if (storedHits) out.searched.set(i, storedHits)
      const near = nearest(vector, group, storedHits, batch)
      if (near && near.similarity >= threshold && mayMergeWith(w.text, near, items, indexes)) {
        if (near.id !== undefined) out.stored.set(i, { id: near.id, similarity: near.similarity })
        else out.repeats.set(i, { first: near.first!, similarity: near.similarity })
        continue
      }
      batch.add(String(i), vector, group)
    }
    out.fresh.push(i)
  }
  return out
}

/**
 * The text guard after the cosine test: two facts of one template ("Bye Nate" / "Bye Joanna",
 * "port 7443" / "port 8443") can score above any threshold, so names, numbers and speakers must
 * agree too; and a page chunk is never a fact's duplicate.
 */
function mayMergeWith(
  text: string,
  near: { id?: string; first?: number },
  items: readonly { text: string }[],
  indexes: IndexSet,
): boolean {
  if (near.id === undefined) return mayMerge(text, items[near.first!]!.text)
  const stored = indexes.catalogue.get(near.id)
  return stored !== undefined && !isChunk(stored) && mayMerge(text, stored.text)
}

/**
 * The closest stored memories of the group, as many as `related` reports: the top one is the
 * same as a search for one (both rescore `NEAR_DUPLICATE_RESCORE` candidates).
 */
function searchStored(
  vector: Float32Array,
  group: number,
  stored: VectorIndex | null,
): VectorHit[] | undefined {
  if (!stored || stored.size === 0) return undefined
  return stored.search(vector, MAX_RELATED, { groups: [group], rescore: NEAR_DUPLICATE_RESCORE })
}

/** The closest stored memory of the group, or an earlier item of the batch if that is closer. */
function nearest(
  vector: Float32Array,
  group: number,
  storedHits: readonly VectorHit[] | undefined,
  batch: VectorIndex,
): { id?: string; first?: number; similarity: number } | undefined {
  let best: { id?: string; first?: number; similarity: number } | undefined
  const filter = { groups: [group], rescore: NEAR_DUPLICATE_RESCORE }
  const top = storedHits?.[0]
  if (top) best = { id: top.id, similarity: top.score }
  if (batch.size > 0) {
    const [inBatch] = batch.search(vector, 1, filter)
    if (inBatch && (!best || inBatch.score > best.similarity)) {
      best = { first: Number(inBatch.id), similarity: inBatch.score }
    }
  }
  return best
}
