/**
 * Sync in Chromium: the app's worker-hosted memory syncs with a real CouchDB-protocol server
 * (express-pouchdb on 127.0.0.1, started here) and another profile's memory receives what it
 * wrote: PouchDB's replicator, HTTP and IndexedDB adapters working in the app's bundle, the
 * passphrase's PBKDF2 and AES-GCM in WebCrypto, the handle's listener proxied from the worker.
 * The page and the server are on different ports, so the server sits behind a CORS proxy, as
 * a production CouchDB would be configured (`[chttpd] enable_cors`).
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CouchServer } from '../helpers/couch-server.ts'
import {
  BROWSER_TESTS,
  type BrowserRig,
  inPage,
  openApp,
  screenshot,
  startRig,
  uniqueMemory,
} from './harness.ts'

let rig: BrowserRig
let couch: CouchServer
let proxy: { url: string; close(): Promise<void> }

/** Forwards to `target`, answering CORS preflights and marking every answer for `origin`. */
async function corsProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, PUT, POST, DELETE, HEAD, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-expose-headers': 'content-type, etag',
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end()
      return
    }
    const forward = request(
      new URL(req.url ?? '/', upstream),
      { method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...cors })
        answer.pipe(res)
      },
    )
    forward.on('error', () => res.writeHead(502, cors).end())
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const PASSPHRASE = 'correct horse battery staple'

/** Starts a live sync in the page's memory and keeps its handle and statuses on `globalThis`. */
async function startSync(page: Page, url: string, passphrase = PASSPHRASE): Promise<unknown> {
  return inPage(
    page,
    `try {
      const sync = await memory.sync.start({ url: ${JSON.stringify(url)}, passphrase: ${JSON.stringify(passphrase)}, pollMs: 50 })
      globalThis.statuses = []
      sync.on((s) => globalThis.statuses.push(s))
      globalThis.sync = sync
      return { ok: true, state: sync.status.state }
    } catch (error) {
      return { ok: false, name: error.name, code: error.code }
    }`,
  )
}

async function texts(page: Page): Promise<string[]> {
  return inPage(page, 'return (await memory.list({ limit: 100 })).items.map((m) => m.text).sort()')
}

describe.skipIf(!BROWSER_TESTS)('sync in the browser', () => {
  beforeAll(async () => {
    couch = await CouchServer.start()
    proxy = await corsProxy(couch.url('').replace(/\/$/, ''))
    rig = await startRig()
  }, 300_000)

  afterAll(async () => {
    await rig?.close()
    await proxy?.close()
    await couch?.close()
  })

  it('carries memories and a relation from one profile to another through the server, sealed', async () => {
    const db = `browser-${Date.now()}`
    const url = `${proxy.url}/${db}`
    const a = await (await rig.newContext()).newPage()
    const b = await (await rig.newContext()).newPage()
    await openApp(a, rig.url({ memory: uniqueMemory('sync-a'), model: 'ngram' }))
    await openApp(b, rig.url({ memory: uniqueMemory('sync-b'), model: 'ngram' }))
    await inPage(
      a,
      `const lisbon = await memory.remember('The office is in Lisbon')
      const porto = await memory.remember('The office moved to Porto')
      await memory.relations.add(porto.id, lisbon.id, 'supersedes')`,
    )
    expect(await startSync(a, url)).toEqual({ ok: true, state: expect.any(String) })
    // B starts from the Sync card, as a user would.
    await b.fill('#sync-url', url)
    await b.fill('#sync-passphrase', PASSPHRASE)
    await b.click('#sync-start')
    expect(await b.inputValue('#sync-passphrase')).toBe('')
    await expect
      .poll(() => texts(b), { timeout: 20_000, interval: 200 })
      .toEqual(['The office is in Lisbon', 'The office moved to Porto'])
    await expect
      .poll(
        () =>
          inPage<string[]>(
            b,
            `const { items } = await memory.list({ limit: 10 })
            const porto = items.find((m) => m.text.includes('Porto'))
            return (await memory.relations.of(porto.id)).map((r) => r.kind)`,
          ),
        { timeout: 20_000, interval: 200 },
      )
      .toEqual(['supersedes'])
    // Live both ways: a write on B arrives on A.
    await inPage(b, `await memory.remember('The door code is 4471')`)
    await expect
      .poll(() => texts(a), { timeout: 20_000, interval: 200 })
      .toContain('The door code is 4471')
    await expect
      .poll(() => b.getAttribute('#sync-state', 'data-state'), { timeout: 20_000 })
      .toMatch(/^(active|paused)$/)
    expect(await b.textContent('#sync-detail')).toMatch(/[1-9]\d* received/)
    const states = await inPage<string[]>(a, 'return [...new Set(statuses.map((s) => s.state))]')
    expect(states.length).toBeGreaterThan(0)
    // The passphrase was kept nowhere on the page's side: not in storage, only the URL is.
    const stored = await b.evaluate(() => JSON.stringify({ ...localStorage }))
    expect(stored).toContain(url)
    expect(stored).not.toContain(PASSPHRASE)
    // The server holds ciphertext and opaque ids only.
    const leaves = JSON.stringify(await couch.leaves(db))
    for (const plain of ['Lisbon', 'Porto', '4471', 'supersedes'])
      expect(leaves).not.toContain(plain)
    expect(await inPage(a, 'await sync.stop(); return (await sync.done).state')).toBe('stopped')
    await b.click('#sync-stop')
    await expect.poll(() => b.getAttribute('#sync-state', 'data-state')).toBe('stopped')
    await screenshot(b, 'sync-panel')
    expect(rig.pageErrors).toEqual([])
  })

  it('lets one tab of a memory sync at a time: the second tab is refused with SYNC_RUNNING', async () => {
    const url = `${proxy.url}/browser-tabs-${Date.now()}`
    const context = await rig.newContext()
    const app = rig.url({ memory: uniqueMemory('sync-tabs'), model: 'ngram' })
    const [one, two] = [await context.newPage(), await context.newPage()]
    await openApp(one, app)
    await openApp(two, app)
    expect(await startSync(one, url)).toMatchObject({ ok: true })
    expect(await startSync(two, url)).toEqual({
      ok: false,
      name: 'SyncStateError',
      code: 'SYNC_RUNNING',
    })
    // Once the first tab stops, the lock is free for the second.
    await inPage(one, 'await sync.stop()')
    await expect
      .poll(async () => (await startSync(two, url)) as { ok: boolean })
      .toMatchObject({
        ok: true,
      })
    await inPage(two, 'await sync.stop()')
  })

  it('refuses a wrong passphrase with SyncKeyError in the page and stores nothing', async () => {
    const db = `browser-wrong-${Date.now()}`
    const url = `${proxy.url}/${db}`
    const a = await (await rig.newContext()).newPage()
    await openApp(a, rig.url({ memory: uniqueMemory('sync-owner'), model: 'ngram' }))
    await inPage(a, `await memory.remember('The allotment is plot 14')`)
    expect(await startSync(a, url)).toMatchObject({ ok: true })
    await expect
      .poll(async () => (await couch.leaves(db)).length, { timeout: 20_000 })
      .toBeGreaterThan(1)
    const b = await (await rig.newContext()).newPage()
    await openApp(b, rig.url({ memory: uniqueMemory('sync-intruder'), model: 'ngram' }))
    expect(await startSync(b, url, 'not the passphrase')).toEqual({
      ok: false,
      name: 'SyncKeyError',
      code: 'WRONG_KEY',
    })
    expect(await texts(b)).toEqual([])
    await inPage(a, 'await sync.stop()')
  })
})
