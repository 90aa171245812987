import type { MemoryApi, SyncApi } from '../core/types.ts'
import { forwardMethods, type MemoryMethod } from '../host/protocol.ts'
import type { EventListeners } from './event-listeners.ts'
import type { MemoryClient } from './memory-client.ts'

/** Runs one {@link MemoryApi} method by its path, wherever the engine is: over a port, or on this thread. */
export type CallMethod = (method: MemoryMethod, args: unknown[]) => Promise<unknown>

/** What differs between clients besides how a call travels: where it runs, and how it stops. */
export interface ClientLifecycle {
  runsIn: MemoryClient['runsIn']
  events: EventListeners
  /** The sync extension's page half (`host/sync-extension.ts`), wired to this client's host. */
  sync: SyncApi
  isClosed(): boolean
  /** Replaces the forwarded `close`: each client has its own shutdown. */
  close(): Promise<void>
  terminate(): void
}

/**
 * The one client skeleton: every method of `MEMORY_METHODS` forwarded through `call`, each
 * namespace one object, plus the sync extension, events and the lifecycle. Both
 * `connectMemory` and `openMemoryInProcess` are this.
 */
export function createClient(call: CallMethod, lifecycle: ClientLifecycle): MemoryClient {
  const api = forwardMethods<MemoryApi>(call)
  return {
    ...api,
    sync: lifecycle.sync,
    runsIn: lifecycle.runsIn,
    get closed() {
      return lifecycle.isClosed()
    },
    on: (listener) => lifecycle.events.on(listener),
    terminate: () => lifecycle.terminate(),
    close: () => lifecycle.close(),
  }
}
