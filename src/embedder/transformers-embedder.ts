/**
 * The {@link Embedder} Engram ships: a transformers.js feature-extraction pipeline (ONNX Runtime
 * underneath) with per-model pooling and query instructions from the model table. Runs in a
 * Web Worker, a page, or Node; it touches no DOM.
 */

import type { ProgressInfo } from '@huggingface/transformers'
import { EmbedderUnavailableError, InvalidInputError } from '../core/errors.ts'
import type {
  Embedder,
  EmbedderState,
  EmbedderStats,
  EmbedKind,
  MemoryEvent,
} from '../core/types.ts'
import { DEFAULT_MODEL, DEFAULT_POOLING, modelSettings, type Pooling } from './model-table.ts'

/**
 * Where inference runs. `'auto'` means CPU in Node; in a browser WebGPU when an adapter exists
 * and a timed trial shows it faster than WASM, else WASM. `'cpu'` (onnxruntime-node) exists only
 * in Node, `'wasm'` only in browsers and workers.
 */
export type EmbedderDevice = 'auto' | 'webgpu' | 'wasm' | 'cpu'

/**
 * Weight precision, which picks the ONNX file and so the download: `'fp32'` →
 * `onnx/model.onnx`, `'fp16'` → `onnx/model_fp16.onnx`, `'q8'` → `onnx/model_quantized.onnx`,
 * `'int8'` / `'uint8'` / `'q4'` / `'q4f16'` / `'bnb4'` → `onnx/model_<dtype>.onnx`; `'auto'`
 * takes the model's `config.json` (`transformers.js_config.dtype`), else transformers.js'
 * default for the device. For Xenova/bge-small-en-v1.5: fp32 133 MB, fp16 67 MB, q8 34 MB.
 */
export type EmbedderDtype =
  | 'fp32'
  | 'fp16'
  | 'q8'
  | 'int8'
  | 'uint8'
  | 'q4'
  | 'q4f16'
  | 'bnb4'
  | 'auto'

/** Every {@link EmbedderDtype}, for validating options that arrive as data. */
export const EMBEDDER_DTYPES: readonly EmbedderDtype[] = Object.freeze([
  'fp32',
  'fp16',
  'q8',
  'int8',
  'uint8',
  'q4',
  'q4f16',
  'bnb4',
  'auto',
])

/** A model file's load progress: the `model-progress` {@link MemoryEvent} without its `type`. */
export type ModelProgressEvent = Omit<Extract<MemoryEvent, { type: 'model-progress' }>, 'type'>

