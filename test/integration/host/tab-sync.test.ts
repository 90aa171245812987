/**
 * Two "tabs" in one process: two engines on the same fake-indexeddb database, each behind its
 * own MessageChannel, synced by the real BroadcastChannel and a shared lock (Node has no Web
 * Locks). Proves the glue: announce, catch up, serialise writers.
 */
import * as Comlink from 'comlink'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { connectMemory } from '../../../src/client/connect-memory.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import type { MemoryEvent } from '../../../src/core/types.ts'
import { createMemoryHost } from '../../../src/host/memory-host.ts'
import { type CatchUpTarget, type LocksLike, TabSync } from '../../../src/host/tab-sync.ts'

function mutex(): LocksLike {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    request<T>(_name: string, task: () => Promise<T>): Promise<T> {
      const run = tail.then(task, task)
      tail = run.catch(() => {})
      return run
    },
  }
}

const clients: MemoryClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {})
})

async function tab(name: string, locks: LocksLike, onEvent?: (e: MemoryEvent) => void) {
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

describe('tab sync', () => {
  it('a fact remembered in one tab is recalled in the other within a second', async () => {
    const locks = mutex()
    const name = `tabs-${process.pid}-recall`
    const changes: MemoryEvent[] = []
    const a = await tab(name, locks)
    const b = await tab(name, locks, (e) => e.type === 'change' && changes.push(e))
    const { id } = await a.remember('The spare key is under the blue flowerpot')
    await expect
      .poll(async () => (await b.recall('where is the spare key')).hits[0]?.id, { timeout: 1000 })
      .toBe(id)
    // The other tab's listeners hear about the replayed change, so its lists can refresh.
    expect(changes.length).toBeGreaterThan(0)
    expect((await b.inspect.verify()).ok).toBe(true)
  })

  it('the same fact remembered in both tabs at once is stored once', async () => {
    const locks = mutex()
    const name = `tabs-${process.pid}-dedup`
    const a = await tab(name, locks)
    const b = await tab(name, locks)
    const text = 'Standup moved to 9:30 on Tuesdays'
    const [ra, rb] = await Promise.all([a.remember(text), b.remember(text)])
    expect(ra.id).toBe(rb.id)
    expect([ra.status, rb.status].sort()).toEqual(['created', 'duplicate'])
    expect(await a.count()).toBe(1)
    await expect.poll(() => b.count()).toBe(1)
  })

  it('collapses announcements heard during a catch-up into one more catch-up', async () => {
    const posted: unknown[] = []
    let listener: ((event: MessageEvent) => void) | undefined
    const channel = {
      postMessage: (m: unknown) => posted.push(m),
      addEventListener: (_: 'message', l: (event: MessageEvent) => void) => {
        listener = l
      },
      close: () => {},
    }
    let calls = 0
    let release: () => void = () => {}
    const target: CatchUpTarget = {
      catchUp: () => {
        calls++
        return new Promise<number>((resolve) => {
          release = () => resolve(1)
        })
      },
    }
    const sync = new TabSync('unit', { channel })
    sync.attach(target)
    const hear = (seq: number) =>
      listener?.({ data: { type: 'seq', seq, from: 'other' } } as MessageEvent)
    hear(1)
    hear(2)
    hear(3)
    hear(2)
    expect(calls).toBe(1)
    release()
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toBe(2)
    release()
    await sync.idle()
    expect(calls).toBe(2)
    sync.announce(3)
    expect(posted).toEqual([])
    sync.announce(4)
    expect(posted).toEqual([{ type: 'seq', seq: 4, from: expect.any(String) }])
    sync.close()
  })
})
