/**
 * `memory.sync.start()` through both clients: in process, and over a real MessageChannel to the same
 * host the worker runs, against a real CouchDB-protocol server (express-pouchdb) on 127.0.0.1.
 * The mirrors are PouchDB's memory adapter (its IndexedDB adapter needs a real IndexedDB: the
 * browser test covers it).
 */
import * as Comlink from 'comlink'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import memoryAdapter from 'pouchdb-adapter-memory'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { connectMemory } from '../../../src/client/connect-memory.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openMemoryInProcess } from '../../../src/client/open-memory-in-process.ts'
import { SyncKeyError, SyncServerError, SyncStateError } from '../../../src/core/errors.ts'
import type { SyncStatus } from '../../../src/core/types.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { createMemoryHost } from '../../../src/host/memory-host.ts'
import { startSync } from '../../../src/sync/index.ts'
import { Pouch } from '../../../src/sync/pouch.ts'
import { CouchServer } from '../../helpers/couch-server.ts'
import { Gatekeeper } from '../sync/gatekeeper.ts'
import { eventually, testKey } from '../sync/sync-helpers.ts'

Pouch.plugin(memoryAdapter)
let counter = 0
const env = {
  indexedDB,
  IDBKeyRange,
  syncMirror: (mirror: string) => new Pouch(`${mirror}-${++counter}`, { adapter: 'memory' }),
}

let server: CouchServer
const opened: MemoryClient[] = []
const ports: MessagePort[] = []

beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close().catch(() => {})
  for (const port of ports.splice(0)) port.close()
})

const name = (what: string) => `client-sync-${what}-${process.pid}-${++counter}`
const options = (n: string) => ({ name: n, embedder: { kind: 'ngram' as const }, tabSync: false })

async function inProcess(what: string): Promise<MemoryClient> {
  const memory = await openMemoryInProcess(options(name(what)), env)
  opened.push(memory)
  return memory
}

async function overPort(what: string): Promise<MemoryClient> {
  const { port1, port2 } = new MessageChannel()
  ports.push(port1, port2)
  Comlink.expose(createMemoryHost(env), port1)
  const memory = await connectMemory(port2, options(name(what)), {
    terminate: () => port2.close(),
  })
  opened.push(memory)
  return memory
}

async function texts(memory: MemoryClient): Promise<string[]> {
  return (await memory.list({ limit: 100 })).items.map((m) => m.text).sort()
}

