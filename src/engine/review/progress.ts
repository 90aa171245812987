import type { EngineContext } from '../engine-context.ts'

/** Where an interrupted review stopped, kept in `meta` so the next one carries on. */
export interface ReviewProgress {
  startedAt: number
  /** Merge candidates are memories created at or after this (the last full review's start). */
  since: number
  /** The last id of the last chunk committed. */
  cursor: string
}

/** The last review that ran to the end. */
export interface ReviewDone {
  startedAt: number
  completedAt: number
}

export const PROGRESS_KEY = 'review:progress'
export const DONE_KEY = 'review:done'

/** When the last complete review started and ended; undefined if none has. */
export async function lastReview(ctx: EngineContext): Promise<ReviewDone | undefined> {
  return (await ctx.db.meta.get(DONE_KEY))?.value as ReviewDone | undefined
}
