/**
 * The {@link Embedder} Engram ships: a transformers.js feature-extraction pipeline (ONNX Runtime
 * underneath) with per-model pooling and query instructions from the model table. Runs in a
 * Web Worker, a page, or Node; it touches no DOM. Its parts: options in
 * `transformers-options.ts`, the pipeline in `transformers-pipeline.ts`, the device choice in
 * `choose-device.ts` (plan, capped trial, remembered decisions).
 */

import type { Embedder, EmbedderState, EmbedderStats, EmbedKind } from '../core/types.ts'
import { checkEmbedArgs, isNodeRuntime } from './checks.ts'
import { chooseDevice, type DeviceChoiceResult } from './choose-device.ts'
import { defaultDeviceChoices } from './device-choice-store.ts'
import { planDevices, TRIAL_TEXTS } from './device-plan.ts'
import type { TrialCandidate } from './device-trial.ts'
import { LoadOnce } from './load-once.ts'
import {
  type EmbedderDtype,
  type EmbedderSettings,
  resolveOptions,
  type TransformersEmbedderOptions,
} from './transformers-options.ts'
import {
  absolutePath,
  configureTransformers,
  embedWith,
  importTransformers,
  type LoadedPipe,
  openPipe,
  type PipelineSpec,
  progressForwarder,
  type Transformers,
} from './transformers-pipeline.ts'

type Chosen = DeviceChoiceResult<LoadedPipe>

/**
 * Embeds text with a transformers.js model. `load()` is shared by concurrent callers and may be
 * retried after a failure; `embed()` loads on first use, and after a failed load rejects at
 * once (no reload per call) until `load()` is called again.
 *
 * @example
 * const embedder = new TransformersEmbedder({ modelBase: '/models/', wasmPaths: '/ort/' })
 * const [v] = await embedder.embed(['Who is Priya?'], { kind: 'query' })
 * v.length // => 384
 */
export class TransformersEmbedder implements Embedder {
  readonly model: string
  readonly #options: TransformersEmbedderOptions
  readonly #settings: EmbedderSettings
  readonly #node = isNodeRuntime()
  readonly #progress: PipelineSpec['onProgress']
  readonly #lifecycle: LoadOnce<Chosen>
  #dims: number

  constructor(options: TransformersEmbedderOptions = {}) {
    this.#settings = resolveOptions(options, this.#node)
    this.model = this.#settings.model
    this.#options = options
    this.#dims = this.#settings.expectedDims ?? 0
    this.#progress = progressForwarder(options.onProgress)
    this.#lifecycle = new LoadOnce(
      this.model,
      () => this.#load(),
      (chosen) => chosen.loaded.pipe.dispose(),
    )
  }

  get dims(): number {
    return this.#dims
  }

  get state(): EmbedderState {
    return this.#lifecycle.state
  }

  /** Starts loading, or joins the load in flight; the same promise for every concurrent caller. */
  load(): Promise<void> {
    return this.#lifecycle.load()
  }

  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    const kind = checkEmbedArgs(texts, options)
    const { instruction } = this.#settings
    const inputs = kind === 'query' && instruction ? texts.map((t) => instruction + t) : texts
    return this.#lifecycle.run(({ loaded }) =>
      embedWith(loaded.pipe, this.#spec(), inputs, this.#dims),
    )
  }

  /** Model, dims and state; once loaded the device, how it was picked, the trial and load time. */
  stats(): EmbedderStats {
    const { state, value, loadMs, error, failure } = this.#lifecycle
    const stats: EmbedderStats = { model: this.model, dims: this.#dims, state }
    if (value) {
      stats.device = value.device
      stats.deviceSource = value.source
      if (value.trial) stats.trial = structuredClone(value.trial)
      if (loadMs !== undefined) stats.loadMs = Math.round(loadMs)
    }
    if (error !== undefined) stats.error = error
    if (failure) stats.failure = { ...failure }
    return stats
  }

  /** Releases the ONNX session; a later `load()` or `embed()` loads again. */
  dispose(): Promise<void> {
    return this.#lifecycle.dispose()
  }

  get #allowRemote(): boolean {
    return this.#options.localDir === undefined && (this.#options.allowRemote ?? true)
  }

  #spec(): PipelineSpec {
    const { localDir, dtype } = this.#options
    const { pooling, batchSize, expectedDims } = this.#settings
    return {
      model: this.model,
      source: localDir === undefined ? this.model : `${absolutePath(localDir)}/${this.model}`,
      allowRemote: this.#allowRemote,
      pooling,
      batchSize,
      expectedDims,
      dtype,
      onProgress: this.#progress,
    }
  }

  async #load(): Promise<Chosen> {
    const transformers = await importTransformers(this.#node)
    configureTransformers(transformers, this.#options, this.#allowRemote, this.#node)
    const { dtype, deviceChoices } = this.#options
    const plan = await planDevices({ ...this.#settings, dtype }, this.#node)
    const chosen = await chooseDevice({
      model: this.model,
      plan,
      store: deviceChoices ?? defaultDeviceChoices(),
      candidate: (device) => this.#candidate(transformers, device, plan.trialDtype),
      openFixed: (device) => this.#open(transformers, device),
    })
    this.#dims = chosen.loaded.dims
    return chosen
  }

  #open(transformers: Transformers, device: string, dtype?: EmbedderDtype): Promise<LoadedPipe> {
    return openPipe(transformers, this.#spec(), device, dtype)
  }

  #candidate(
    transformers: Transformers,
    device: string,
    dtype: EmbedderDtype,
  ): TrialCandidate<LoadedPipe> {
    const spec = this.#spec()
    return {
      device,
      open: () => this.#open(transformers, device, dtype),
      run: (loaded) => embedWith(loaded.pipe, spec, [...TRIAL_TEXTS], undefined),
      dispose: (loaded) => loaded.pipe.dispose(),
    }
  }
}
