import { AUTO_REVIEW_EVERY_MS } from '../../core/options.ts'
import { reviewLockName } from '../../storage/names.ts'
import type { EngineContext } from '../engine-context.ts'
import type { AutoReviewOptions } from '../engine-options.ts'
import { runReview } from './index.ts'
import { lastReview } from './progress.ts'

/** How the automatic review runs; see `EngineOptions.autoReview`. */

/** Holds `name` for `task` if no other tab (or engine) does; resolves false without running otherwise. */
type TryLock = (name: string, task: () => Promise<void>) => Promise<boolean>

const heldHere = new Set<string>()

/** A Web Lock taken only if free; in hosts without Web Locks, one per name in this process. */
function tryLock(name: string, task: () => Promise<void>): Promise<boolean> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
  if (locks) {
    return locks.request(name, { ifAvailable: true }, async (lock) => {
      if (!lock) return false
      await task()
      return true
    })
  }
  if (heldHere.has(name)) return Promise.resolve(false)
  heldHere.add(name)
  return task()
    .then(() => true)
    .finally(() => heldHere.delete(name))
}

/**
 * The daily review, run by the memory itself: once writes have been quiet for `idleMs`, if no
 * review completed in the last day (or one was cut short), it runs one. One tab only: the
 * review lock is taken if free and skipped if not, and the due-check is made under it, so a
 * second tab finds the day's review done. A failed review is tried again at the next quiet spell.
 */
export class ReviewScheduler {
  readonly #ctx: EngineContext
  readonly #idleMs: number
  readonly #tryLock: TryLock
  #timer: ReturnType<typeof setTimeout> | undefined
  #running: Promise<boolean> | undefined
  #stopped = false

  constructor(ctx: EngineContext, options: AutoReviewOptions, lock: TryLock = tryLock) {
    this.#ctx = ctx
    this.#idleMs = options.idleMs ?? 30_000
    this.#tryLock = lock
  }

  /** Arms (or re-arms) the quiet-time timer. */
  poke(): void {
    if (this.#stopped) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      if (this.#ctx.queue.pending > 0) return this.poke()
      this.#ctx.track(this.runIfDue().catch(() => this.poke()))
    }, this.#idleMs)
    // A quiet-time review must not keep a Node process alive that has nothing else to do.
    if (typeof this.#timer === 'object') this.#timer.unref?.()
  }

  /** Runs a review if one is due and no other tab is at it; true when this call ran one. */
  runIfDue(): Promise<boolean> {
    this.#running ??= this.#tryLock(reviewLockName(this.#ctx.name), async () => {
      if (await this.#due()) {
        await runReview(this.#ctx, {})
        this.#ran = true
      }
    })
      .then((locked) => {
        const ran = locked && this.#ran
        this.#ran = false
        return ran
      })
      .finally(() => {
        this.#running = undefined
      })
    return this.#running
  }

  #ran = false

  async #due(): Promise<boolean> {
    const ctx = this.#ctx
    if (ctx.connection.isClosed) return false
    if (await ctx.mapped(ctx.db.meta.get('review:progress'))) return true
    const done = await ctx.mapped(lastReview(ctx))
    return !done || ctx.clock() - done.completedAt >= AUTO_REVIEW_EVERY_MS
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#timer)
  }
}
