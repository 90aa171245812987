/**
 * The server is not trusted: it holds only sealed data, and must not be able to change what
 * devices believe. Each test acts as the server would, straight on its HTTP API (old bodies
 * re-put as new revisions, DELETEs, forged tombstones, replaced key checks, oversized
 * documents), then checks that every device keeps what it had and says what it refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SyncServerError } from '../../../src/core/errors.ts'
import { startSync } from '../../../src/sync/index.ts'
import { CouchServer } from '../../helpers/couch-server.ts'
import { contents, type Device, openDevice, syncOnce, testKey } from './sync-helpers.ts'

let server: CouchServer
let dbs = 0
beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})

async function setup() {
  const db = `untrusted-${++dbs}`
  const options = { url: server.url(db), key: await testKey() }
  return {
    a: await openDevice(),
    b: await openDevice(),
    db,
    options,
    sync: (d: Device) => syncOnce(d, options),
  }
}

/** The id of the one memory document on the server. */
async function memoryDoc(db: string): Promise<string> {
  const ids = (await server.leaves(db))
    .map((d) => String(d._id))
    .filter((id) => id.startsWith('m:'))
  expect(new Set(ids).size).toBe(1)
  return ids[0]!
}

async function tagsOf(device: Device, text: string): Promise<string[]> {
  return [...((await contents(device.engine)).get(text)?.tags ?? [])].sort()
}

const sealed = (doc: Record<string, unknown>) => ({ v: doc.v, iv: doc.iv, ct: doc.ct })

describe('a server that rolls back or erases documents', () => {
  it('refuses an old sealed body served as a new revision, keeps the edit and writes it back', async () => {
    const { a, b, db, sync } = await setup()
    const { id } = await a.engine.remember('The door code is 4471', { tags: ['home'] })
    await sync(a)
    await sync(b)
    const docId = await memoryDoc(db)
    const first = await server.getDoc(db, docId)
    a.clock.now += 1_000
    await a.engine.update(id, { tags: ['home', 'front'] })
    await sync(a)
    await sync(b)
    expect(await tagsOf(b, 'The door code is 4471')).toEqual(['front', 'home'])
    const current = await server.getDoc(db, docId)
    await server.putDoc(db, { _id: docId, _rev: current._rev, ...sealed(first) })
    const [onA, onB] = [await sync(a), await sync(b)]
    expect(await tagsOf(a, 'The door code is 4471')).toEqual(['front', 'home'])
    expect(await tagsOf(b, 'The door code is 4471')).toEqual(['front', 'home'])
    expect(onA.refused.rollback).toBe(1)
    expect(onA.repaired).toBe(1)
    expect(onB.refused.rollback + onB.refused.tampered + onB.refused.deletion).toBe(0)
    // Written back over the replayed body: a device joining now gets the edit.
    const c = await openDevice()
    await sync(c)
    expect(await tagsOf(c, 'The door code is 4471')).toEqual(['front', 'home'])
  })

  it('refuses a server DELETE, keeps the memory on every device and brings it back', async () => {
    const { a, b, db, sync } = await setup()
    await a.engine.remember('The wifi password is attic-77')
    await sync(a)
    await sync(b)
    const docId = await memoryDoc(db)
    await server.deleteDoc(db, docId, String((await server.getDoc(db, docId))._rev))
    const onA = await sync(a)
    await sync(b)
    expect(onA.refused.deletion).toBe(1)
    expect(onA.error?.code).toBe('deletion')
    for (const device of [a, b]) {
      expect([...(await contents(device.engine)).keys()]).toEqual(['The wifi password is attic-77'])
    }
    const c = await openDevice()
    await sync(c)
    expect([...(await contents(c.engine)).keys()]).toEqual(['The wifi password is attic-77'])
  })

  it('refuses a forged tombstone with a far-future forget time', async () => {
    const { a, b, db, sync } = await setup()
    await a.engine.remember('The boiler is serviced in March')
    await sync(a)
    await sync(b)
    const docId = await memoryDoc(db)
    const current = await server.getDoc(db, docId)
    await server.putDoc(db, { _id: docId, _rev: current._rev, _deleted: true, at: 9e15 })
    const onB = await sync(b)
    await sync(a)
    expect(onB.refused.deletion).toBe(1)
    for (const device of [a, b]) {
      expect((await contents(device.engine)).has('The boiler is serviced in March')).toBe(true)
    }
  })
})

