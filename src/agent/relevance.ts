/**
 * Which recalled hits are worth a model's attention. Recall ranks every memory that any list
 * returned; a memory only the vector list found is still *some* cosine away from any query,
 * however unrelated, so those need a floor before they go into a prompt.
 */
import type { RecallHit } from '../core/types.ts'

/**
 * True when a keyword, alias or tag list found the hit, or its cosine to the query is at least
 * `minCosine`.
 *
 * @example
 * isRelevant({ via: 'vec', cosine: 0.02 }, 0.5) // => false
 * isRelevant({ via: 'both', cosine: 0.02 }, 0.5) // => true
 */
export function isRelevant(hit: Pick<RecallHit, 'via' | 'cosine'>, minCosine: number): boolean {
  return hit.via !== 'vec' || (hit.cosine ?? Number.NEGATIVE_INFINITY) >= minCosine
}
