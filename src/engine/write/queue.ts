/**
 * Serialises writes: a task starts only after the previous one settled, so a dedup check and
 * the insert that depends on it never interleave with another writer in this engine.
 */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve()
  #pending = 0
  #demand = signal()

  run<T>(task: () => Promise<T>): Promise<T> {
    this.#demanded()
    this.#pending++
    const result = this.#tail.then(task, task).finally(() => {
      this.#pending--
    })
    this.#tail = result.catch(() => {})
    return result
  }

  /** Tasks queued or running. */
  get pending(): number {
    return this.#pending
  }

  /**
   * Settles when a task is queued or the queue is drained: a task that waits in its turn for a
   * quiet spell (the key check after an open) gives way to what then waits behind it.
   */
  get demand(): Promise<void> {
    return this.#demand.promise
  }

  /** Resolves once everything queued so far has settled. */
  async drain(): Promise<void> {
    this.#demanded()
    await this.#tail
  }

  #demanded(): void {
    this.#demand.fire()
    this.#demand = signal()
  }
}

/** A promise and what settles it (`Promise.withResolvers`, which Node 20 lacks). */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void
  const promise = new Promise<void>((resolve) => {
    fire = resolve
  })
  return { promise, fire }
}

interface Waiting<I, R> {
  item: I
  resolve: (result: R) => void
  reject: (error: unknown) => void
}

/**
 * Coalesces single writes that arrive together into one batch (one embedding call, one
 * transaction). Items submitted while a batch waits in the queue join it; items submitted while
 * it runs go to the next one.
 */
export class Coalescer<I, R> {
  readonly #queue: WriteQueue
  readonly #flush: (items: I[]) => Promise<R[]>
  readonly #maxBatch: number
  #waiting: Waiting<I, R>[] = []
  #scheduled = false

  constructor(queue: WriteQueue, flush: (items: I[]) => Promise<R[]>, maxBatch: number) {
    this.#queue = queue
    this.#flush = flush
    this.#maxBatch = maxBatch
  }

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject })
      if (!this.#scheduled) {
        this.#scheduled = true
        void this.#queue.run(() => this.#runBatch())
      }
    })
  }

  async #runBatch(): Promise<void> {
    const batch = this.#waiting.splice(0, this.#maxBatch)
    this.#scheduled = this.#waiting.length > 0
    if (this.#scheduled) void this.#queue.run(() => this.#runBatch())
    try {
      const results = await this.#flush(batch.map((w) => w.item))
      batch.forEach((w, i) => {
        w.resolve(results[i]!)
      })
    } catch (error) {
      for (const w of batch) w.reject(error)
    }
  }
}
