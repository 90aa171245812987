/**
 * The wire contract between a page and the memory worker: what `open()` takes (everything
 * structured-cloneable) and what the worker exposes. The machinery lives in `memory-host.ts`
 * (worker side) and `client/connect-memory.ts` (page side).
 */
import type { ProxyMarked } from 'comlink'
import type { LimitOptions, RetrievalOptions } from '../core/options.ts'
import type { MemoryApi, MemoryEventListener } from '../core/types.ts'
import type { EmbedderDevice } from '../embedder/transformers-embedder.ts'

export { DEFAULT_MODEL } from '../embedder/model-table.ts'

export type { EmbedderDevice }

/** Where ONNX Runtime finds its `.wasm` and matching `.mjs`: a URL prefix, or both files. */
export type WasmPaths = string | { mjs: string; wasm: string }

/**
 * Which embedder the worker builds. Only plain data crosses the boundary, so the embedder is
 * named here and constructed inside the worker.
 *
 * @example
 * { kind: 'transformers', model: 'engram-test/tiny', modelBase: 'https://app.example/models/' }
 * // => the worker loads https://app.example/models/engram-test/tiny/config.json, …
 */
export type EmbedderChoice =
  /** Keyword-only recall (`degraded: 'no-embedder'`). */
  | { kind: 'none' }
  /** The deterministic hashed n-gram embedder (`engram/ngram-hash`): tests and demos. */
  | { kind: 'ngram'; dims?: number }
  | {
      kind: 'transformers'
      /** Hub id or self-hosted folder name. @default 'Xenova/bge-small-en-v1.5' */
      model?: string
      /**
       * Absolute base URL of self-hosted models: `<modelBase><model>/config.json`. When set,
       * the hub is not asked; leave it out to load from the Hugging Face hub.
       */
      modelBase?: string
      /** Fetch model files over the network at all (else only the browser cache). @default true */
      allowRemote?: boolean
      /** @default 'auto' */
      device?: EmbedderDevice
      /** Same-origin ONNX Runtime files, so no CDN request is made. */
      wasmPaths?: WasmPaths
    }

/** Everything the worker needs to open one memory. Structured-cloneable. */
export interface WorkerOpenOptions {
  /** Memory name: one IndexedDB database per name. */
  name: string
  /** @default { kind: 'transformers' } (bge-small-en-v1.5 from the hub) */
  embedder?: EmbedderChoice
  retrieval?: Partial<RetrievalOptions>
  limits?: Partial<LimitOptions>
  /** @default 1000 */
  snapshotEvery?: number
  /** @default 200 */
  recallLogSize?: number
  /**
   * Keep tabs of the same origin consistent: announce writes on a BroadcastChannel, catch up
   * when another tab writes, and serialise writers with a Web Lock. @default true
   */
  tabSync?: boolean
}

/**
 * What the worker exposes with `Comlink.expose`. `open` returns the engine itself as a
 * `Comlink.proxy`, so every {@link MemoryApi} call is one message each way.
 */
export interface MemoryHost {
  open(options: WorkerOpenOptions, onEvent?: MemoryEventListener): Promise<MemoryApi & ProxyMarked>
  /** Stops tab sync and drops every engine this host opened (call after `close()`). */
  dispose(): Promise<void>
}

/** A message on the per-memory BroadcastChannel: some tab committed up to `seq`. */
export interface TabSyncMessage {
  type: 'seq'
  seq: number
  /** The announcing context, so a tab ignores its own echo. */
  from: string
}

export { syncChannelName, writeLockName } from '../storage/names.ts'
