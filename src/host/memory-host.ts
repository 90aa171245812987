import * as Comlink from 'comlink'
import type { MemoryEventListener, SelectHook } from '../core/types.ts'
import type { MemoryEngine } from '../engine/memory-engine.ts'
import { sendErrorsAsData } from './errors-as-data.ts'
import { type EngineEnvironment, type OpenedEngine, openEngine } from './open-engine.ts'
import {
  callMethod,
  forwardMethods,
  type MemoryHost,
  type RemoteMemoryApi,
  type WorkerOpenOptions,
} from './protocol.ts'
import { release, syncExtension } from './sync-extension.ts'

/**
 * The object a memory host exposes (the worker does, and so can any page at the end of a
 * `MessagePort`): `open()` builds an engine and hands back its {@link RemoteMemoryApi} as a
 * `Comlink.proxy`. Whatever it throws crosses as error data ({@link sendErrorsAsData}). `env` is
 * for Node tests (fake-indexeddb); a browser worker passes nothing.
 */
export function createMemoryHost(env: EngineEnvironment = {}): MemoryHost {
  sendErrorsAsData()
  const opened: { memory: OpenedEngine; onEvent: MemoryEventListener | undefined }[] = []
  return {
    async open(options: WorkerOpenOptions, onEvent?: MemoryEventListener) {
      let memory: OpenedEngine
      try {
        memory = await openEngine(options, onEvent, env)
      } catch (error) {
        release(onEvent)
        throw error
      }
      opened.push({ memory, onEvent })
      return Comlink.proxy(remoteApi(memory.engine, env.syncMirror))
    },
    async dispose(): Promise<void> {
      for (const { memory, onEvent } of opened.splice(0)) {
        memory.dispose()
        // Closes the port behind the page's event callback, so nothing keeps it alive.
        release(onEvent)
      }
    },
  }
}

/**
 * The engine as the page may call it: the `MEMORY_METHODS` and nothing else (no `catchUp`),
 * plus the sync extension's host half as `sync`. `recall` takes the page's `select` hook as a
 * third argument and releases its proxy once the recall is over; `close` stops a running sync
 * first, while the engine still takes its last writes and saves its cursor.
 */
function remoteApi(
  engine: MemoryEngine,
  mirror: ((name: string) => object) | undefined,
): RemoteMemoryApi {
  const sync = syncExtension.host(engine, mirror)
  const api = forwardMethods<RemoteMemoryApi>(async (method, args) =>
    callMethod(engine, method, args),
  )
  api.recall = async (query, options, select) => {
    try {
      const recallOptions = select ? { ...options, select: select as SelectHook } : options
      return await engine.recall(query, recallOptions)
    } finally {
      release(select)
    }
  }
  api.close = async () => {
    await sync.close()
    await engine.close()
  }
  api.sync = { start: sync.start, control: sync.control }
  return api
}
