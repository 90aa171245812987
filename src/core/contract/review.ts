/** The housekeeping pass: its options, its report and the optional judge. Types only; `core/types.ts` gathers them. */

import type { Memory, Relation, Tier } from './memory.ts'

/**
 * A pair `review()` asks the judge about: two memories of one namespace and type, close enough
 * to be the same fact (`duplicate`, cosine ≥ `nearDuplicate`: merged unless the judge says
 * otherwise) or to be about the same thing (`related`: left alone unless the judge decides).
 * `newer` was created after `older`.
 */
export interface JudgeCase {
  kind: 'duplicate' | 'related'
  older: Memory
  newer: Memory
  similarity: number
}

/**
 * The judge's word on a case: `merge` (the newer folds into the older), `supersedes` or
 * `contradicts` (an edge from the newer to the older), or `keep` (nothing).
 */
export type JudgeVerdict = 'merge' | 'supersedes' | 'contradicts' | 'keep'

/**
 * A host-supplied judge for `review()`, an LLM say: one verdict per case, in order (`undefined`
 * or a missing entry keeps the rule's answer). May be async; over a worker, pass it wrapped in
 * `Comlink.proxy`.
 */
export type JudgeHook = (
  cases: JudgeCase[],
) => (JudgeVerdict | undefined)[] | Promise<(JudgeVerdict | undefined)[]>

/** Options for {@link MemoryApi.review}. */
export interface ReviewOptions {
  /** Decides merges and conflicts; without it the rules stand. */
  judge?: JudgeHook
  /** How long one call of the judge may take, 1..600000 ms. @default 10000 */
  judgeTimeoutMs?: number
}

/** What a `review()` did, each with the ids it touched. */
export interface ReviewReport {
  /** Memories looked at (all of them, or those left when a review resumed). */
  scanned: number
  /** Expired memories archived (kept, listed, exportable) during their grace period. */
  archived: string[]
  /** Memories removed for good: expired longer than `graceDays`. */
  removed: string[]
  /** Memories flagged `needsReview` (current confidence under `reviewBelow`). */
  flagged: string[]
  /** Near duplicates folded into the older memory. */
  merged: { into: string; from: string; similarity: number }[]
  /** Edges the judge asked for. */
  related: Relation[]
  /** Working (or episodic) memories moved up a tier for being recalled often. */
  promoted: { id: string; tier: Tier }[]
  /** Present when a judge was given: how its calls went (`failed` or `timeout` if any did). */
  judge?: 'applied' | 'failed' | 'timeout'
  /** The review carried on where an interrupted one stopped. */
  resumed: boolean
  /** Wall time, milliseconds. */
  tookMs: number
}
