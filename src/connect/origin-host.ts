import * as Comlink from 'comlink'
import { sendErrorsAsData } from '../host/errors-as-data.ts'
import type { MemoryHost, WorkerOpenOptions } from '../host/protocol.ts'
import { type OriginEvents, originEvents } from './origin-events.ts'
import { type OriginAccess, scopeToOrigin } from './origin-scope.ts'

/**
 * A {@link MemoryHost} for one other origin: `open()` opens the host page's own memory (the
 * options the embedder sends are ignored, so it can choose neither the database nor the model)
 * and hands back the memory scoped to the origin by {@link scopeToOrigin}, its events scoped by
 * {@link originEvents} (changes to its namespaces only, nothing once it is revoked).
 */
export function createOriginHost(
  host: MemoryHost,
  memory: WorkerOpenOptions,
  access: OriginAccess,
): MemoryHost {
  // What it throws (a refusal, the engine's errors) crosses to the origin as data.
  sendErrorsAsData()
  const opened: OriginEvents[] = []
  return {
    async open(_asked, onEvent) {
      await access.namespaces()
      const events = originEvents(access, onEvent)
      opened.push(events)
      try {
        const api = await host.open(memory, events.listener)
        events.attach(api)
        return Comlink.proxy(scopeToOrigin(api, access))
      } catch (error) {
        events.stop()
        throw error
      }
    },
    async dispose() {
      for (const events of opened.splice(0)) events.stop()
      await host.dispose()
    },
  }
}