/** Options of {@link TransformersEmbedder}. Every field is optional. */
export interface TransformersEmbedderOptions {
  /**
   * Model id: a Hugging Face repo id, or a directory name under `localDir` / `modelBase`.
   * Pooling, query instruction and dims come from the model table; for models missing from it,
   * mean pooling, no instruction, and dims read from the model.
   * @default 'Xenova/bge-small-en-v1.5'
   * @example new TransformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2' }).dims // => 384
   */
  model?: string
  /**
   * Base URL of self-hosted models: files are fetched from `<modelBase>/<model>/<file>`, e.g.
   * `'/models/'` fetches `/models/Xenova/bge-small-en-v1.5/onnx/model.onnx` from the app's own
   * origin, never the hub. Relative URLs resolve against the page or worker location. Sets
   * transformers.js' process-wide `env.remoteHost` and `env.remotePathTemplate`. In Node the
   * files land in transformers.js' file cache (`env.cacheDir`), which must stay enabled: ONNX
   * Runtime there loads the model from that path.
   * @default undefined (the Hugging Face hub)
   */
  modelBase?: string
  /**
   * Node only: a directory holding `<model>/config.json`, `tokenizer.json`,
   * `tokenizer_config.json` and `onnx/model.onnx` (what `npm run make:models` writes to
   * `.models/`). Nothing is downloaded.
   * @default undefined
   */
  localDir?: string
  /**
   * Whether model files may be fetched over the network (from the hub or `modelBase`). With
   * `false`, only files already on disk or in the browser cache are used. Sets transformers.js'
   * process-wide `env.allowRemoteModels` at load; `localDir` implies `false`.
   * @default true
   */
  allowRemote?: boolean
  /** @default 'auto' */
  device?: EmbedderDevice
  /**
   * Weight precision, and so which file is downloaded (see {@link EmbedderDtype}). By default
   * `'q8'` on WASM (a quarter of fp32's download; ONNX Runtime Web runs it fastest) and in the
   * `'auto'` device trial (one download for both devices), `'fp32'` on WebGPU and in Node. When
   * the default's file cannot be fetched (a self-hosted folder with only `onnx/model.onnx`, or
   * offline with only fp32 cached), fp32 is loaded instead; a dtype given here is never swapped.
   * @default 'q8' on WASM, 'fp32' on WebGPU and Node CPU
   * @example new TransformersEmbedder({ dtype: 'fp16', device: 'webgpu' }) // => loads onnx/model_fp16.onnx
   */
  dtype?: EmbedderDtype
  /**
   * Where ONNX Runtime Web's `ort-wasm-simd-threaded*.{mjs,wasm}` are served from (a URL prefix
   * or `{ mjs, wasm }` URLs). Rarely needed: without it, ONNX Runtime loads the wasm its own
   * script names with `new URL(…, import.meta.url)`, which the app's bundler emits beside the
   * worker on the app's own origin — never transformers.js' default CDN (cdn.jsdelivr.net).
   * Browsers only; ignored by onnxruntime-node. Process-wide.
   * @default undefined (the file the bundler emitted)
   * @example wasmPaths: '/ort/' // with node_modules/onnxruntime-web/dist/ort-wasm-* copied there
   */
  wasmPaths?: string | { mjs: string; wasm: string }
  /**
   * Largest number of texts per model call; longer `embed()` inputs are split. 1 to 1024.
   * @default 32
   */
  batchSize?: number
  /** Receives file progress while the model loads: `initiate`, `download`, `progress`, `progress_total`, `done`, `ready`. */
  onProgress?: (event: ModelProgressEvent) => void
  /** Overrides the model table's pooling. */
  pooling?: Pooling
  /** Overrides the model table's query instruction; `''` for none. */
  queryInstruction?: string
  /** Expected vector length; loading fails if the model disagrees. @default the table's, else the model's */
  dims?: number
}

export const DEFAULT_EMBEDDER_BATCH_SIZE = 32
/** The dtype where no smaller default applies (WebGPU, Node CPU), and the fallback for the others. */
export const DEFAULT_EMBEDDER_DTYPE: EmbedderDtype = 'fp32'
/** The dtype on WASM, and in the `'auto'` device trial. */
export const DEFAULT_WASM_DTYPE: EmbedderDtype = 'q8'
const MAX_BATCH_SIZE = 1024

/** What transformers.js sets `wasmPaths` to when nobody has: files on a CDN. */
const CDN_WASM_PATHS = /^https:\/\/cdn\.jsdelivr\.net\//

/** Texts timed on each device when `device: 'auto'` has WebGPU to choose from. */
const TRIAL_TEXTS = [
  'The meeting with the design team moved to Thursday afternoon.',
  'Priya prefers tea to coffee and is allergic to peanuts.',
  'Deploy the staging build with the script in tools/deploy.sh after the tests pass.',
  'The flight to Lisbon leaves at 7:40 from terminal 2.',
  'Remember that the API key for the weather service expires in March.',
  'Use pnpm rather than npm in this repository.',
  'The quarterly report is due on the last Friday of the month.',
  'Her cat is called Miso and needs medicine twice a day.',
]
const TRIAL_RUNS = 3

/** The part of transformers.js' FeatureExtractionPipeline this class uses. */
interface FeaturePipe {
  (
    texts: string[],
    options: { pooling: Pooling; normalize: boolean },
  ): Promise<{ data: ArrayLike<number>; dims: number[]; dispose?: () => void }>
  model: { config: { hidden_size?: unknown } }
  dispose(): Promise<void>
}

