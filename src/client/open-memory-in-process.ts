import { MemoryClosedError } from '../core/errors.ts'
import { type EngineEnvironment, openEngine } from '../host/open-engine.ts'
import { plugSync } from '../host/remote-sync.ts'
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
  plugSync(engine, env.syncMirror)
  let closed = false
  return createClient(
    (method, args) =>
      closed
        ? Promise.reject(new MemoryClosedError())
        : Reflect.apply(engine[method], engine, args),
    {
      runsIn: 'process',
      events,
      isClosed: () => closed,
      terminate() {
        if (closed) return
        closed = true
        dispose()
        void engine.close().catch(() => {})
      },
      async close() {
        if (closed) return
        closed = true
        try {
          await engine.close()
        } finally {
          dispose()
        }
      },
    },
  )
}
