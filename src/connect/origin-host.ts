import * as Comlink from 'comlink'
import { errorToData } from '../core/errors.ts'
import type { MemoryHost, WorkerOpenOptions } from '../host/protocol.ts'
import { type OriginAccess, scopeToOrigin } from './origin-scope.ts'

/**
 * A {@link MemoryHost} for one other origin: `open()` opens the host page's own memory (the
 * options the embedder sends are ignored, so it can choose neither the database nor the model)
 * and hands back the memory scoped to the origin by {@link scopeToOrigin}.
 */
export function createOriginHost(
  host: MemoryHost,
  memory: WorkerOpenOptions,
  access: OriginAccess,
): MemoryHost {
  return {
    async open(_asked, onEvent) {
      try {
        await access.namespaces()
      } catch (error) {
        throw error instanceof Error ? errorToData(error) : error
      }
      const api = await host.open(memory, onEvent)
      return Comlink.proxy(scopeToOrigin(api, access))
    },
    dispose: () => host.dispose(),
  }
}
