/**
 * The model chain: an {@link Embedder} that answers with the first of its links that loads (the
 * configured model, then the bundled USE-lite), says in `stats().fallback` which one answers and
 * why, and leaves the last step — keywords — to the engine, which degrades to keyword-only when
 * no link loads. `createEmbedder` builds it (`src/host/create-embedder.ts`), so the worker, the
 * in-process client and the extension all get it.
 */

import { EmbedderUnavailableError } from '../core/errors.ts'
import type {
  Embedder,
  EmbedderFallback,
  EmbedderState,
  EmbedderStats,
  EmbedKind,
  ModelFailure,
} from '../core/types.ts'
import { errorText } from './checks.ts'
import { classifyModelFailure } from './model-failure.ts'

/** One model of the chain, built only when the chain reaches it. */
export interface ChainLink {
  /** The model id the link's embedder records with its vectors. */
  model: string
  create(): Embedder | Promise<Embedder>
}

/**
 * Embeds with `links[start]`, moving to the next link when a load fails. `model` and `dims` are
 * the answering link's. Because the engine reads `model` when it opens, the caller settles the
 * first link before opening where it can (see `modelReachable`); a later switch still works, and
 * the backfill re-embeds under the new model.
 *
 * @example
 * const chain = new FallbackEmbedder([bge, useLite], 0)
 * await chain.load() // bge's files fail to download
 * chain.stats().fallback
 * // => { from: 'Xenova/bge-small-en-v1.5', reason: 'failed', error: 'could not load …' }
 */
export class FallbackEmbedder implements Embedder {
  readonly #links: readonly ChainLink[]
  readonly #built = new Map<number, Embedder>()
  #index: number
  #fallback: EmbedderFallback | undefined
  #loading: Promise<void> | undefined
  #switching = false
  /** Why the answering link could not even be built (its module failed to import). */
  #buildError: string | undefined
  #buildFailure: ModelFailure | undefined

  /**
   * @param start the first link to use: 0, or past links already known not to answer
   * @param fallback why `start` is not 0 (required then)
   */
  constructor(links: readonly ChainLink[], start = 0, fallback?: EmbedderFallback) {
    if (links.length === 0) throw new RangeError('expected at least one link, got none')
    if (start < 0 || start >= links.length) {
      throw new RangeError(`expected a start from 0 to ${links.length - 1}, got ${start}`)
    }
    this.#links = links
    this.#index = start
    this.#fallback = fallback && {
      ...fallback,
      failure: fallback.failure ?? classifyModelFailure(fallback.error),
    }
  }

  get model(): string {
    return this.#links[this.#index]!.model
  }

  get dims(): number {
    return this.#built.get(this.#index)?.dims ?? 0
  }

  get state(): EmbedderState {
    if (this.#switching) return 'loading'
    const link = this.#built.get(this.#index)
    if (link) return link.state
    return this.#buildError === undefined ? 'idle' : 'failed'
  }

  /** Loads the answering link, falling through the rest until one loads or none is left. */
  load(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve()
    if (!this.#loading) {
      const loading = this.#loadChain()
      this.#loading = loading
      loading.then(
        () => {
          if (this.#loading === loading) this.#loading = undefined
        },
        () => {
          if (this.#loading === loading) this.#loading = undefined
        },
      )
    }
    return this.#loading
  }

  /** Loads on first use; after every link failed, rejects at once until `load()` is called. */
  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    if (this.state === 'failed' && !this.#loading) {
      const { error, failure } = this.stats()
      throw new EmbedderUnavailableError(`${this.model} failed to load: ${error}`, {
        ...(failure && { failure }),
      })
    }
    await this.load()
    return this.#built.get(this.#index)!.embed(texts, options)
  }

  /** The answering link's stats, with `fallback` when it is not the first. */
  stats(): EmbedderStats {
    const link = this.#built.get(this.#index)
    const stats: EmbedderStats = link
      ? link.stats()
      : { model: this.model, dims: 0, state: this.state }
    if (!link && this.#buildError !== undefined) stats.error = this.#buildError
    if (!link && this.#buildFailure) stats.failure = { ...this.#buildFailure }
    if (this.#switching) stats.state = 'loading'
    if (this.#fallback) stats.fallback = { ...this.#fallback }
    return stats
  }

  async dispose(): Promise<void> {
    await this.#loading?.catch(() => {})
    await Promise.all([...this.#built.values()].map((e) => e.dispose?.()))
  }

  async #loadChain(): Promise<void> {
    for (;;) {
      try {
        const embedder = await this.#link(this.#index)
        this.#switching = false
        await embedder.load()
        return
      } catch (error) {
        this.#switching = false
        if (this.#index === this.#links.length - 1) throw error
        // The first failure is the one a person needs to hear about: the configured model's.
        this.#fallback ??= {
          from: this.model,
          reason: 'failed',
          error: errorText(error),
          failure: classifyModelFailure(error),
        }
        await this.#built.get(this.#index)?.dispose?.()
        this.#switching = true
        this.#index++
      }
    }
  }

  async #link(index: number): Promise<Embedder> {
    const built = this.#built.get(index)
    if (built) return built
    this.#buildError = undefined
    this.#buildFailure = undefined
    try {
      const embedder = await this.#links[index]!.create()
      this.#built.set(index, embedder)
      return embedder
    } catch (error) {
      this.#buildError = errorText(error)
      this.#buildFailure = classifyModelFailure(error)
      throw new EmbedderUnavailableError(
        `could not build ${this.#links[index]!.model}: ${this.#buildError}`,
        { cause: error, failure: this.#buildFailure },
      )
    }
  }
}
