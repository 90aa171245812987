import * as Comlink from 'comlink'
import type { MemoryEventListener, RecallOptions, SelectHook } from '../core/types.ts'
import type { MemoryEngine } from '../engine/memory-engine.ts'
import { sendErrorsAsData } from './errors-as-data.ts'
import { type EngineEnvironment, type OpenedEngine, openEngine } from './open-engine.ts'
import {
  MEMORY_METHODS,
  type MemoryHost,
  type RemoteMemoryApi,
  type WorkerOpenOptions,
} from './protocol.ts'
import { plugSync, remoteSync } from './remote-sync.ts'

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
      plugSync(memory.engine, env.syncMirror)
      opened.push({ memory, onEvent })
      return Comlink.proxy(remoteApi(memory.engine))
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
 * The engine as the page may call it: the {@link MEMORY_METHODS} and nothing else (no
 * `catchUp`). `recall` takes the page's `select` hook as a third argument and releases its
 * proxy once the recall is over.
 */
function remoteApi(engine: MemoryEngine): RemoteMemoryApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const method of MEMORY_METHODS) {
    api[method] = async (...args) => Reflect.apply(engine[method], engine, args)
  }
  api.recall = async (query, options, select) => {
    try {
      const given = options as RecallOptions | undefined
      const recallOptions = select ? { ...given, select: select as SelectHook } : given
      return await engine.recall(query as string, recallOptions)
    } finally {
      release(select)
    }
  }
  Object.assign(api, remoteSync(engine, release))
  return api as unknown as RemoteMemoryApi
}

function release(proxy: unknown): void {
  const releaseProxy = (proxy as Partial<Comlink.ProxyMethods> | undefined)?.[Comlink.releaseProxy]
  releaseProxy?.()
}
