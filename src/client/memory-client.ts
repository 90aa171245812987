import type { MemoryApi, MemoryEventListener, SyncApi } from '../core/types.ts'
import type { WorkerOpenOptions } from '../host/protocol.ts'

/**
 * A memory as the page sees it: the whole {@link MemoryApi}, the sync extension as `sync`,
 * events and a hard stop.
 * Errors are the catalogue's own classes (`instanceof InvalidInputError` works, `code` and
 * `field` are set), whether the engine runs in a worker or in process.
 */
export interface MemoryClient extends MemoryApi {
  /**
   * Multi-device sync, the extension every client door opens with (`host/sync-extension.ts`):
   * `memory.sync.start(options)` returns a running sync's handle.
   */
  readonly sync: SyncApi
  /**
   * Listens to progress and change events (model download, backfill, re-embed, import, other
   * tabs' writes). Returns the function that stops listening.
   *
   * @example
   * const off = memory.on((e) => e.type === 'model-progress' && console.log(e.loaded / e.total))
   * // => logs 0.12, 0.57, 1 … while the model downloads
   */
  on(listener: MemoryEventListener): () => void
  /**
   * Stops the worker at once, without closing the database cleanly. Calls in flight reject
   * with `WorkerTerminatedError`; later calls with `MemoryClosedError`. Prefer `close()`.
   */
  terminate(): void
  /** True after `close()`, `terminate()` or the worker's death. */
  readonly closed: boolean
  /** Where the engine runs. */
  readonly runsIn: 'worker' | 'process'
}

/**
 * How to open a memory from a page (or in Node, in process). Only `name` is required. Every
 * field but these two is plain data (`MemoryOptions` plus the embedder choice and tab sync), so
 * the same options open a memory in a worker or on this thread.
 *
 * @example
 * await openMemory({ name: 'notes', writeBatch: 100, keyword: { prefixMinLength: 3 } })
 * // => a MemoryClient whose worker coalesces at most 100 writes per transaction
 */
export interface OpenMemoryOptions extends WorkerOpenOptions {
  /** First event listener; more can be added with `on()`. */
  onEvent?: MemoryEventListener
  /**
   * A worker running `memory-worker.ts` to use instead of spawning the bundled one (an
   * extension's offscreen document, a custom bundler). It is terminated by `close()`.
   */
  worker?: Worker
}
