import type { HitContext, Memory, RecallHit } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'

/**
 * `context: n`: each hit that is a chunk of a page or a turn of a session (a memory with a
 * `pageId`) brings the `n` chunks before and after it in `chunk` order, as `hit.context`. The
 * neighbours pass the recall's own filter (`accept`: a flagged or expired turn is no more shown
 * beside a hit than as one), and the run stops at the first that does not, so what is shown
 * around a hit is always contiguous. Facts, and hits with no neighbour, get no `context`.
 *
 * @example
 * attachContext(hits, indexes, 1, scope.accept)[0].context
 * // => { before: [chunk 3], after: [chunk 5] } for a hit on chunk 4
 */
export function attachContext(
  hits: RecallHit[],
  indexes: Pick<IndexSet, 'pageRows'>,
  n: number,
  accept: (id: string) => boolean,
): RecallHit[] {
  if (n === 0) return hits
  return hits.map((hit) => {
    const { pageId, chunk, namespace } = hit.memory
    if (pageId === undefined || chunk === undefined) return hit
    const rows = indexes.pageRows(pageId, namespace)
    const at = rows?.findIndex((row) => row.id === hit.id) ?? -1
    if (!rows || at < 0) return hit
    const context: HitContext = { before: [], after: [] }
    for (let i = at - 1; i >= Math.max(0, at - n) && accept(rows[i]!.id); i--) {
      context.before.unshift(rows[i]! as Memory)
    }
    for (let i = at + 1; i <= Math.min(rows.length - 1, at + n) && accept(rows[i]!.id); i++) {
      context.after.push(rows[i]! as Memory)
    }
    if (context.before.length === 0 && context.after.length === 0) return hit
    return { ...hit, context }
  })
}
