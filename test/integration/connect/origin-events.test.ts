/**
 * What another origin hears of the memory's activity: the owner writes in their own "tab" (an
 * engine of its own on the same fake-indexeddb database, synced by the real BroadcastChannel),
 * the origin is connected as `embedMemory` connects it (the origin host behind a MessageChannel,
 * the real client on the other end), and the engine's own events are recorded beside it.
 */
import * as Comlink from 'comlink'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { connectMemory } from '../../../src/client/connect-memory.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { createOriginHost } from '../../../src/connect/origin-host.ts'
import { AccessDeniedError } from '../../../src/core/errors.ts'
import type { MemoryEvent } from '../../../src/core/types.ts'
import { createMemoryHost } from '../../../src/host/memory-host.ts'
import type { MemoryHost } from '../../../src/host/protocol.ts'
import type { LocksLike } from '../../../src/host/tab-sync.ts'
import { mutex, tabOpener } from '../../helpers/tabs.ts'

const ORIGIN = 'https://site.test'
const MINE = `origin:${ORIGIN}`
const EMBEDDER = { kind: 'ngram', dims: 64 } as const
const openTab = tabOpener()

const sites: MemoryClient[] = []
afterEach(async () => {
  for (const site of sites.splice(0)) await site.close().catch(() => {})
})

let counter = 0

/** A memory, its owner's tab, and a connected origin with what it and its engine heard. */
async function connected() {
  const name = `origin-events-${process.pid}-${++counter}`
  const locks: LocksLike = mutex()
  const owner = await openTab(name, locks)
  const engineHeard: MemoryEvent[] = []
  const inner = createMemoryHost({ indexedDB, IDBKeyRange, locks })
  const recording: MemoryHost = {
    open: (options, onEvent) =>
      inner.open(options, (event) => {
        engineHeard.push(event)
        onEvent?.(event)
      }),
    dispose: () => inner.dispose(),
  }
  const grant = { namespaces: [MINE], refusals: 0 }
  const access = {
    origin: ORIGIN,
    async namespaces() {
      if (grant.namespaces.length > 0) return grant.namespaces
      grant.refusals++
      throw new AccessDeniedError(ORIGIN, `${ORIGIN} no longer has access to this memory`)
    },
  }
  const { port1, port2 } = new MessageChannel()
  Comlink.expose(createOriginHost(recording, { name, embedder: EMBEDDER }, access), port1)
  const heard: MemoryEvent[] = []
  const site = await connectMemory(
    port2,
    { name, onEvent: (event) => heard.push(event) },
    { terminate: () => port2.close() },
  )
  sites.push(site)
  const changes = (events: MemoryEvent[]) => events.filter((event) => event.type === 'change')
  return {
    owner,
    site,
    grant,
    heard: () => changes(heard),
    engineHeard: () => changes(engineHeard),
  }
}

describe('events another origin hears', () => {
  it("hears of changes to its namespaces only, counted from one, not of the owner's", async () => {
    const { owner, site, heard, engineHeard } = await connected()
    await owner.rememberMany([
      { text: 'The owner banks with Acme' },
      { text: 'The owner sees Dr Okafor on Tuesdays' },
      { text: 'The owner is saving for a boat' },
    ])
    await expect.poll(() => engineHeard().length).toBeGreaterThan(0)

    await owner.remember('The reader prefers dark mode', { namespace: MINE })
    await expect.poll(() => heard().length).toBeGreaterThan(0)
    // Its first change is the one in its namespace, by its own count: not the owner's seq 3+.
    expect(heard()).toEqual([{ type: 'change', seq: 1 }])

    await site.remember('The reader prefers large print')
    await expect.poll(() => heard().length).toBe(2)
    expect(heard()).toEqual([
      { type: 'change', seq: 1 },
      { type: 'change', seq: 2 },
    ])
  })

  it('hears nothing more once it is revoked', async () => {
    const { owner, grant, heard, engineHeard } = await connected()
    await owner.remember('The reader prefers dark mode', { namespace: MINE })
    await expect.poll(() => heard().length).toBe(1)

    grant.namespaces = []
    const before = engineHeard().length
    await owner.remember('The reader prefers large print', { namespace: MINE })
    await expect.poll(() => engineHeard().length).toBeGreaterThan(before)
    // The change was put to the allow-list, which said no: it is not told.
    await expect.poll(() => grant.refusals).toBeGreaterThan(0)
    expect(heard()).toHaveLength(1)
  })
})
