/**
 * "Tabs" in one process: each a memory host behind its own MessageChannel over one shared
 * fake-indexeddb, synced by the real BroadcastChannel (TabSync) and a shared lock standing in
 * for Web Locks, which Node lacks.
 */
import * as Comlink from 'comlink'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { afterEach } from 'vitest'
import { connectMemory } from '../../src/client/connect-memory.ts'
import type { MemoryClient } from '../../src/client/memory-client.ts'
import type { MemoryEvent } from '../../src/core/types.ts'
import { createMemoryHost } from '../../src/host/memory-host.ts'
import type { LocksLike } from '../../src/host/tab-sync.ts'

/** Serialises tasks in call order, as one exclusive Web Lock would. */
export function mutex(): LocksLike {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    request<T>(_name: string, task: () => Promise<T>): Promise<T> {
      const run = tail.then(task, task)
      tail = run.catch(() => {})
      return run
    },
  }
}

/**
 * An opener of tabs on memory `name` (n-gram embedder), all sharing `locks`; the tabs of a test
 * are closed after it. Call at the top level of a test file.
 */
export function tabOpener(): (
  name: string,
  locks: LocksLike,
  onEvent?: (e: MemoryEvent) => void,
) => Promise<MemoryClient> {
  const clients: MemoryClient[] = []
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {})
  })
  return async (name, locks, onEvent) => {
    const { port1, port2 } = new MessageChannel()
    Comlink.expose(createMemoryHost({ indexedDB, IDBKeyRange, locks }), port1)
    const client = await connectMemory(
      port2,
      { name, embedder: { kind: 'ngram', dims: 64 }, onEvent },
      { terminate: () => port2.close() },
    )
    clients.push(client)
    return client
  }
}
