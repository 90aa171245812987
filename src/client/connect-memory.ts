import * as Comlink from 'comlink'
import { MemoryClosedError, reviveError, WorkerTerminatedError } from '../core/errors.ts'
import type { MemoryApi, RememberItem, RememberOptions } from '../core/types.ts'
import type { MemoryHost } from '../worker/protocol.ts'
import { eventListeners } from './event-listeners.ts'
import type { MemoryClient, OpenMemoryOptions } from './memory-client.ts'

/** What the endpoint's owner does on `close()`/`terminate()`: `worker.terminate()`, `port.close()`. */
export interface ConnectHooks {
  terminate?: () => void
}

/**
 * Opens a memory through a Comlink endpoint whose other end exposes a {@link MemoryHost} (a
 * memory worker, or a `MessagePort` in tests). Every call races the endpoint's death: an
 * `error` event (the worker failed), a `close` event (the port's other side closed) or
 * `terminate()` reject calls in flight with `WorkerTerminatedError` instead of hanging.
 */
export async function connectMemory(
  endpoint: Comlink.Endpoint,
  options: OpenMemoryOptions,
  hooks: ConnectHooks = {},
): Promise<MemoryClient> {
  const events = eventListeners(options.onEvent)
  const dispatch = events.dispatch

  const waiting = new Set<(error: Error) => void>()
  let death: string | undefined
  let closedByCaller = false
  const die = (reason: string): void => {
    if (death !== undefined) return
    death = reason
    for (const reject of waiting) reject(new WorkerTerminatedError(reason))
    waiting.clear()
    endpoint.removeEventListener('error', onError)
    endpoint.removeEventListener('close', onClose)
    if (!closedByCaller) dispatch({ type: 'closed', reason })
  }
  const onError = (event: unknown): void => {
    const message = (event as { message?: unknown }).message
    die(`the memory worker failed${typeof message === 'string' && message ? `: ${message}` : ''}`)
    hooks.terminate?.()
  }
  const onClose = (): void => die('the memory worker closed its channel')
  endpoint.addEventListener('error', onError)
  endpoint.addEventListener('close', onClose)

  /** Settles with `promise`, or rejects when the endpoint dies first; errors are revived. */
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (death !== undefined) {
        reject(new WorkerTerminatedError(death))
        return
      }
      waiting.add(reject)
      promise.then(
        (value) => {
          waiting.delete(reject)
          resolve(value)
        },
        (error: unknown) => {
          waiting.delete(reject)
          reject(reviveError(error))
        },
      )
    })

  const host = Comlink.wrap<MemoryHost>(endpoint)
  const { onEvent: _onEvent, worker: _worker, ...openOptions } = options
  let remote: Comlink.Remote<MemoryApi>
  try {
    remote = (await guard(
      host.open(openOptions, Comlink.proxy(dispatch)),
    )) as unknown as Comlink.Remote<MemoryApi>
  } catch (error) {
    closedByCaller = true
    die('the memory failed to open')
    host[Comlink.releaseProxy]()
    hooks.terminate?.()
    throw error
  }

  const call = <T>(run: (api: Comlink.Remote<MemoryApi>) => Promise<T>): Promise<T> => {
    if (closedByCaller) return Promise.reject(new MemoryClosedError())
    if (death !== undefined) return Promise.reject(new WorkerTerminatedError(death))
    return guard(run(remote))
  }

  const shutDown = (reason: string): void => {
    closedByCaller = true
    die(reason)
    try {
      remote[Comlink.releaseProxy]()
      host[Comlink.releaseProxy]()
    } catch {}
    hooks.terminate?.()
  }

  let closing: Promise<void> | undefined
  const client: MemoryClient = {
    runsIn: 'worker',
    get closed() {
      return closedByCaller || death !== undefined
    },
    on(listener) {
      return events.on(listener)
    },
    terminate() {
      if (closedByCaller) return
      shutDown('the memory worker was terminated')
    },
    close() {
      closing ??= (async () => {
        if (death !== undefined) {
          shutDown(death)
          return
        }
        try {
          await guard(remote.close())
          await guard(host.dispose())
        } finally {
          shutDown('the memory was closed')
        }
      })()
      return closing
    },
    remember: (text, rememberOptions) =>
      call((api) => api.remember(text, transferVector(rememberOptions))),
    rememberMany: (items) => call((api) => api.rememberMany(transferVectors(items))),
    update: (id, patch) => call((api) => api.update(id, patch)),
    forget: (id) => call((api) => api.forget(id)),
    get: (id) => call((api) => api.get(id)),
    list: (listOptions) => call((api) => api.list(listOptions)),
    count: (filter) => call((api) => api.count(filter)),
    recall: (query, recallOptions) => call((api) => api.recall(query, recallOptions)),
    recallLog: (logOptions) => call((api) => api.recallLog(logOptions)),
    clearRecallLog: () => call((api) => api.clearRecallLog()),
    stats: () => call((api) => api.stats()),
    verify: () => call((api) => api.verify()),
    exportMemories: (exportOptions) => call((api) => api.exportMemories(exportOptions)),
    importMemories: (jsonl, importOptions) =>
      call((api) => api.importMemories(jsonl, importOptions)),
  }
  return client
}

/**
 * Moves a precomputed vector to the worker without copying. The caller's `Float32Array` is
 * detached afterwards; a view into a larger buffer is copied first so the rest survives.
 */
function transferVector(options: RememberOptions | undefined): RememberOptions | undefined {
  if (!options?.vector) return options
  const vector = ownBuffer(options.vector, new Set())
  return Comlink.transfer({ ...options, vector }, [vector.buffer as ArrayBuffer])
}

function transferVectors(items: RememberItem[]): RememberItem[] {
  const buffers = new Set<ArrayBufferLike>()
  const moved = items.map((item) =>
    item.vector ? { ...item, vector: ownBuffer(item.vector, buffers) } : item,
  )
  if (buffers.size === 0) return items
  return Comlink.transfer(moved, [...buffers] as ArrayBuffer[])
}

/** A vector that alone owns a transferable buffer; `seen` collects the buffers to transfer. */
function ownBuffer(vector: Float32Array, seen: Set<ArrayBufferLike>): Float32Array {
  const whole =
    vector.byteOffset === 0 &&
    vector.byteLength === vector.buffer.byteLength &&
    vector.buffer instanceof ArrayBuffer &&
    !seen.has(vector.buffer)
  const own = whole ? vector : vector.slice()
  seen.add(own.buffer)
  return own
}
