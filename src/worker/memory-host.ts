import * as Comlink from 'comlink'
import type { MemoryApi, MemoryEventListener } from '../core/types.ts'
import { type EngineEnvironment, type OpenedEngine, openEngine } from './open-engine.ts'
import type { MemoryHost, WorkerOpenOptions } from './protocol.ts'

/**
 * The object a memory worker exposes: `open()` builds an engine and hands it back as a
 * `Comlink.proxy`, so the page talks to the real {@link MemoryEngine} with nothing in between.
 * `env` is for Node tests (fake-indexeddb); a browser worker passes nothing.
 */
export function createMemoryHost(env: EngineEnvironment = {}): MemoryHost {
  const opened: { memory: OpenedEngine; onEvent: MemoryEventListener | undefined }[] = []
  return {
    async open(
      options: WorkerOpenOptions,
      onEvent?: MemoryEventListener,
    ): Promise<MemoryApi & Comlink.ProxyMarked> {
      const memory = await openEngine(options, onEvent, env)
      opened.push({ memory, onEvent })
      return Comlink.proxy(memory.engine)
    },
    async dispose(): Promise<void> {
      for (const { memory, onEvent } of opened.splice(0)) {
        memory.dispose()
        // Closes the port behind the page's event callback, so nothing keeps it alive.
        const release = (onEvent as Partial<Comlink.ProxyMethods> | undefined)?.[
          Comlink.releaseProxy
        ]
        release?.()
      }
    },
  }
}