type Transformers = typeof import('@huggingface/transformers')

function isNodeRuntime(): boolean {
  const proc = (globalThis as { process?: { release?: { name?: string } } }).process
  return proc?.release?.name === 'node'
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function badOption(field: string, text: string): InvalidInputError {
  return new InvalidInputError('BAD_OPTION', field, text)
}

/** An absolute filesystem path, without importing `node:path` (this file also runs in browsers). */
function absolutePath(dir: string): string {
  if (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) return dir
  const cwd = (globalThis as { process?: { cwd(): string } }).process?.cwd() ?? '.'
  return `${cwd}/${dir}`
}

function absoluteUrl(base: string): string {
  const here = (globalThis as { location?: { href: string } }).location?.href
  const url = here ? new URL(base, here).href : base
  return url.endsWith('/') ? url : `${url}/`
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

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
  readonly #node = isNodeRuntime()
  readonly #pooling: Pooling
  readonly #instruction: string
  readonly #expectedDims: number | undefined
  readonly #batchSize: number
  #dims: number
  #state: EmbedderState = 'idle'
  #device: string | undefined
  #trial: Record<string, number> | undefined
  #error: string | undefined
  #pipe: FeaturePipe | undefined
  #loading: Promise<void> | undefined
  #queue: Promise<unknown> = Promise.resolve()
  readonly #fileTotals = new Map<string, number>()

  constructor(options: TransformersEmbedderOptions = {}) {
    const model = options.model ?? DEFAULT_MODEL
    if (typeof model !== 'string' || model.trim() === '') {
      throw badOption('model', `expected a model id, got ${JSON.stringify(model)}`)
    }
    const device = options.device ?? 'auto'
    if (!['auto', 'webgpu', 'wasm', 'cpu'].includes(device)) {
      throw badOption('device', `expected auto, webgpu, wasm or cpu, got ${JSON.stringify(device)}`)
    }
    if (this.#node && device === 'wasm') {
      throw badOption('device', "expected auto, cpu or webgpu in Node, got 'wasm' (browsers only)")
    }
    if (!this.#node && device === 'cpu') {
      throw badOption('device', "expected auto, webgpu or wasm in a browser, got 'cpu' (Node only)")
    }
    if (options.localDir !== undefined && !this.#node) {
      throw badOption('localDir', 'local directories work in Node only; use modelBase in browsers')
    }
    if (options.localDir !== undefined && options.modelBase !== undefined) {
      throw badOption('modelBase', 'expected localDir or modelBase, got both')
    }
    const batchSize = options.batchSize ?? DEFAULT_EMBEDDER_BATCH_SIZE
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw badOption(
        'batchSize',
        `expected an integer from 1 to ${MAX_BATCH_SIZE}, got ${batchSize}`,
      )
    }
    if (options.dtype !== undefined && !EMBEDDER_DTYPES.includes(options.dtype)) {
      throw badOption(
        'dtype',
        `expected one of ${EMBEDDER_DTYPES.join(', ')}, got ${JSON.stringify(options.dtype)}`,
      )
    }
    if (options.dims !== undefined && (!Number.isInteger(options.dims) || options.dims < 1)) {
      throw badOption('dims', `expected a positive integer, got ${options.dims}`)
    }
    const table = modelSettings(model)
    this.model = model
    this.#options = { ...options, device }
    this.#pooling = options.pooling ?? table?.pooling ?? DEFAULT_POOLING
    this.#instruction = options.queryInstruction ?? table?.queryInstruction ?? ''
    this.#expectedDims = options.dims ?? table?.dims
    this.#dims = this.#expectedDims ?? 0
    this.#batchSize = batchSize
  }

  get #allowRemote(): boolean {
    return this.#options.localDir === undefined && (this.#options.allowRemote ?? true)
  }

  get dims(): number {
    return this.#dims
  }

  get state(): EmbedderState {
    return this.#state
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

  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    if (!Array.isArray(texts)) {
      throw badOption('texts', `expected an array of strings, got ${typeof texts}`)
    }
    const kind = options?.kind
    if (kind !== 'query' && kind !== 'passage') {
      throw badOption('kind', `expected 'query' or 'passage', got ${JSON.stringify(kind)}`)
    }
    const notString = texts.findIndex((text) => typeof text !== 'string')
    if (notString >= 0) {
      throw badOption(`texts[${notString}]`, `expected a string, got ${typeof texts[notString]}`)
    }
    if (this.#state === 'failed' && !this.#loading) {
      throw new EmbedderUnavailableError(`${this.model} failed to load: ${this.#error}`)
    }
    await this.load()
    const pipe = this.#pipe
    if (!pipe) throw new EmbedderUnavailableError(`${this.model} was disposed`)
    const inputs =
      kind === 'query' && this.#instruction ? texts.map((t) => this.#instruction + t) : texts
    // One model call at a time: ONNX Runtime Web rejects concurrent runs of one session.
    const run = this.#queue.then(() => this.#embedAll(pipe, inputs))
    this.#queue = run.catch(() => {})
    return run
  }

  stats(): EmbedderStats {
    const stats: EmbedderStats = { model: this.model, dims: this.#dims, state: this.#state }
    if (this.#device !== undefined) stats.device = this.#device
    if (this.#trial !== undefined) stats.trial = { ...this.#trial }
    if (this.#error !== undefined) stats.error = this.#error
    return stats
  }

  /** Releases the ONNX session; a later `load()` or `embed()` loads again. */
  async dispose(): Promise<void> {
    await this.#loading?.catch(() => {})
    await this.#queue
    const pipe = this.#pipe
    this.#pipe = undefined
    this.#loading = undefined
    this.#state = 'idle'
    this.#device = undefined
    await pipe?.dispose()
  }

  async #load(): Promise<void> {
    this.#state = 'loading'
    this.#error = undefined
    this.#trial = undefined
    try {
      const transformers = await importTransformers(this.#node)
      this.#configure(transformers)
      const { pipe, device, trial } = await this.#pickDevice(transformers)
      this.#pipe = pipe
      this.#device = device
      this.#trial = trial
      this.#state = 'ready'
    } catch (error) {
      this.#state = 'failed'
      this.#error = message(error)
      if (error instanceof EmbedderUnavailableError) throw error
      throw new EmbedderUnavailableError(`could not load ${this.model}: ${this.#error}`, {
        cause: error,
      })
    }
  }

  #configure({ env }: Transformers): void {
    const { modelBase, wasmPaths } = this.#options
    // pipeline() looks up config.json and file sizes without passing local_files_only on
    // (transformers.js 4.3.1), so only the global switch keeps those lookups off the network.
    env.allowRemoteModels = this.#allowRemote
    if (modelBase !== undefined) {
      env.remoteHost = absoluteUrl(modelBase)
      env.remotePathTemplate = '{model}/'
    }
    // env.backends.onnx.wasm is ONNX Runtime's own settings object (transformers.js copies the
    // reference), so the property must be set on it rather than the object replaced.
    const wasm = env.backends.onnx.wasm
    if (!wasm) return
    if (wasmPaths !== undefined) wasm.wasmPaths = wasmPaths
    // transformers.js points ORT at a CDN at import. Cleared, ORT loads the wasm its script names
    // with new URL(…, import.meta.url): the file the app's bundler emitted on its own origin.
    else if (!this.#node && CDN_WASM_PATHS.test(wasmUrl(wasm.wasmPaths))) wasm.wasmPaths = undefined
  }

  /** The devices to try, best first, and whether to time them against each other. */
  async #candidates(): Promise<{ devices: string[]; trial: boolean }> {
    const device = this.#options.device
    if (this.#node) {
      return { devices: device === 'webgpu' ? ['webgpu', 'cpu'] : ['cpu'], trial: false }
    }
    if (device === 'wasm') return { devices: ['wasm'], trial: false }
    if (device === 'webgpu') return { devices: ['webgpu', 'wasm'], trial: false }
    return (await hasWebGpuAdapter())
      ? { devices: ['webgpu', 'wasm'], trial: true }
      : { devices: ['wasm'], trial: false }
  }

  async #pickDevice(
    transformers: Transformers,
  ): Promise<{ pipe: FeaturePipe; device: string; trial?: Record<string, number> }> {
    const { devices, trial } = await this.#candidates()
    const failures: string[] = []
    if (trial) {
      const timed: { pipe: FeaturePipe; device: string; ms: number }[] = []
      const figures: Record<string, number> = {}
      for (const device of devices) {
        try {
          const pipe = await this.#open(transformers, device, DEFAULT_WASM_DTYPE)
          const ms = await this.#time(pipe)
          figures[`${device}Ms`] = ms
          timed.push({ pipe, device, ms })
        } catch (error) {
          figures[`${device}Failed`] = 1
          failures.push(`${device}: ${message(error)}`)
        }
      }
      timed.sort((a, b) => a.ms - b.ms)
      const [best, ...rest] = timed
      await Promise.all(rest.map((r) => r.pipe.dispose().catch(() => {})))
      if (best) return { pipe: best.pipe, device: best.device, trial: figures }
    } else {
      for (const device of devices) {
        try {
          return { pipe: await this.#open(transformers, device), device }
        } catch (error) {
          failures.push(`${device}: ${message(error)}`)
        }
      }
    }
    throw new EmbedderUnavailableError(`could not load ${this.model}: ${failures.join('; ')}`)
  }

  /**
   * Loads the pipeline on one device in the chosen (else the device's default) dtype; a default
   * whose file could not be fetched falls back to fp32 — the model lacks it (404), or this
   * device is offline and only fp32 was ever cached (a network error, not a 404, offline).
   */
  async #open(
    transformers: Transformers,
    device: string,
    trialDtype?: EmbedderDtype,
  ): Promise<FeaturePipe> {
    const chosen = this.#options.dtype
    const dtype =
      chosen ?? trialDtype ?? (device === 'wasm' ? DEFAULT_WASM_DTYPE : DEFAULT_EMBEDDER_DTYPE)
    try {
      return await this.#openAs(transformers, device, dtype)
    } catch (error) {
      if (chosen !== undefined || dtype === DEFAULT_EMBEDDER_DTYPE || !unfetched(error)) throw error
      return this.#openAs(transformers, device, DEFAULT_EMBEDDER_DTYPE)
    }
  }

  /** Loads the pipeline and proves it with one embedding of the right length. */
  async #openAs(
    transformers: Transformers,
    device: string,
    dtype: EmbedderDtype,
  ): Promise<FeaturePipe> {
    const { localDir } = this.#options
    const source = localDir === undefined ? this.model : `${absolutePath(localDir)}/${this.model}`
    const pipe = (await transformers.pipeline('feature-extraction', source, {
      device: device as 'cpu',
      dtype,
      local_files_only: !this.#allowRemote,
      progress_callback: (info: ProgressInfo) => this.#progress(info),
    })) as unknown as FeaturePipe
    try {
      const hidden = pipe.model.config.hidden_size
      const [probe] = await this.#embedAll(pipe, ['dimension probe'], false)
      const dims = probe?.length ?? 0
      if (this.#expectedDims !== undefined && dims !== this.#expectedDims) {
        throw new EmbedderUnavailableError(
          `expected ${this.#expectedDims}-dimensional vectors from ${this.model}, got ${dims} (config.json hidden_size ${hidden})`,
        )
      }
      this.#dims = dims
      return pipe
    } catch (error) {
      await pipe.dispose().catch(() => {})
      throw error
    }
  }

  /** Median milliseconds to embed the trial batch, after one warm-up run. */
  async #time(pipe: FeaturePipe): Promise<number> {
    await this.#embedAll(pipe, TRIAL_TEXTS, false)
    const runs: number[] = []
    for (let i = 0; i < TRIAL_RUNS; i++) {
      const started = performance.now()
      await this.#embedAll(pipe, TRIAL_TEXTS, false)
      runs.push(performance.now() - started)
    }
    return median(runs)
  }

  async #embedAll(pipe: FeaturePipe, texts: string[], checkDims = true): Promise<Float32Array[]> {
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      const batch = texts.slice(start, start + this.#batchSize)
      let output: Awaited<ReturnType<FeaturePipe>>
      try {
        output = await pipe(batch, { pooling: this.#pooling, normalize: true })
      } catch (error) {
        throw new EmbedderUnavailableError(`${this.model} failed to embed: ${message(error)}`, {
          cause: error,
        })
      }
      const [rows, dims] = output.dims
      if (rows !== batch.length || dims === undefined || (checkDims && dims !== this.#dims)) {
        output.dispose?.()
        throw new EmbedderUnavailableError(
          `${this.model} returned a [${output.dims}] tensor for ${batch.length} texts of ${this.#dims} dims`,
        )
      }
      for (let i = 0; i < rows; i++) {
        vectors.push(unitVector(output.data, i * dims, dims, start + i))
      }
      output.dispose?.()
    }
    return vectors
  }

  #progress(info: ProgressInfo): void {
    const onProgress = this.#options.onProgress
    // progress_total repeats the per-file figures summed (and names no file): forwarded, a
    // listener that sums files would count every byte twice.
    if (!onProgress || info.status === 'progress_total') return
    const file = 'file' in info ? info.file : ''
    let loaded = 0
    let total = 0
    if ('loaded' in info) {
      loaded = info.loaded
      total = info.total
      if (file) this.#fileTotals.set(file, total)
    } else if (info.status === 'done') {
      total = this.#fileTotals.get(file) ?? 0
      loaded = total
    }
    try {
      onProgress({ file, loaded, total, status: info.status })
    } catch {
      // A broken progress bar must not break the model load.
    }
  }
}

