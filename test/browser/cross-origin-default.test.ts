/**
 * Other origins in a default-profile Chromium: no cookie or storage settings, no flags against
 * partitioning. The app's `connect.html` is served on http://localhost:B; embedders on
 * http://127.0.0.1:<port> (another site, a fresh origin per test). Measured here: a cross-site
 * iframe gets no IndexedDB at all (`indexedDB.open` fails), `document.hasStorageAccess()` is
 * false, and `requestStorageAccess()` on the Allow click is refused (`NotAllowedError`), also
 * after the host was visited and clicked as a top-level page. So the frame refuses with
 * `StorageError` and the paths report says why, and a window opened from the app's click, where
 * the storage is first-party, is the path that connects.
 */
import { rm } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StaticServer } from '../../scripts/serve-static.ts'
import { serveStatic } from '../../scripts/serve-static.ts'
import type { PathReport } from '../../src/connect/protocol.ts'
import type { RecallResult } from '../../src/core/types.ts'
import { buildCrossOrigin } from './cross-origin-harness.ts'
import { openApp, rememberInUi } from './harness.ts'
import {
  launchPersistent,
  type PersistentChromium,
  SYSTEM_CHROMIUM_TESTS,
} from './persistent-chromium.ts'

/** What the embedder page's `attempt` returns. */
type Attempt<T> =
  | { ok: true; value: T }
  | { ok: false; name: string; code?: string; origin?: string; message: string; typed: boolean }

/** What `connectVia` returns: the attempt, and the path reports the app heard. */
type Connection = Attempt<{ namespace: string; namespaces: string[]; path: string }> & {
  heard: PathReport[]
}

let chromium: PersistentChromium
let hostServer: StaticServer
const sites: StaticServer[] = []
let host: string
let fixtures: string
let built: string

async function embedderOnNewOrigin(): Promise<{ page: Page; origin: string }> {
  const server = await serveStatic({ root: fixtures })
  sites.push(server)
  const page = await chromium.context.newPage()
  await page.goto(`${server.url}embedder.html`)
  await page.waitForSelector('body[data-ready]', { state: 'attached' })
  return { page, origin: new URL(server.url).origin }
}

function call<T>(page: Page, body: string): Promise<Attempt<T>> {
  return page.evaluate(
    `globalThis.engramTest.attempt(async () => { const memory = globalThis.memory; ${body} })`,
  ) as Promise<Attempt<T>>
}

/** Waits for the prompt in `page` (a frame's or a window's), checks the origin, arms, clicks. */
async function answer(
  scope: Pick<Page, 'locator' | 'getByRole'>,
  origin: string,
  button: 'Allow' | 'Deny',
): Promise<void> {
  await scope.locator('#consent').waitFor({ state: 'visible' })
  expect(await scope.locator('#consent-origin').textContent()).toBe(origin)
  const target = scope.getByRole('button', { name: button })
  await expect.poll(() => target.isEnabled()).toBe(true)
  await target.click()
}

/** Clicks the app's "Connect my memory" button and returns the window it opened. */
async function clickConnectWindow(page: Page): Promise<Page> {
  await page.evaluate((h) => {
    const button = document.getElementById('connect-window')
    if (button) button.dataset.host = h
  }, `${host}connect.html`)
  const opened = page.waitForEvent('popup')
  await page.click('#connect-window')
  const popup = await opened
  await popup.waitForLoadState('domcontentloaded')
  return popup
}

async function windowConnection(page: Page): Promise<Connection> {
  const handle = await page.waitForFunction(
    () => (globalThis as { windowConnection?: unknown }).windowConnection,
  )
  return (await handle.jsonValue()) as Connection
}

async function connectedSites(): Promise<Page> {
  const page = await chromium.context.newPage()
  await page.goto(`${host}fixtures/sites.html`)
  await page.waitForSelector('body[data-ready]', { state: 'attached' })
  return page
}

