/**
 * transformers.js underneath `TransformersEmbedder`: importing it, setting its process-wide
 * switches, loading a feature-extraction pipeline on one device, and embedding through it.
 */

import type { ProgressInfo } from '@huggingface/transformers'
import { EmbedderUnavailableError } from '../core/errors.ts'
import { errorText } from './checks.ts'
import type { Pooling } from './model-table.ts'
import {
  DEFAULT_EMBEDDER_DTYPE,
  DEFAULT_WASM_DTYPE,
  type EmbedderDtype,
  type ModelProgressEvent,
  type TransformersEmbedderOptions,
} from './transformers-options.ts'
import { batches, unitRow } from './vectors.ts'

export type Transformers = typeof import('@huggingface/transformers')

/** The part of transformers.js' FeatureExtractionPipeline the embedder uses. */
export interface FeaturePipe {
  (
    texts: string[],
    options: { pooling: Pooling; normalize: boolean },
  ): Promise<{ data: ArrayLike<number>; dims: number[]; dispose?: () => void }>
  model: { config: { hidden_size?: unknown } }
  dispose(): Promise<void>
}

/** A pipeline that passed its probe, with the vector length it produced. */
export interface LoadedPipe {
  pipe: FeaturePipe
  dims: number
}

/** What loading and running a pipeline needs to know about the model. */
export interface PipelineSpec {
  model: string
  /** The `pipeline()` argument: the model id, or its folder under `localDir`. */
  source: string
  allowRemote: boolean
  pooling: Pooling
  batchSize: number
  expectedDims: number | undefined
  /** The dtype the options chose; never swapped for another. */
  dtype: EmbedderDtype | undefined
  onProgress: (info: ProgressInfo) => void
}

/** What transformers.js sets `wasmPaths` to when nobody has: files on a CDN. */
const CDN_WASM_PATHS = /^https:\/\/cdn\.jsdelivr\.net\//

/**
 * transformers.js: in Node the package itself (onnxruntime-node underneath, an optional peer
 * dependency of the published package); in browsers its web build, which the published package
 * vendors (package.json `imports`: `#transformers`).
 */
export async function importTransformers(node: boolean): Promise<Transformers> {
  try {
    return await import('@huggingface/transformers')
  } catch (error) {
    if (!node) throw error
    throw new EmbedderUnavailableError(
      `transformers.js could not be imported (${errorText(error)}); in Node, install it beside Engram: npm install @huggingface/transformers`,
      { cause: error },
    )
  }
}

/** Sets transformers.js' process-wide switches for this embedder's files. */
export function configureTransformers(
  { env }: Transformers,
  options: Pick<TransformersEmbedderOptions, 'modelBase' | 'wasmPaths'>,
  allowRemote: boolean,
  node: boolean,
): void {
  const { modelBase, wasmPaths } = options
  // pipeline() looks up config.json and file sizes without passing local_files_only on
  // (transformers.js 4.3.1), so only the global switch keeps those lookups off the network.
  env.allowRemoteModels = allowRemote
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
  else if (!node && CDN_WASM_PATHS.test(wasmUrl(wasm.wasmPaths))) wasm.wasmPaths = undefined
}

/**
 * Loads the pipeline on one device in the chosen (else `fallbackDtype`, else the device's
 * default) dtype; a default whose file could not be fetched falls back to fp32 — the model
 * lacks it (404), or this device is offline and only fp32 was ever cached (a network error,
 * not a 404, offline).
 */
export async function openPipe(
  transformers: Transformers,
  spec: PipelineSpec,
  device: string,
  fallbackDtype?: EmbedderDtype,
): Promise<LoadedPipe> {
  const dtype =
    spec.dtype ?? fallbackDtype ?? (device === 'wasm' ? DEFAULT_WASM_DTYPE : DEFAULT_EMBEDDER_DTYPE)
  try {
    return await openAs(transformers, spec, device, dtype)
  } catch (error) {
    if (spec.dtype !== undefined || dtype === DEFAULT_EMBEDDER_DTYPE || !unfetched(error)) {
      throw error
    }
    return openAs(transformers, spec, device, DEFAULT_EMBEDDER_DTYPE)
  }
}

