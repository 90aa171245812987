import * as Comlink from 'comlink'
import { MemoryClosedError, WorkerTerminatedError } from '../core/errors.ts'
import {
  callMethod,
  type MemoryHost,
  type MemoryMethod,
  type RemoteMemoryApi,
} from '../host/protocol.ts'
import { syncExtension } from '../host/sync-extension.ts'
import { cloneFailure } from './clone-failure.ts'
import { createClient } from './create-client.ts'
import { watchEndpoint } from './endpoint-watch.ts'
import { eventListeners } from './event-listeners.ts'
import type { MemoryClient, OpenMemoryOptions } from './memory-client.ts'
import { toWireArguments } from './wire-arguments.ts'

/** What the endpoint's owner does on `close()`/`terminate()`: `worker.terminate()`, `port.close()`. */
export interface ConnectHooks {
  terminate?: () => void
}

/**
 * Opens a memory through a Comlink endpoint whose other end exposes a {@link MemoryHost}: a
 * worker you created yourself (an extension's offscreen document), a `MessagePort` to an
 * iframe or another window, or a port in tests. Every call races the endpoint's death: an
 * `error` event (the worker failed), a `close` event (the port's other side closed) or
 * `terminate()` reject calls in flight with `WorkerTerminatedError` instead of hanging.
 *
 * @example
 * const worker = new Worker(new URL('engram/worker', import.meta.url), { type: 'module' })
 * const memory = await connectMemory(worker, { name: 'notes' }, { terminate: () => worker.terminate() })
 * memory.runsIn // => 'worker'
 */
export async function connectMemory(
  endpoint: Comlink.Endpoint,
  options: OpenMemoryOptions,
  hooks: ConnectHooks = {},
): Promise<MemoryClient> {
  const events = eventListeners(options.onEvent)
  let closedByCaller = false
  const link = watchEndpoint(endpoint, (reason, failed) => {
    if (!closedByCaller) events.dispatch({ type: 'closed', reason })
    if (failed) hooks.terminate?.()
  })

  const host = Comlink.wrap<MemoryHost>(endpoint)
  const { onEvent: _onEvent, worker: _worker, ...openOptions } = options
  let remote: Comlink.Remote<RemoteMemoryApi>
  try {
    remote = (await link.guard(
      sent(host.open(openOptions, Comlink.proxy(events.dispatch)), [openOptions]),
    )) as unknown as Comlink.Remote<RemoteMemoryApi>
  } catch (error) {
    closedByCaller = true
    link.die('the memory failed to open')
    host[Comlink.releaseProxy]()
    hooks.terminate?.()
    throw error
  }

  const shutDown = (reason: string): void => {
    closedByCaller = true
    link.die(reason)
    try {
      remote[Comlink.releaseProxy]()
      host[Comlink.releaseProxy]()
    } catch {}
    hooks.terminate?.()
  }

  let closing: Promise<void> | undefined
  /** One call over the port: refused once closed, raced against the endpoint's death. */
  const guarded = <T>(call: () => Promise<T>, args: unknown[] = []): Promise<T> => {
    if (closedByCaller) return Promise.reject(new MemoryClosedError())
    if (link.death !== undefined) return Promise.reject(new WorkerTerminatedError(link.death))
    return link.guard(sent(call(), args))
  }
  return createClient((method, args) => guarded(() => send(remote, method, args), args), {
    runsIn: 'worker',
    events,
    sync: syncExtension.page(remote.sync as unknown as RemoteMemoryApi['sync'], guarded),
    isClosed: () => closedByCaller || link.death !== undefined,
    terminate() {
      if (!closedByCaller) shutDown('the memory worker was terminated')
    },
    close() {
      closing ??= (async () => {
        if (link.death !== undefined) {
          shutDown(link.death)
          return
        }
        try {
          await link.guard(remote.close())
          await link.guard(host.dispose())
        } finally {
          shutDown('the memory was closed')
        }
      })()
      return closing
    },
  })
}

/** One method call over the port, its arguments in their wire form (a namespace's as a path). */
function send(
  remote: Comlink.Remote<RemoteMemoryApi>,
  method: MemoryMethod,
  args: unknown[],
): Promise<unknown> {
  return callMethod(remote, method, toWireArguments(method, args))
}

/** A call whose arguments could not be posted rejects naming the one at fault, not with a bare `DataCloneError`. */
async function sent<T>(call: Promise<T>, args: unknown[]): Promise<T> {
  try {
    return await call
  } catch (error) {
    throw cloneFailure(error, args) ?? error
  }
}
