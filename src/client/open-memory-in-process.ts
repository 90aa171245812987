import { MemoryClosedError } from '../core/errors.ts'
import { type EngineEnvironment, openEngine } from '../host/open-engine.ts'
import { callMethod } from '../host/protocol.ts'
import { syncExtension } from '../host/sync-extension.ts'
import { createClient } from './create-client.ts'
import { eventListeners } from './event-listeners.ts'
import type { MemoryClient, OpenMemoryOptions } from './memory-client.ts'

/**
 * Opens a memory on this thread: the same {@link MemoryClient} as `openMemory`, without a
 * worker. For Node (pass fake-indexeddb or another IndexedDB in `env`), tests, and hosts that
 * cannot start workers. On a page, heavy work (embedding) then runs on the main thread.
 *
 * @example
 * import { indexedDB, IDBKeyRange } from 'fake-indexeddb'
 * const memory = await openMemoryInProcess({ name: 'notes' }, { indexedDB, IDBKeyRange })
 * await memory.count()
 * // => 0
 */
export async function openMemoryInProcess(
  options: OpenMemoryOptions,
  env: EngineEnvironment = {},
): Promise<MemoryClient> {
  const events = eventListeners(options.onEvent)
  const { onEvent: _onEvent, worker: _worker, ...openOptions } = options
  const { engine, dispose } = await openEngine(openOptions, events.dispatch, env)
  const syncHost = syncExtension.host(engine, env.syncMirror)
  let closed = false
  const unlessClosed = <T>(call: () => Promise<T>): Promise<T> =>
    closed ? Promise.reject(new MemoryClosedError()) : call()
  // A running sync stops first, while the engine still takes its last writes and saves its cursor.
  const closeEngine = async (): Promise<void> => {
    await syncHost.close()
    await engine.close()
  }
  return createClient((method, args) => unlessClosed(() => callMethod(engine, method, args)), {
    runsIn: 'process',
    events,
    sync: syncExtension.page(syncHost, unlessClosed),
    isClosed: () => closed,
    terminate() {
      if (closed) return
      closed = true
      dispose()
      void closeEngine().catch(() => {})
    },
    async close() {
      if (closed) return
      closed = true
      try {
        await closeEngine()
      } finally {
        dispose()
      }
    },
  })
}
