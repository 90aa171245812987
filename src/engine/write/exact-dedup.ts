import type { IndexSet } from '../index/index-set.ts'
import type { PreparedWrite } from './prepare.ts'

/** The batch after exact dedup: same namespace, type and dedup key means the same memory. */
export interface ExactDedup {
  /** Item index → id of the stored memory with the same key. */
  stored: Map<number, string>
  /** Item index → index of the first item of this batch with the same key. */
  repeats: Map<number, number>
  /** Items whose key is new to the store and to the batch, in batch order. */
  candidates: number[]
}

/**
 * Matches each item's key against the stored memories (through the indexes, which hold every
 * memory as of the last catch-up) and against the items before it. A memory stored or changed
 * by another tab since that catch-up is caught at commit: a new key by the unique index, a
 * matched memory that changed by the check on the rows read in the transaction.
 */
export function exactDedup(items: readonly PreparedWrite[], indexes: IndexSet): ExactDedup {
  const out: ExactDedup = { stored: new Map(), repeats: new Map(), candidates: [] }
  const firstOfKey = new Map<string, number>()
  items.forEach((w, i) => {
    const id = indexes.idForKey(w)
    if (id !== undefined) {
      out.stored.set(i, id)
      return
    }
    const identity = `${w.namespace}\u0000${w.type}\u0000${w.key}`
    const first = firstOfKey.get(identity)
    if (first !== undefined) out.repeats.set(i, first)
    else {
      firstOfKey.set(identity, i)
      out.candidates.push(i)
    }
  })
  return out
}