/** Loads the pipeline and proves it with one embedding of the right length. */
async function openAs(
  transformers: Transformers,
  spec: PipelineSpec,
  device: string,
  dtype: EmbedderDtype,
): Promise<LoadedPipe> {
  const pipe = (await transformers.pipeline('feature-extraction', spec.source, {
    device: device as 'cpu',
    dtype,
    local_files_only: !spec.allowRemote,
    progress_callback: spec.onProgress,
  })) as unknown as FeaturePipe
  try {
    const hidden = pipe.model.config.hidden_size
    const [probe] = await embedWith(pipe, spec, ['dimension probe'], undefined)
    const dims = probe?.length ?? 0
    if (spec.expectedDims !== undefined && dims !== spec.expectedDims) {
      throw new EmbedderUnavailableError(
        `expected ${spec.expectedDims}-dimensional vectors from ${spec.model}, got ${dims} (config.json hidden_size ${hidden})`,
      )
    }
    return { pipe, dims }
  } catch (error) {
    await pipe.dispose().catch(() => {})
    throw error
  }
}

/** Embeds `texts` in batches of `spec.batchSize`; with `dims`, checks every row's length. */
export async function embedWith(
  pipe: FeaturePipe,
  spec: Pick<PipelineSpec, 'model' | 'pooling' | 'batchSize'>,
  texts: string[],
  dims: number | undefined,
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = []
  for (const [batch, start] of batches(texts, spec.batchSize)) {
    let output: Awaited<ReturnType<FeaturePipe>>
    try {
      output = await pipe(batch, { pooling: spec.pooling, normalize: true })
    } catch (error) {
      throw new EmbedderUnavailableError(`${spec.model} failed to embed: ${errorText(error)}`, {
        cause: error,
      })
    }
    const [rows, width] = output.dims
    if (rows !== batch.length || width === undefined || (dims !== undefined && width !== dims)) {
      output.dispose?.()
      throw new EmbedderUnavailableError(
        `${spec.model} returned a [${output.dims}] tensor for ${batch.length} texts of ${dims} dims`,
      )
    }
    for (let i = 0; i < rows; i++) vectors.push(unitRow(output.data, i * width, width, start + i))
    output.dispose?.()
  }
  return vectors
}

/**
 * Turns transformers.js' progress into {@link ModelProgressEvent}s, each file's `done` carrying
 * its size. A listener that throws is ignored: a broken progress bar must not break the load.
 */
export function progressForwarder(
  onProgress: ((event: ModelProgressEvent) => void) | undefined,
): (info: ProgressInfo) => void {
  const fileTotals = new Map<string, number>()
  return (info) => {
    // progress_total repeats the per-file figures summed (and names no file): forwarded, a
    // listener that sums files would count every byte twice.
    if (!onProgress || info.status === 'progress_total') return
    const file = 'file' in info ? info.file : ''
    let loaded = 0
    let total = 0
    if ('loaded' in info) {
      loaded = info.loaded
      total = info.total
      if (file) fileTotals.set(file, total)
    } else if (info.status === 'done') {
      total = fileTotals.get(file) ?? 0
      loaded = total
    }
    try {
      onProgress({ file, loaded, total, status: info.status })
    } catch {
      // Ignored, as documented.
    }
  }
}

/** An absolute filesystem path, without importing `node:path` (this file also runs in browsers). */
export function absolutePath(dir: string): string {
  if (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) return dir
  const cwd = (globalThis as { process?: { cwd(): string } }).process?.cwd() ?? '.'
  return `${cwd}/${dir}`
}

function absoluteUrl(base: string): string {
  const here = (globalThis as { location?: { href: string } }).location?.href
  const url = here ? new URL(base, here).href : base
  return url.endsWith('/') ? url : `${url}/`
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