describe.skipIf(!SYSTEM_CHROMIUM_TESTS)('other origins in a default-profile Chromium', () => {
  beforeAll(async () => {
    const build = await buildCrossOrigin()
    fixtures = build.fixtures
    built = build.dir
    hostServer = await serveStatic({ root: build.app, mounts: { '/fixtures/': build.fixtures } })
    host = hostServer.url.replace('127.0.0.1', 'localhost')
    chromium = await launchPersistent()
  }, 240_000)

  afterAll(async () => {
    await chromium?.close()
    for (const server of [hostServer, ...sites]) await server?.close()
    if (built) await rm(built, { recursive: true, force: true })
  })

  it('refuses the frame with StorageError after Allow and tells the app which paths failed and why', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const connecting = page.evaluate(
      `globalThis.engramTest.connectVia(${JSON.stringify(`${host}connect.html`)}, 'frame')`,
    ) as Promise<Connection>
    await answer(page.frameLocator('iframe[title="Engram memory"]'), origin, 'Allow')
    const refused = await connecting
    expect(refused).toMatchObject({
      ok: false,
      name: 'StorageError',
      code: 'STORAGE',
      message: expect.stringMatching(/did not grant.*via: 'window'/),
    })
    expect(refused.heard).toEqual([
      { via: 'frame', used: false, reason: expect.stringMatching(/partitioned or blocked/) },
      {
        via: 'storage-access',
        used: false,
        reason: expect.stringMatching(/requestStorageAccess was refused \(NotAllowedError/),
      },
      { via: 'window', used: false, reason: expect.stringMatching(/needs a click/) },
    ])
    expect(await page.locator('iframe').count()).toBe(0)
  })

  it('connects through a window opened from the app click, remembers and recalls there, and is refused outside its namespace', async () => {
    const app = await chromium.context.newPage()
    await openApp(app, host)
    expect(await rememberInUi(app, 'The bank card PIN hint is the name of the first cat')).toMatch(
      /Remembered/,
    )

    const { page, origin } = await embedderOnNewOrigin()
    const popup = await clickConnectWindow(page)
    expect(new URL(popup.url()).origin).toBe(new URL(host).origin)
    await answer(popup, origin, 'Allow')
    const connected = await windowConnection(page)
    expect(connected).toMatchObject({
      ok: true,
      value: { namespace: `origin:${origin}`, path: 'window' },
    })
    expect(connected.heard).toEqual([
      { via: 'frame', used: false, reason: expect.stringMatching(/asked for a window/) },
      { via: 'window', used: true, reason: expect.stringMatching(/top-level window/) },
    ])
    await popup.locator('#connect-status[data-state="connected"]').waitFor({ state: 'attached' })

    expect(
      await call(page, `return memory.remember('The reader prefers dark mode and large print')`),
    ).toMatchObject({ ok: true, value: { status: 'created' } })
    const recalled = await call<RecallResult>(page, `return memory.recall('dark mode reader')`)
    if (!recalled.ok) throw new Error(recalled.message)
    expect(recalled.value.hits.map((hit) => [hit.text, hit.memory.namespace])).toEqual([
      ['The reader prefers dark mode and large print', `origin:${origin}`],
    ])
    expect(await call(page, `return memory.recall('bank card PIN cat')`)).toMatchObject({
      ok: true,
      value: { hits: [] },
    })
    for (const body of [
      `return memory.recall('bank card PIN', { namespace: 'default' })`,
      `return memory.list({ namespace: 'default' })`,
      `return memory.inspect.stats()`,
    ]) {
      expect(await call(page, body), body).toMatchObject({
        ok: false,
        name: 'AccessDeniedError',
        code: 'ACCESS_DENIED',
        origin,
        typed: true,
      })
    }

    // The grant is in the host's own storage: its Connected sites page lists it.
    const panel = await connectedSites()
    const item = panel.locator(`#sites-list li[data-origin="${origin}"]`)
    expect(await item.getAttribute('data-state')).toBe('allowed')

    // A second window is not asked again, and it is the same memory.
    expect(await call(page, 'await memory.close(); return true')).toMatchObject({ ok: true })
    const again = await clickConnectWindow(page)
    const reconnected = await windowConnection(page)
    expect(reconnected).toMatchObject({ ok: true, value: { path: 'window' } })
    expect(await again.locator('#consent').isHidden()).toBe(true)
    const kept = await call<RecallResult>(page, `return memory.recall('large print')`)
    expect(kept).toMatchObject({
      ok: true,
      value: { hits: [{ text: expect.stringMatching(/large print/) }] },
    })

    // Revoked in Connected sites: the next call through the window is refused, without a reload.
    await item.getByRole('button', { name: `Revoke ${origin}` }).click()
    await item.waitFor({ state: 'detached' })
    expect(await call(page, `return memory.recall('large print')`)).toMatchObject({
      ok: false,
      code: 'ACCESS_DENIED',
      origin,
      typed: true,
    })
    expect(chromium.pageErrors).toEqual([])
  })

  it('disconnects the app when the user closes the companion window', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const popup = await clickConnectWindow(page)
    await answer(popup, origin, 'Allow')
    expect(await windowConnection(page)).toMatchObject({ ok: true, value: { path: 'window' } })
    await page.evaluate(() => {
      const g = globalThis as { memory?: { on(f: (e: { type: string }) => void): void } }
      g.memory?.on((event) => {
        if (event.type === 'closed') document.body.dataset.closed = 'true'
      })
    })
    // As the user closing it: the page's unload handlers run (Playwright skips them by default).
    await popup.close({ runBeforeUnload: true })
    await page.waitForSelector('body[data-closed]', { state: 'attached' })
    expect(await call(page, `return memory.recall('anything')`)).toMatchObject({
      ok: false,
      name: 'WorkerTerminatedError',
    })
  })

  it('remembers a Deny given in the window, which then closes itself', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const popup = await clickConnectWindow(page)
    const closed = popup.waitForEvent('close')
    await answer(popup, origin, 'Deny')
    expect(await windowConnection(page)).toMatchObject({
      ok: false,
      name: 'AccessDeniedError',
      message: expect.stringMatching(/the user denied/),
      typed: true,
    })
    await closed

    const again = await clickConnectWindow(page)
    expect(await windowConnection(page)).toMatchObject({
      ok: false,
      code: 'ACCESS_DENIED',
      message: expect.stringMatching(/was denied/),
    })
    await expect.poll(() => again.isClosed()).toBe(true)
  })
})
