/**
 * Which recalled hits are worth a model's attention, in one rule for every agent path
 * (`memory_search` and `contextFor`): the agent's `minCosine` is passed to recall as the relevance
 * floor's raw cosine bar, so the engine applies it, before `k` is cut, in the same stage as its
 * calibrated bars. A memory only the vector list found is still *some* cosine away from any
 * query, however unrelated; a model without a calibration (bge, MiniLM) has no other bar.
 */
import type { RecallOptions } from '../core/types.ts'

/**
 * The recall `floor` for the agent's `minCosine`: `-1` keeps every hit (the floor off, its
 * calibrated bars too); anything else is the engine's floor with `minCosine` as its raw bar for
 * a hit that matched no query term, alias or tag.
 *
 * @example
 * relevanceFloor(0.5) // => { minCosine: 0.5 }
 * relevanceFloor(-1) // => false
 */
export function relevanceFloor(minCosine: number): NonNullable<RecallOptions['floor']> {
  return minCosine <= -1 ? false : { minCosine }
}
