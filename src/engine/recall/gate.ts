import { RecallBusyError } from '../../core/errors.ts'
import { DEFAULT_RECALL_QUEUE, type RecallQueueOptions } from '../../core/options.ts'

/**
 * Bounds the recalls one engine works on (issue 22 §13: a thousand at once held a thousand sets
 * of lists and explanations in the heap together): at most `concurrency` run, the next
 * `maxQueued` wait in arrival order, and any beyond are refused at once with
 * {@link RecallBusyError}, before they read anything.
 */
export class RecallGate {
  readonly #limits: RecallQueueOptions
  #running = 0
  readonly #waiting: (() => void)[] = []

  /** `limits` merge over {@link DEFAULT_RECALL_QUEUE}, checked by `checkEngineOptions`. */
  constructor(limits: Partial<RecallQueueOptions> = {}) {
    this.#limits = { ...DEFAULT_RECALL_QUEUE, ...limits }
  }

  /**
   * Runs `task` when a turn is free.
   *
   * @throws RecallBusyError when `concurrency` run and `maxQueued` already wait.
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.#enter()
    try {
      return await task()
    } finally {
      this.#leave()
    }
  }

  async #enter(): Promise<void> {
    const { concurrency, maxQueued } = this.#limits
    if (this.#running < concurrency) {
      this.#running++
      return
    }
    if (this.#waiting.length >= maxQueued) {
      throw new RecallBusyError(
        `too many recalls at once: expected at most ${concurrency} running and ${maxQueued} ` +
          `waiting (recallQueue), got one more; retry once some have answered`,
      )
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  #leave(): void {
    // The turn passes straight to the next in line, so a newcomer cannot overtake the queue.
    const next = this.#waiting.shift()
    if (next) next()
    else this.#running--
  }
}