/** Copies one row out of the output tensor and rescales it to exactly unit length. */
function unitVector(
  data: ArrayLike<number>,
  offset: number,
  dims: number,
  index: number,
): Float32Array {
  let sum = 0
  for (let j = 0; j < dims; j++) {
    const x = data[offset + j]!
    sum += x * x
  }
  const norm = Math.sqrt(sum)
  if (!Number.isFinite(norm) || norm === 0) {
    throw new EmbedderUnavailableError(
      `the model produced a zero or non-finite vector for text ${index}`,
    )
  }
  const v = new Float32Array(dims)
  for (let j = 0; j < dims; j++) v[j] = data[offset + j]! / norm
  return v
}

/**
 * transformers.js: in Node the package itself (onnxruntime-node underneath, an optional peer
 * dependency of the published package); in browsers its web build, which the published package
 * vendors (package.json `imports`: `#transformers`).
 */
async function importTransformers(node: boolean): Promise<Transformers> {
  try {
    return await import('@huggingface/transformers')
  } catch (error) {
    if (!node) throw error
    throw new EmbedderUnavailableError(
      `transformers.js could not be imported (${message(error)}); in Node, install it beside Engram: npm install @huggingface/transformers`,
      { cause: error },
    )
  }
}

/** transformers.js' error for a missing file, or fetch's own (a TypeError) for no network. */
function unfetched(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    (error as { name?: unknown } | undefined)?.name === 'ModelFileNotFoundError'
  )
}

function wasmUrl(paths: unknown): string {
  if (typeof paths === 'string') return paths
  const wasm = (paths as { wasm?: unknown } | undefined)?.wasm
  return typeof wasm === 'string' ? wasm : ''
}

async function hasWebGpuAdapter(): Promise<boolean> {
  const gpu = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } })
    .navigator?.gpu
  if (!gpu) return false
  try {
    return (await gpu.requestAdapter()) != null
  } catch {
    return false
  }
}
