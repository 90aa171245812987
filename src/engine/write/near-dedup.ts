import { mayMerge } from '../../core/near-duplicate.ts'
import { NEAR_DUPLICATE_RESCORE } from '../../core/options.ts'
import { isChunk } from '../../core/page/chunk-row.ts'
import { batchNearPairs } from '../../core/vector/batch-near.ts'
import type { VectorHit, VectorIndex } from '../../core/vector/index.ts'
import type { IndexSet } from '../index/index-set.ts'
import { MAX_RELATED } from './neighbours.ts'
import type { PreparedWrite } from './prepare.ts'

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
 * `relatedFloor` is the lowest cosine `related` reports: the stored hits kept in `searched` reach
 * down to it (they reach only to `threshold` without it).
 */
export function nearDedup(
  items: readonly PreparedWrite[],
  candidates: readonly number[],
  vectors: ReadonlyMap<number, Float32Array>,
  indexes: IndexSet,
  threshold: number,
  relatedFloor = threshold,
): NearDedup {
  const out: NearDedup = { stored: new Map(), repeats: new Map(), fresh: [], searched: new Map() }
  // The stored search keeps hits down to the lower of the two cosines that matter, so one
  // search serves both the duplicate test and `related`.
  const floor = Math.min(threshold, relatedFloor)
  const embedded = candidates.filter((i) => vectors.has(i))
  const groups = embedded.map((i) => indexes.groupOf(items[i]!.namespace, items[i]!.type))
  // The batch against itself once (core/vector/batch-near.ts: every pair while small, SimHash bands
  // from `BATCH_EXACT_BELOW` rows), not one search of a growing index per item.
  const pairs = batchNearPairs(
    embedded.map((i) => vectors.get(i)!),
    groups,
    threshold,
  )
  const kept = new Uint8Array(embedded.length)
  let at = 0
  for (const i of candidates) {
    const w = items[i]!
    const vector = vectors.get(i)
    if (vector) {
      const row = at++
      const group = groups[row]!
      const storedHits = searchStored(vector, group, indexes.vectors, floor)
      if (storedHits) out.searched.set(i, storedHits)
      const earlier = pairs.get(row)?.find((p) => kept[p.row] === 1)
      const near = nearest(
        storedHits?.[0],
        earlier && { first: embedded[earlier.row]!, similarity: earlier.score },
      )
      if (near && near.similarity >= threshold && mayMergeWith(w.text, near, items, indexes)) {
        if (near.id !== undefined) out.stored.set(i, { id: near.id, similarity: near.similarity })
        else out.repeats.set(i, { first: near.first!, similarity: near.similarity })
        continue
      }
      kept[row] = 1
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
 * The closest stored memories of the group at `floor` or more, as many as `related` reports;
 * the top one is what a search for one finds. A small store is scanned (both rescore
 * `NEAR_DUPLICATE_RESCORE` candidates); from `NEAR_SCAN_BELOW` rows on, the index answers
 * through its SimHash buckets when only duplicates are wanted, and through its binary pass
 * over every row's sign code while `related` is (a floor of 0.8 is too low for the buckets,
 * which find only 58 % of the scan's hits there). Both find what the scan finds on MSC + LoCoMo
 * (`scripts/bench/near-dedup.ts`, docs/benchmarks.md).
 */
function searchStored(
  vector: Float32Array,
  group: number,
  stored: VectorIndex | null,
  floor: number,
): VectorHit[] | undefined {
  if (!stored || stored.size === 0) return undefined
  return stored.searchNear(vector, MAX_RELATED, {
    minScore: floor,
    groups: [group],
    rescore: NEAR_DUPLICATE_RESCORE,
  })
}

/** The closest stored memory, or the closest earlier item of the batch if that is closer. */
function nearest(
  stored: VectorHit | undefined,
  earlier: { first: number; similarity: number } | undefined,
): { id?: string; first?: number; similarity: number } | undefined {
  if (earlier && (!stored || earlier.similarity > stored.score)) return earlier
  return stored && { id: stored.id, similarity: stored.score }
}