describe('a server that tampers with documents', () => {
  it('keeps a tampered document from a new device until a device with a good copy writes it back', async () => {
    const { a, db, sync } = await setup()
    await a.engine.remember('The spare key is under the blue pot')
    await sync(a)
    const docId = await memoryDoc(db)
    const current = await server.getDoc(db, docId)
    const ct = String(current.ct)
    const flipped = `${ct.slice(0, 10)}${ct[10] === 'A' ? 'B' : 'A'}${ct.slice(11)}`
    await server.putDoc(db, { ...current, ct: flipped })
    const c = await openDevice()
    const first = await sync(c)
    expect(first.refused.tampered).toBe(1)
    expect(first.error).toMatchObject({ name: 'SyncDocumentError', code: 'tampered' })
    expect((await contents(c.engine)).size).toBe(0)
    const repair = await sync(a)
    expect(repair.refused.tampered).toBe(1)
    expect(repair.repaired).toBe(1)
    await sync(c)
    expect([...(await contents(c.engine)).keys()]).toEqual(['The spare key is under the blue pot'])
  })

  it('refuses a document above maxDocumentBytes unopened and goes on with the others', async () => {
    const { a, b, db, sync } = await setup()
    await a.engine.remember('Small and genuine')
    await sync(a)
    const big = 'A'.repeat(2 * 1024 * 1024)
    await server.putDoc(db, { _id: 'm:forged-oversized', v: 2, iv: 'AAAAAAAAAAAAAAAA', ct: big })
    const onB = await sync(b)
    expect(onB.refused.oversized).toBe(1)
    expect(onB.refused.tampered).toBe(0)
    expect([...(await contents(b.engine)).keys()]).toEqual(['Small and genuine'])
  })
})

describe('a server that swaps the key check', () => {
  it('refuses to set up a new key check where sealed documents exist, and a synced device puts its pinned one back', async () => {
    const { a, b, db, options, sync } = await setup()
    await a.engine.remember('Sealed under the first key')
    await sync(a)
    const check = await server.getDoc(db, 'engram-keycheck')
    await server.deleteDoc(db, 'engram-keycheck', String(check._rev))
    const stranger = await openDevice()
    const attempt = startSync(stranger.engine, {
      url: options.url,
      key: await testKey(99),
      mirror: stranger.mirror,
      live: false,
    })
    await expect(attempt).rejects.toMatchObject({
      name: 'SyncKeycheckError',
      code: 'KEYCHECK_MISSING',
    })
    await expect(server.getDoc(db, 'engram-keycheck')).rejects.toThrow(/404/)
    await sync(a)
    expect(sealed(await server.getDoc(db, 'engram-keycheck'))).toEqual(sealed(check))
    await sync(b)
    expect([...(await contents(b.engine)).keys()]).toEqual(['Sealed under the first key'])
  })

  it('refuses a replaced key check on a device that pinned the one it verified', async () => {
    const { a, db, options, sync } = await setup()
    await a.engine.remember('Pinned to the first key check')
    await sync(a)
    // The server's own key check, made for another key on another database.
    const other = await openDevice()
    await syncOnce(other, { url: server.url(`${db}-other`), key: await testKey(99) })
    const forged = await server.getDoc(`${db}-other`, 'engram-keycheck')
    const current = await server.getDoc(db, 'engram-keycheck')
    await server.putDoc(db, { ...forged, _rev: current._rev })
    const attempt = startSync(a.engine, { ...options, mirror: a.mirror, live: false })
    await expect(attempt).rejects.toMatchObject({
      name: 'SyncKeycheckError',
      code: 'KEYCHECK_REPLACED',
    })
  })
})

describe('a server that goes away', () => {
  it('says in the status of a live sync that the server is unreachable, and clears it once back', async () => {
    const { a, options } = await setup()
    const sync = await startSync(a.engine, { ...options, mirror: a.mirror, maxRetryMs: 100 })
    const heard = (check: (s: typeof sync.status) => boolean) =>
      new Promise<void>((resolve) => {
        if (check(sync.status)) return resolve()
        const off = sync.on((s) => {
          if (check(s)) {
            off()
            resolve()
          }
        })
      })
    try {
      await sync.flush()
      const offline = heard((s) => s.state === 'paused' && s.error?.code === 'SYNC_SERVER')
      await server.kill()
      await a.engine.remember('Written while the server is down')
      await offline
      await server.restart()
      await sync.flush()
      expect(sync.status.error).toBeUndefined()
    } finally {
      await sync.stop()
    }
  })

  it('rejects flush() with SyncServerError while unreachable, and says so in the status', async () => {
    const { a, options } = await setup()
    const sync = await startSync(a.engine, { ...options, mirror: a.mirror, maxRetryMs: 100 })
    try {
      await sync.flush()
      await server.kill()
      await a.engine.remember('Written during the outage')
      const flushed = sync.flush()
      await expect(flushed).rejects.toBeInstanceOf(SyncServerError)
      expect(sync.status.error?.code).toBe('SYNC_SERVER')
      expect(sync.status.state).not.toBe('error')
      await server.restart()
      await sync.flush()
    } finally {
      await sync.stop()
    }
  })
})
