import type { MemoryApi } from '../core/types.ts'
import { MEMORY_METHODS, type MemoryMethod } from '../host/protocol.ts'
import type { EventListeners } from './event-listeners.ts'
import type { MemoryClient } from './memory-client.ts'

/** Runs one {@link MemoryApi} method, wherever the engine is: over a port, or on this thread. */
export type CallMethod = (method: MemoryMethod, args: unknown[]) => Promise<unknown>

/** What differs between clients besides how a call travels: where it runs, and how it stops. */
export interface ClientLifecycle {
  runsIn: MemoryClient['runsIn']
  events: EventListeners
  isClosed(): boolean
  /** Replaces the forwarded `close`: each client has its own shutdown. */
  close(): Promise<void>
  terminate(): void
}

/**
 * The one client skeleton: every method of {@link MEMORY_METHODS} forwarded through `call`,
 * plus events and the lifecycle. Both `connectMemory` and `openMemoryInProcess` are this.
 */
export function createClient(call: CallMethod, lifecycle: ClientLifecycle): MemoryClient {
  const api = Object.fromEntries(
    MEMORY_METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as unknown as MemoryApi
  return {
    ...api,
    runsIn: lifecycle.runsIn,
    get closed() {
      return lifecycle.isClosed()
    },
    on: (listener) => lifecycle.events.on(listener),
    terminate: () => lifecycle.terminate(),
    close: () => lifecycle.close(),
  }
}
