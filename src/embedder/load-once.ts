/**
 * The lifecycle every model embedder shares: load once, let concurrent callers join the load in
 * flight, forget a failed load so that a later `load()` can succeed, run one model call at a
 * time, and release the model on `dispose()`.
 */

import { EmbedderUnavailableError } from '../core/errors.ts'
import type { EmbedderState, ModelFailure } from '../core/types.ts'
import { errorText } from './checks.ts'
import { classifyModelFailure } from './model-failure.ts'

/**
 * Holds one loaded model (`T`) and its state. `open` loads it; `close` releases it.
 *
 * @example
 * const model = new LoadOnce('my-model', () => openSession(), (s) => s.release())
 * const [a, b] = [model.load(), model.load()] // a === b: one load
 * await model.run((session) => session.embed(['text']))
 */
export class LoadOnce<T> {
  readonly #name: string
  readonly #open: () => Promise<T>
  readonly #close: (value: T) => unknown
  #state: EmbedderState = 'idle'
  #value: T | undefined
  #loading: Promise<void> | undefined
  #error: string | undefined
  #failure: ModelFailure | undefined
  #loadMs: number | undefined
  #queue: Promise<unknown> = Promise.resolve()

  constructor(name: string, open: () => Promise<T>, close: (value: T) => unknown) {
    this.#name = name
    this.#open = open
    this.#close = close
  }

  get state(): EmbedderState {
    return this.#state
  }

  /** Why the last load failed; cleared when a load starts. */
  get error(): string | undefined {
    return this.#error
  }

  /** What the last load failure was ({@link classifyModelFailure}); cleared when a load starts. */
  get failure(): ModelFailure | undefined {
    return this.#failure
  }

  /** The loaded model, while `state` is `'ready'`. */
  get value(): T | undefined {
    return this.#value
  }

  /** Milliseconds the last successful load took. */
  get loadMs(): number | undefined {
    return this.#loadMs
  }

  /** Starts loading, or joins the load in flight; the same promise for every concurrent caller. */
  load(): Promise<void> {
    if (this.#state === 'ready') return Promise.resolve()
    if (!this.#loading) {
      const loading = this.#load()
      this.#loading = loading
      // A failed load is forgotten so that the next load() tries again.
      loading.catch(() => {
        if (this.#loading === loading) this.#loading = undefined
      })
    }
    return this.#loading
  }

  /**
   * Loads on first use, then runs `work` after every call before it has settled: ONNX Runtime
   * Web rejects concurrent runs of one session, and TF.js' WASM backend runs one program at a
   * time. After a failed load it rejects at once (no reload per call) until `load()` is called.
   */
  async run<R>(work: (value: T) => Promise<R>): Promise<R> {
    if (this.#state === 'failed' && !this.#loading) {
      throw new EmbedderUnavailableError(`${this.#name} failed to load: ${this.#error}`, {
        ...(this.#failure && { failure: this.#failure }),
      })
    }
    await this.load()
    const value = this.#value
    if (value === undefined) throw new EmbedderUnavailableError(`${this.#name} was disposed`)
    const run = this.#queue.then(() => work(value))
    this.#queue = run.catch(() => {})
    return run
  }

  /** Waits for the load and the calls in flight, then releases the model; `load()` loads again. */
  async dispose(): Promise<void> {
    await this.#loading?.catch(() => {})
    await this.#queue
    const value = this.#value
    this.#value = undefined
    this.#loading = undefined
    this.#state = 'idle'
    if (value !== undefined) await this.#close(value)
  }

  async #load(): Promise<void> {
    this.#state = 'loading'
    this.#error = undefined
    this.#failure = undefined
    const started = performance.now()
    try {
      this.#value = await this.#open()
      this.#loadMs = performance.now() - started
      this.#state = 'ready'
    } catch (error) {
      this.#state = 'failed'
      this.#error = errorText(error)
      const failure = classifyModelFailure(error)
      this.#failure = failure
      if (error instanceof EmbedderUnavailableError && error.reason !== undefined) throw error
      const message =
        error instanceof EmbedderUnavailableError
          ? error.message
          : `could not load ${this.#name}: ${this.#error}`
      throw new EmbedderUnavailableError(message, { cause: error, failure })
    }
  }
}