describe('memory.sync.start() through the clients', () => {
  it('carries a memory from an in-process client to a worker-hosted one, live, with status events', async () => {
    const url = server.url(`clients-${++counter}`)
    const key = await testKey()
    const a = await inProcess('a')
    const b = await overPort('b')
    await a.remember('The spare key is under the blue pot')
    const seenA: SyncStatus[] = []
    const syncA = await a.sync.start({ url, key, pollMs: 20 })
    syncA.on((s) => seenA.push(s))
    // The CryptoKey crossed the port: structured-cloneable, so the worker derives the same keys.
    const syncB = await b.sync.start({ url, key, pollMs: 20 })
    const seenB: SyncStatus[] = []
    syncB.on((s) => seenB.push(s))
    await eventually(async () => (await texts(b)).includes('The spare key is under the blue pot'))
    const boiler = await b.remember('The boiler service is due in March')
    await eventually(async () => (await texts(a)).includes('The boiler service is due in March'))
    // A relation made while live arrives too, though relating writes no change-log entry.
    const spare = (await b.list({ limit: 10 })).items.find((m) => m.text.includes('spare key'))!
    await b.relations.add(boiler.id, spare.id, 'related_to')
    await eventually(async () => {
      const onA = (await a.list({ limit: 10 })).items.find((m) => m.text.includes('boiler'))!
      return (await a.relations.of(onA.id)).some((r) => r.kind === 'related_to')
    })
    expect(seenB.some((s) => s.pulled > 0)).toBe(true)
    expect(syncB.status.applied).toBeGreaterThan(0)
    expect(seenA.some((s) => s.pushed > 0 || s.state === 'active' || s.state === 'paused')).toBe(
      true,
    )
    await syncB.stop()
    await expect(syncB.done).resolves.toMatchObject({ state: 'stopped' })
    expect(syncB.status.state).toBe('stopped')
    await syncA.stop()
    expect((await syncA.done).state).toBe('stopped')
  })

  it('refuses a second sync while one runs, with the catalogue class over the port, and allows one after stop', async () => {
    const url = server.url(`second-${++counter}`)
    const key = await testKey()
    const b = await overPort('second')
    const first = await b.sync.start({ url, key })
    const again = b.sync.start({ url, key })
    await expect(again).rejects.toBeInstanceOf(SyncStateError)
    await expect(again).rejects.toMatchObject({ code: 'SYNC_RUNNING' })
    await first.stop()
    const next = await b.sync.start({ url, key, live: false })
    expect((await next.done).state).toBe('complete')
  })

  it('leaves sync off an engine opened by itself, which syncs through startSync of engram/sync', async () => {
    const engine = await MemoryEngine.open({ name: name('bare'), indexedDB, IDBKeyRange })
    try {
      const url = server.url(`bare-${++counter}`)
      const options = { url, key: await testKey(), live: false }
      // The extension is the client doors': the engine has no `sync` member at all.
      expect('sync' in engine).toBe(false)
      await engine.remember('The gate code is 1209')
      const sync = await startSync(engine, { ...options, mirror: env.syncMirror('bare') })
      expect((await sync.done).state).toBe('complete')
    } finally {
      await engine.close()
    }
  })

  it('rejects a wrong key as SyncKeyError over the port and writes nothing', async () => {
    const url = server.url(`wrong-${++counter}`)
    const a = await inProcess('owner')
    await a.remember('The allotment is plot 14')
    const done = await (await a.sync.start({ url, key: await testKey(1), live: false })).done
    expect(done.state).toBe('complete')
    const b = await overPort('intruder')
    const attempt = b.sync.start({ url, key: await testKey(2), live: false })
    await expect(attempt).rejects.toBeInstanceOf(SyncKeyError)
    await expect(attempt).rejects.toMatchObject({ code: 'WRONG_KEY' })
    expect(await b.count()).toBe(0)
  })

  it('flushes on demand through the handle and stops the sync when the memory closes', async () => {
    const url = server.url(`flush-${++counter}`)
    const key = await testKey()
    const a = await overPort('flusher')
    // A poll slower than the test: only flush() can push this write in time.
    const sync = await a.sync.start({ url, key, pollMs: 60_000 })
    await a.remember('The recycling goes out on Tuesdays')
    await sync.flush()
    await eventually(async () => sync.status.pushed > 0)
    await a.close()
    await expect(sync.done).resolves.toMatchObject({ state: 'stopped' })
  })

  it.each([
    ['in process', inProcess],
    ['over the port', overPort],
  ])(
    'ends a live sync the server refuses, %s: done rejects with SyncServerError and another sync may start',
    async (_, open) => {
      const gate = await Gatekeeper.start(new URL(server.url('x')).origin)
      try {
        const key = await testKey()
        const memory = await open('refused')
        await memory.remember('The bike lock code is 4471')
        const url = gate.url(`refused-${++counter}`)
        const sync = await memory.sync.start({ url, key, pollMs: 20, maxRetryMs: 50 })
        await eventually(async () => sync.status.pushed > 0)
        gate.refuse()
        await expect(sync.done).rejects.toBeInstanceOf(SyncServerError)
        await expect(sync.done).rejects.toMatchObject({ code: 'SYNC_SERVER' })
        expect(sync.status.state).toBe('error')
        expect(sync.status.error?.code).toBe('SYNC_SERVER')
        // Over: the slot is free, and stop() on the ended sync has nothing left to do.
        await sync.stop()
        const direct = await memory.sync.start({
          url: server.url(`refused-${counter}`),
          key,
          live: false,
        })
        expect((await direct.done).state).toBe('complete')
      } finally {
        await gate.close()
      }
    },
  )
})
