import { mayMerge } from '../../core/near-duplicate.ts'
import { isChunk } from '../../core/page/chunk-row.ts'
import type { Embedder, Memory } from '../../core/types.ts'
import type { ChangeRow, EngramDatabase } from '../../storage/index.ts'
import type { EngineContext } from '../engine-context.ts'
import { chunkEmbeddingText } from '../pages/page-rows.ts'
import { dropEdges } from '../relations.ts'
import { runWrite, type WriteAttempt, type Written } from '../write/index.ts'
import type { IndexSet } from './index-set.ts'

/** A memory of the batch and its new vector. */
interface Embedded {
  memory: Memory
  vector: Float32Array
}

/** What one backfill batch decided for each memory. */
interface BackfillPlan {
  /** Memories that keep their own row and get their vector. */
  keep: Embedded[]
  /** Memories that nearly repeat an older one (`into`), which absorbs them. */
  merges: (Embedded & { into: string })[]
}

/** A batch's plan, as `prepare` hands it to the transaction. */
interface PlannedBatch extends BackfillPlan {
  /** The model that made the vectors. */
  model: string
  now: number
}

/** What one batch committed. */
export interface BackfillOutcome {
  /** Memories embedded or merged; the rest changed underneath and wait for a later batch. */
  done: number
}

/**
 * One batch of memories that have no vector from the current model: embedded first, outside
 * the write lock (a batch of page chunks on a WASM model takes seconds, and other writes go on
 * meanwhile), then one write (`runWrite`) that plans against the indexes as they are by then and
 * stores the vectors. A memory that turns out to be a near duplicate of an older one (the check
 * it missed at write time) is merged: the older memory is confirmed and the newer one removed.
 * A memory whose text changed (here or in another tab) while it was being embedded is left for
 * a later batch, so a vector never describes a text the row no longer holds.
 */
export async function backfillBatch(
  ctx: EngineContext,
  ids: readonly string[],
  embedder: Embedder,
): Promise<BackfillOutcome> {
  const memories = ids.map((id) => ctx.indexes.catalogue.get(id)).filter((m) => m !== undefined)
  if (memories.length === 0) return { done: 0 }
  const texts = memories.map(chunkEmbeddingText)
  const vectors: Float32Array[] = []
  // In small calls: a recall's query embedding, or a write's, waits behind one call for the
  // model, not the whole batch (32 page chunks are seconds on a WASM model).
  for (let start = 0; start < texts.length; start += EMBED_CALL) {
    const slice = texts.slice(start, start + EMBED_CALL)
    vectors.push(...(await embedder.embed(slice, { kind: 'passage' })))
  }
  return runWrite(ctx, backfillAttempt(ctx, memories, vectors, embedder.model))
}

/** Texts per embedding call of a backfill batch. */
const EMBED_CALL = 8

/** The write half of {@link backfillBatch}: plan under the lock, commit in one transaction. */
function backfillAttempt(
  ctx: EngineContext,
  memories: Memory[],
  vectors: Float32Array[],
  model: string,
): WriteAttempt<PlannedBatch, BackfillOutcome> {
  return {
    prepare: async () => {
      const plan = planBackfill(memories, vectors, ctx.indexes, ctx.retrieval.nearDuplicate)
      return { ...plan, model, now: ctx.clock() }
    },
    commit: (plan) => commitBackfill(plan, ctx.db),
  }
}

/**
 * Near dedup against the vector index: only an older memory absorbs a newer one, so the merge
 * direction is stable whichever tab runs the backfill.
 */
function planBackfill(
  memories: Memory[],
  vectors: Float32Array[],
  indexes: IndexSet,
  threshold: number,
): BackfillPlan {
  const plan: BackfillPlan = { keep: [], merges: [] }
  memories.forEach((memory, i) => {
    const vector = vectors[i]!
    // A chunk is never merged: no neighbour search for it (a large page is thousands of them).
    if (isChunk(memory)) {
      plan.keep.push({ memory, vector })
      return
    }
    const groups = [indexes.groupOf(memory.namespace, memory.type)]
    const [top] = indexes.vectors?.search(vector, 1, { groups }) ?? []
    const target = top && indexes.catalogue.get(top.id)
    const mergeable = target !== undefined && !isChunk(target) && mayMerge(memory.text, target.text)
    if (top && top.score >= threshold && top.id < memory.id && mergeable) {
      plan.merges.push({ memory, vector, into: top.id })
    } else plan.keep.push({ memory, vector })
  })
  return plan
}

/**
 * Inside the transaction, against the rows as they are now: a merge whose older memory is gone
 * keeps the newer one instead, and a memory whose text changed (or that is gone) is skipped.
 */
async function commitBackfill(
  plan: PlannedBatch,
  db: EngramDatabase,
): Promise<Written<BackfillOutcome>> {
  const { now } = plan
  const keep = [...plan.keep]
  const confirmed: Memory[] = []
  const absorbed: string[] = []
  for (const merge of plan.merges) {
    const [target, row] = await db.memories.bulkGet([merge.into, merge.memory.id])
    if (!row || row.text !== merge.memory.text) continue
    if (!target) {
      keep.push(merge)
      continue
    }
    const into = {
      ...target,
      confirmations: target.confirmations + row.confirmations,
      confirmedAt: now,
    }
    await db.memories.put(into)
    await db.memories.delete(row.id)
    await db.vectors.delete(row.id)
    confirmed.push(into)
    absorbed.push(row.id)
  }
  const rows = await db.memories.bulkGet(keep.map((k) => k.memory.id))
  const stored = keep.filter((k, i) => rows[i]?.text === k.memory.text)
  if (stored.length > 0) {
    const { model } = plan
    await db.vectors.bulkPut(
      stored.map(({ memory, vector }) => ({ id: memory.id, model, dims: vector.length, vector })),
    )
  }
  await dropEdges(db, absorbed)
  const changes: ChangeRow[] = [
    ...stored.map(({ memory }) => ({ op: 'put' as const, id: memory.id, at: now })),
    ...absorbed.map((id) => ({ op: 'delete' as const, id, at: now })),
    ...confirmed.map((row) => ({ op: 'put' as const, id: row.id, at: now })),
  ]
  const seqs = changes.length > 0 ? await db.changes.bulkAdd(changes, { allKeys: true }) : []
  return {
    result: { done: stored.length + absorbed.length },
    seqs: seqs as number[],
    removed: absorbed,
    vectors: stored.map(({ memory, vector }) => ({ id: memory.id, vector })),
    refreshed: confirmed,
  }
}
