/** The one thing the engine needs from a model. Types only; `core/types.ts` gathers them. */

export interface EmbedderStats {
  model: string
  dims: number
  state: EmbedderState
  /** Where inference runs: `'wasm'`, `'webgpu'`, `'cpu'`, or a TF.js backend name. */
  device?: string
  /**
   * How `device` was picked: `'trial'` timed the candidates during this load; `'remembered'`
   * reused an earlier trial's decision for the same model, dtype and GPU adapter; `'fixed'` had
   * one candidate (a named device, Node's CPU, or no WebGPU adapter) and nothing to time.
   */
  deviceSource?: DeviceSource
  /** The device trial behind `device`: this load's, or for `'remembered'` the one remembered. */
  trial?: DeviceTrialStats
  /** Milliseconds the last successful load took, trial included. */
  loadMs?: number
  error?: string
  /** Why the load failed, classified by the embedder, while `state` is `'failed'`. */
  failure?: ModelFailure
  /**
   * Present when the model answering (`model`) is not the one configured: the chain (the
   * configured model → the bundled USE-lite → keywords) moved on, and why. Absent while the
   * configured model answers, or when no fallback was configured. When the fallback failed too,
   * `state` is `'failed'`, `error` says why, and recall is keyword-only.
   *
   * @example
   * (await memory.inspect.stats()).embedder
   * // => { model: 'google/universal-sentence-encoder-lite', state: 'ready', dims: 512, …,
   * //      fallback: { from: 'Xenova/bge-small-en-v1.5', reason: 'unreachable', error: 'fetch failed' } }
   */
  fallback?: EmbedderFallback
}

/** Why an embedder chain answers with another model than the configured one. */
export interface EmbedderFallback {
  /** The configured model, which does not answer. */
  from: string
  /**
   * `'unreachable'`: before the memory opened, its files could neither be fetched (offline, the
   * hub blocked, a 404) nor found in the browser cache, so it was not tried. `'failed'`: it was
   * tried and its load failed (a file fetch broke mid-way, the runtime refused it).
   */
  reason: FallbackReason
  /** The error text behind `reason`. */
  error: string
  /** What that error was, classified by the embedder. */
  failure?: ModelFailure
}

/**
 * Why a model did not load, classified by the embedder from the runtime's own error (the words
 * of transformers.js, ONNX Runtime or the browser), so no caller reads the text:
 * `'offline-only'` (not on this device and downloads are off), `'not-found'` (a file is
 * missing: a 404, or no such local file), `'unreachable'` (the host could not be reached),
 * `'out-of-memory'`, `'damaged'` (a file is not what it should be: a corrupt `.onnx`, a web
 * page served in its place), `'runtime'` (the on-device runtime or the device asked for could
 * not start), `'unknown'`.
 */
export type ModelFailureReason =
  | 'offline-only'
  | 'not-found'
  | 'unreachable'
  | 'out-of-memory'
  | 'damaged'
  | 'runtime'
  | 'unknown'

/** A classified load failure; `file`: the missing file's path or URL, when the error names one. */
export interface ModelFailure {
  reason: ModelFailureReason
  file?: string
}

/** See {@link EmbedderFallback.reason}. */
export type FallbackReason = 'unreachable' | 'failed'

/** How an embedder's device was picked; see {@link EmbedderStats.deviceSource}. */
export type DeviceSource = 'trial' | 'remembered' | 'fixed'

/** What a `device: 'auto'` trial measured. */
export interface DeviceTrialStats {
  /** Milliseconds from the first candidate's load to the decision. */
  totalMs: number
  /** What each challenger was allowed after the baseline (the first candidate that loaded). */
  budgetMs?: number
  /** One entry per candidate, in the order tried (the cheap baseline first). */
  entries: DeviceTrialEntry[]
  /**
   * The remembered device that failed to load and sent the choice back to a trial, with why;
   * absent when nothing remembered failed.
   */
  retried?: { device: string; error: string }
}

/** One candidate's part in a device trial. */
export interface DeviceTrialEntry {
  device: string
  /** Milliseconds to load the pipeline and embed one probe text, when the load finished. */
  loadMs?: number
  /** Each timed run of the trial batch, in milliseconds, after one untimed warm-up. */
  runsMs: number[]
  /** Median of `runsMs`, when every timed run finished. */
  medianMs?: number
  /**
   * Why the trial stopped this candidate before it finished: `'budget'` (it used up the time
   * allowed after the baseline) or `'cannot-win'` (enough timed runs were slower than the
   * baseline's median that its own median could not beat it).
   */
  cut?: 'budget' | 'cannot-win'
  /** Why it failed to load or run, when it did. */
  error?: string
}

/** The lifecycle of an embedder. */
export type EmbedderState = 'idle' | 'loading' | 'ready' | 'failed'

/** Whether text is embedded as a query (with the model's instruction, if any) or as a passage. */
export type EmbedKind = 'query' | 'passage'

/** Turns text into unit-length vectors. The engine depends on nothing else about it. */
export interface Embedder {
  /** Model id recorded with every vector. */
  readonly model: string
  /** Vector length; valid once `state` is `'ready'` (or always, for fixed embedders). */
  readonly dims: number
  readonly state: EmbedderState
  /** Start (or join) loading. Resolves when ready; rejects with `EmbedderUnavailableError`. */
  load(): Promise<void>
  /** Embed a batch; every returned vector is unit length and `dims` long. */
  embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]>
  stats(): EmbedderStats
  dispose?(): Promise<void>
}
