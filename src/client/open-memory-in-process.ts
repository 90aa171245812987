import { MemoryClosedError } from '../core/errors.ts'
import { type EngineEnvironment, openEngine } from '../worker/open-engine.ts'
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
  const dispatch = events.dispatch
  const { onEvent: _onEvent, worker: _worker, ...openOptions } = options
  const { engine, dispose } = await openEngine(openOptions, dispatch, env)
  let closed = false
  const live = <T>(run: () => Promise<T>): Promise<T> =>
    closed ? Promise.reject(new MemoryClosedError()) : run()

  return {
    runsIn: 'process',
    get closed() {
      return closed
    },
    on(listener) {
      return events.on(listener)
    },
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
    remember: (text, rememberOptions) => live(() => engine.remember(text, rememberOptions)),
    rememberMany: (items) => live(() => engine.rememberMany(items)),
    update: (id, patch) => live(() => engine.update(id, patch)),
    forget: (id) => live(() => engine.forget(id)),
    get: (id) => live(() => engine.get(id)),
    list: (listOptions) => live(() => engine.list(listOptions)),
    count: (filter) => live(() => engine.count(filter)),
    recall: (query, recallOptions) => live(() => engine.recall(query, recallOptions)),
    recallLog: (logOptions) => live(() => engine.recallLog(logOptions)),
    clearRecallLog: () => live(() => engine.clearRecallLog()),
    stats: () => live(() => engine.stats()),
    verify: () => live(() => engine.verify()),
    exportMemories: (exportOptions) => live(() => engine.exportMemories(exportOptions)),
    importMemories: (jsonl, importOptions) =>
      live(() => engine.importMemories(jsonl, importOptions)),
  }
}
