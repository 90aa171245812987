/**
 * Reads the Universal Sentence Encoder lite's files — `model.json` (a TF.js graph), its weight
 * shards and `vocab.json` — from a base URL (browsers and workers: the app's own origin) or a
 * folder (Node). One reader for both, so the embedder has a single load path.
 */

import { concatBytes } from '../core/bytes.ts'
import type { MemoryEvent } from '../core/types.ts'
import { isNodeRuntime } from './checks.ts'

/** A file's load progress: the `model-progress` {@link MemoryEvent} without its `type`. */
export type UseProgressEvent = Omit<Extract<MemoryEvent, { type: 'model-progress' }>, 'type'>

/** Fetches one file; `fetch` by default. Injected in tests and by hosts with their own cache. */
export type FetchLike = (url: string) => Promise<{
  ok: boolean
  status: number
  headers: { get(name: string): string | null }
  arrayBuffer(): Promise<ArrayBuffer>
  body?: ReadableStream<Uint8Array> | null
}>

/** What the graph loader needs: the topology, the weight specs and all shards in one buffer. */
export interface UseArtifacts {
  modelTopology: unknown
  weightSpecs: unknown[]
  weightData: ArrayBuffer
  vocabulary: [string, number][]
  /** Bytes read, model and vocabulary together. */
  bytes: number
}

interface ModelJson {
  modelTopology: unknown
  weightsManifest: { paths: string[]; weights: unknown[] }[]
}

export interface ReadOptions {
  fetch?: FetchLike
  onProgress?: (event: UseProgressEvent) => void
}

/**
 * Reads every file under `base` (a URL ending in `/`, a `file:` URL, or — in Node — a folder
 * path) and checks the shapes it relies on.
 */
export async function readUseArtifacts(
  base: string,
  options: ReadOptions = {},
): Promise<UseArtifacts> {
  const read = await fileReader(base, options)
  const model = parseJson<ModelJson>(await read('model.json'), 'model.json')
  if (!model.modelTopology || !Array.isArray(model.weightsManifest)) {
    throw new Error('model.json: expected a TF.js graph model (modelTopology, weightsManifest)')
  }
  const paths = model.weightsManifest.flatMap((group) => group.paths)
  const [vocabBytes, ...shards] = await Promise.all([read('vocab.json'), ...paths.map(read)])
  const vocabulary = parseJson<[string, number][]>(vocabBytes!, 'vocab.json')
  if (!Array.isArray(vocabulary) || !Array.isArray(vocabulary[0])) {
    throw new Error('vocab.json: expected a list of [piece, score] pairs')
  }
  const weightData = concatBytes(shards)
  onProgress(options, {
    file: '',
    loaded: weightData.byteLength,
    total: weightData.byteLength,
    status: 'ready',
  })
  return {
    modelTopology: model.modelTopology,
    weightSpecs: model.weightsManifest.flatMap((group) => group.weights),
    weightData: weightData.buffer as ArrayBuffer,
    vocabulary,
    bytes: weightData.byteLength + vocabBytes!.byteLength,
  }
}

type Reader = (name: string) => Promise<Uint8Array>

const NODE_FS = 'node:fs/promises'
const NODE_URL = 'node:url'

async function fileReader(base: string, options: ReadOptions): Promise<Reader> {
  const dir = base.endsWith('/') ? base : `${base}/`
  if (!options.fetch && isFilesystemLocation(dir)) {
    // Specifiers in variables keep bundlers from pulling Node built-ins into browser builds.
    const fs = (await import(/* @vite-ignore */ NODE_FS)) as typeof import('node:fs/promises')
    const url = (await import(/* @vite-ignore */ NODE_URL)) as typeof import('node:url')
    const folder = dir.startsWith('file:') ? url.fileURLToPath(dir) : dir
    return async (name) => {
      onProgress(options, { file: name, loaded: 0, total: 0, status: 'initiate' })
      const bytes = new Uint8Array(await fs.readFile(`${folder}${name}`))
      return fileDone(options, name, bytes)
    }
  }
  const fetchFile = options.fetch ?? (globalThis.fetch as unknown as FetchLike | undefined)
  if (!fetchFile) throw new Error('no fetch in this runtime: pass options.fetch')
  const here = (globalThis as { location?: { href: string } }).location?.href
  const root = here ? new URL(dir, here).href : dir
  return async (name) => {
    const url = new URL(name, root).href
    onProgress(options, { file: name, loaded: 0, total: 0, status: 'initiate' })
    const response = await fetchFile(url)
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
    const total = Number(response.headers.get('content-length') ?? 0)
    const bytes = await readBody(response, (loaded) =>
      onProgress(options, {
        file: name,
        loaded,
        total: Math.max(total, loaded),
        status: 'progress',
      }),
    )
    return fileDone(options, name, bytes)
  }
}

/** A folder path or `file:` URL, read with `fs`, only where Node's `process` exists. */
function isFilesystemLocation(dir: string): boolean {
  return isNodeRuntime() && !/^(https?|blob|data):/i.test(dir)
}

async function readBody(
  response: Awaited<ReturnType<FetchLike>>,
  progress: (loaded: number) => void,
): Promise<Uint8Array> {
  const reader = response.body?.getReader()
  if (!reader) return new Uint8Array(await response.arrayBuffer())
  const chunks: Uint8Array[] = []
  let loaded = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    loaded += value.byteLength
    progress(loaded)
  }
  return concatBytes(chunks)
}

function parseJson<T>(bytes: Uint8Array, name: string): T {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as T
  } catch (error) {
    throw new Error(`${name}: not JSON (${error instanceof Error ? error.message : error})`)
  }
}

/** Reports `name` done with its size, and hands its bytes on. */
function fileDone(options: ReadOptions, name: string, bytes: Uint8Array): Uint8Array {
  onProgress(options, {
    file: name,
    loaded: bytes.byteLength,
    total: bytes.byteLength,
    status: 'done',
  })
  return bytes
}

function onProgress(options: ReadOptions, event: UseProgressEvent): void {
  try {
    options.onProgress?.(event)
  } catch {
    // A broken progress bar must not break the model load.
  }
}
