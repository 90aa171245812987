import type { Embedder, EmbedderStats, EmbedKind } from '../../../../src/core/types.ts'
import { NgramEmbedder } from '../../../../src/embedder/ngram-embedder.ts'

interface Waiting {
  texts: number
  resolve: () => void
  reject: (error: Error) => void
}

/**
 * The n-gram embedder with a gate on passages: each passage call waits until the test lets it
 * through (`allow(n)`, `open()`), or fails it (`fail()`), so "in the background" is a moment the
 * test chooses, not a race. Queries always pass: recall works while the gate is shut.
 */
export class GatedEmbedder implements Embedder {
  readonly #inner = new NgramEmbedder()
  readonly model = this.#inner.model
  readonly dims = this.#inner.dims
  readonly state = 'ready' as const
  #allowed = 0
  #open = false
  readonly #waiting: Waiting[] = []
  readonly #arrivals: (() => void)[] = []
  /** Passage calls that got through. */
  passes = 0
  /** Passage calls this says yes to are never held (a fact's one text, say). */
  passThrough: (texts: readonly string[]) => boolean = () => false

  async load(): Promise<void> {}

  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    if (options.kind === 'passage' && !this.#open && !this.passThrough(texts)) {
      if (this.#allowed >= texts.length) this.#allowed -= texts.length
      else {
        const held = new Promise<void>((resolve, reject) =>
          this.#waiting.push({ texts: texts.length, resolve, reject }),
        )
        for (const arrived of this.#arrivals.splice(0)) arrived()
        await held
      }
    }
    if (options.kind === 'passage') this.passes++
    return this.#inner.embed(texts, options)
  }

  stats(): EmbedderStats {
    return this.#inner.stats()
  }

  /** Resolves once a passage call is waiting at the gate. */
  held(): Promise<void> {
    if (this.#waiting.length > 0) return Promise.resolve()
    return new Promise((resolve) => this.#arrivals.push(resolve))
  }

  /** Lets passage calls through (those waiting first) until `n` more texts have passed. */
  allow(n: number): void {
    this.#allowed += n
    while (this.#waiting.length > 0 && this.#waiting[0]!.texts <= this.#allowed) {
      const next = this.#waiting.shift()!
      this.#allowed -= next.texts
      next.resolve()
    }
  }

  /** Lets every passage call through from now on. */
  open(): void {
    this.#open = true
    for (const w of this.#waiting.splice(0)) w.resolve()
  }

  /** Fails the waiting passage calls (a model that broke): the backfill retries later. */
  fail(): void {
    for (const w of this.#waiting.splice(0)) w.reject(new Error('the gate failed this call'))
  }
}
