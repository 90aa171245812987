/** The options of `TransformersEmbedder`, their defaults, and the checks run on them at construction. */

import { badOption, oneOf } from '../core/check-options.ts'
import type { MemoryEvent } from '../core/types.ts'
import { checkBatchSize } from './checks.ts'
import type { DeviceChoiceStore } from './device-choice-store.ts'
import { DEFAULT_MODEL, DEFAULT_POOLING, modelSettings, type Pooling } from './model-table.ts'

/**
 * Where inference runs. `'auto'` means CPU in Node; in a browser WebGPU when an adapter exists
 * and a timed trial shows it faster than WASM, else WASM (see
 * {@link TransformersEmbedderOptions.device} for the trial's rule). `'cpu'` (onnxruntime-node)
 * exists only in Node, `'wasm'` only in browsers and workers.
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

/** Options of `TransformersEmbedder`. Every field is optional. */
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
  /**
   * Where inference runs (see {@link EmbedderDevice}); a named device falls back to WASM
   * (browsers) or CPU (Node) when it fails to load. With `'auto'` and more than one candidate
   * (`trialDevices`), a timed trial picks, capped so a slow backend costs little:
   * - the candidates are tried cheapest first; the first that loads is the baseline, timed over
   *   one warm-up and 3 runs of an 8-sentence batch;
   * - each later candidate may then take {@link DEVICE_TRIAL_FACTOR} times the baseline's
   *   warm-up and runs, and at least {@link DEVICE_TRIAL_FLOOR_MS}, for everything: its load,
   *   warm-up and runs. It is abandoned the moment it goes over, or as soon as so many of its
   *   runs are slower than the baseline's median that its own median cannot beat it;
   * - the lowest median wins, the baseline on a tie.
   * The worst case is the baseline's trial plus that budget: about 3 s on a software WebGPU
   * adapter, whose full trial took 55 s against 0.5 s for WASM. The decision is remembered per
   * model, dtype, candidates and GPU adapter (`deviceChoices`), so later loads skip the trial
   * (`stats().deviceSource` is `'remembered'`) until the remembered device fails to load, which
   * sends the choice back to a trial.
   * @default 'auto'
   */
  device?: EmbedderDevice
  /**
   * The devices `device: 'auto'` chooses between, cheapest first: the first that loads is the
   * baseline the others are timed against. Ignored unless `device` is `'auto'`.
   * @default browsers: ['wasm', 'webgpu'] when a WebGPU adapter exists, else ['wasm']; Node: ['cpu']
   * @example trialDevices: ['cpu', 'webgpu'] // Node with a GPU: time onnxruntime-node's WebGPU
   */
  trialDevices?: readonly Exclude<EmbedderDevice, 'auto'>[]
  /**
   * Where `device: 'auto'` remembers its decisions. Failures to read or write it never fail a
   * load; the trial simply runs again.
   * @default the IndexedDB database `engram-device-choice` where `indexedDB` exists (pages and
   *   workers of one origin share it), else one store in memory per process
   */
  deviceChoices?: DeviceChoiceStore
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
/** A challenger in the device trial may take this many times the baseline's warm-up and runs. */
export const DEVICE_TRIAL_FACTOR = 4
/** …and at least this many milliseconds, for the fixed costs (a GPU's shader compiles). */
export const DEVICE_TRIAL_FLOOR_MS = 3000

/** The options after their checks, with the model table's settings filled in. */
export interface EmbedderSettings {
  model: string
  device: EmbedderDevice
  pooling: Pooling
  instruction: string
  expectedDims: number | undefined
  batchSize: number
  trialDevices: readonly Exclude<EmbedderDevice, 'auto'>[] | undefined
}

/** Checks `options` for this runtime and resolves them; throws `InvalidInputError` naming the field. */
export function resolveOptions(
  options: TransformersEmbedderOptions,
  node: boolean,
): EmbedderSettings {
  const model = options.model ?? DEFAULT_MODEL
  if (typeof model !== 'string' || model.trim() === '') {
    throw badOption('model', 'a model id', model)
  }
  const device = options.device ?? 'auto'
  checkDevice('device', device, node, true)
  checkSources(options, node)
  if (options.dtype !== undefined) oneOf(options.dtype, EMBEDDER_DTYPES, 'dtype')
  if (options.dims !== undefined && (!Number.isInteger(options.dims) || options.dims < 1)) {
    throw badOption('dims', 'a positive integer', options.dims)
  }
  const table = modelSettings(model)
  return {
    model,
    device,
    pooling: options.pooling ?? table?.pooling ?? DEFAULT_POOLING,
    instruction: options.queryInstruction ?? table?.queryInstruction ?? '',
    expectedDims: options.dims ?? table?.dims,
    batchSize: checkBatchSize(options.batchSize, DEFAULT_EMBEDDER_BATCH_SIZE),
    trialDevices: checkTrialDevices(options.trialDevices, node),
  }
}

function checkDevice(field: string, device: unknown, node: boolean, autoAllowed: boolean): void {
  const known = autoAllowed ? ['auto', 'webgpu', 'wasm', 'cpu'] : ['webgpu', 'wasm', 'cpu']
  oneOf(device, known, field)
  if (node && device === 'wasm') {
    throw badOption(field, "'auto', 'cpu' or 'webgpu' in Node ('wasm' is for browsers)", device)
  }
  if (!node && device === 'cpu') {
    throw badOption(field, "'auto', 'webgpu' or 'wasm' in a browser ('cpu' is for Node)", device)
  }
}

function checkSources(options: TransformersEmbedderOptions, node: boolean): void {
  if (options.localDir !== undefined && !node) {
    throw badOption('localDir', 'no local directory in a browser (use modelBase)', options.localDir)
  }
  if (options.localDir !== undefined && options.modelBase !== undefined) {
    throw badOption('modelBase', 'localDir or modelBase', 'both')
  }
}

function checkTrialDevices(
  devices: TransformersEmbedderOptions['trialDevices'],
  node: boolean,
): EmbedderSettings['trialDevices'] {
  if (devices === undefined) return undefined
  if (!Array.isArray(devices) || devices.length === 0) {
    throw badOption('trialDevices', 'a non-empty array of devices', devices)
  }
  for (const [i, device] of devices.entries()) {
    checkDevice(`trialDevices[${i}]`, device, node, false)
  }
  if (new Set(devices).size !== devices.length) {
    throw badOption('trialDevices', 'each device once', devices.join(', '))
  }
  return Object.freeze([...devices])
}
