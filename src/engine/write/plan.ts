import { startConfidence, tierOf } from '../../core/lifecycle.ts'
import { DEFAULT_LIFECYCLE, type LifecycleOptions } from '../../core/options.ts'
import type { Memory, RememberResult } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { ExactDedup } from './exact-dedup.ts'
import type { NearDedup } from './near-dedup.ts'
import type { PreparedWrite } from './prepare.ts'

/** A new memory of the batch: its row, and its vector when it has one. */
export interface FreshRow {
  memory: Memory
  vector?: Float32Array
}

/** A stored memory the batch confirms, and what dedup took it to be. */
export interface Confirmation {
  /** How many items of the batch repeat it. */
  count: number
  namespace: string
  type: string
  /** The dedup key it matched; unset for a near match, which matched its vector. */
  key?: string
}

/** What one batch will write, and what each caller is told. */
export interface BatchPlan {
  results: RememberResult[]
  fresh: FreshRow[]
  /** Stored memories to confirm, by id. */
  confirmations: Map<string, Confirmation>
}

/**
 * Turns the dedup verdicts into rows and results: each new item gets its row (the id it asked
 * for when no memory has it, else a fresh one from `newId`), each repeat the id of what it
 * repeats. A new memory repeated within the batch is stored with those confirmations counted;
 * a stored one is confirmed in the commit.
 */
export function planBatch(
  items: readonly PreparedWrite[],
  exact: ExactDedup,
  near: NearDedup,
  vectors: ReadonlyMap<number, Float32Array>,
  ctx: { indexes: IndexSet; newId: () => string; now: number; lifecycle?: LifecycleOptions },
): BatchPlan {
  const results: RememberResult[] = new Array(items.length)
  const fresh = new Map<string, FreshRow>()
  const confirmations = new Map<string, Confirmation>()
  const taken = new Set<string>()
  for (const i of near.fresh) {
    const w = items[i]!
    const id = w.id && !taken.has(w.id) && !ctx.indexes.catalogue.has(w.id) ? w.id : ctx.newId()
    taken.add(id)
    const vector = vectors.get(i)
    const memory = toMemory(id, w, ctx.now, ctx.lifecycle)
    fresh.set(id, vector ? { memory, vector } : { memory })
    results[i] =
      w.flags.length > 0 ? { id, status: 'created', flags: w.flags } : { id, status: 'created' }
  }
  const confirm = (id: string, w: PreparedWrite, key?: string) => {
    const held = confirmations.get(id)
    if (held) held.count++
    else
      confirmations.set(id, {
        count: 1,
        namespace: w.namespace,
        type: w.type,
        ...(key ? { key } : {}),
      })
  }
  /** Item `i` says what item `first` says: a new row counts it, a stored memory is confirmed. */
  const repeat = (i: number, first: number, match: 'exact' | 'near', similarity?: number) => {
    const id = results[first]!.id
    results[i] =
      similarity === undefined
        ? { id, status: 'duplicate', match }
        : { id, status: 'duplicate', match, similarity }
    const row = fresh.get(id)
    if (row) row.memory.confirmations++
    else confirm(id, items[first]!)
  }
  for (const [i, id] of exact.stored) {
    results[i] = { id, status: 'duplicate', match: 'exact' }
    confirm(id, items[i]!, items[i]!.key)
  }
  for (const [i, { id, similarity }] of near.stored) {
    results[i] = { id, status: 'duplicate', match: 'near', similarity }
    confirm(id, items[i]!)
  }
  // Near repeats first: an exact repeat may repeat an item that is itself a near repeat.
  for (const [i, { first, similarity }] of near.repeats) repeat(i, first, 'near', similarity)
  for (const [i, first] of exact.repeats) repeat(i, first, 'exact')
  return { results, fresh: [...fresh.values()], confirmations }
}

/**
 * The stored row for a validated write (an import's `restored` fields over the fresh ones); the
 * confidence and tier the write left out come from `lifecycle` (by source and by type).
 */
export function toMemory(
  id: string,
  w: PreparedWrite,
  now: number,
  lifecycle: LifecycleOptions = DEFAULT_LIFECYCLE,
): Memory {
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
    confidence: startConfidence(w.confidence, w.source, w.trust, lifecycle),
    tier: w.tier ?? tierOf(w, lifecycle),
    flags: w.flags,
    createdAt: w.createdAt ?? now,
    updatedAt: now,
    confirmedAt: now,
    confirmations: 1,
    recallCount: 0,
  }
  if (w.expiresAt !== undefined) memory.expiresAt = w.expiresAt
  if (w.happenedAt !== undefined) memory.happenedAt = w.happenedAt
  if (w.happenedUntil !== undefined) memory.happenedUntil = w.happenedUntil
  if (w.summary !== undefined) memory.summary = w.summary
  if (w.meta !== undefined) memory.meta = w.meta
  // An import brings back what the export said about the memory's history.
  if (w.restored !== undefined) Object.assign(memory, w.restored)
  return memory
}
