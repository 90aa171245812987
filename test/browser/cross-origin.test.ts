/**
 * A memory shared with other origins, in Chromium: the app's `connect.html` on
 * http://localhost:B is embedded by pages on http://127.0.0.1:<port> (other origins, and
 * another site), which connect with `embedMemory`. The user's clicks in the host page's prompt
 * decide; "Connected sites" (on the host origin) revokes. Third-party cookies are allowed in the
 * profile (a setting a user can choose), so the host page reaches its first-party storage
 * without the browser's own prompt, which headless Chromium cannot show. The consent tests
 * tell which click was taken by the answer: "the user denied" comes only from Deny.
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

let chromium: PersistentChromium
let hostServer: StaticServer
const sites: StaticServer[] = []
let host: string
let fixtures: string
let built: string

/** The host origin is `localhost`; the embedders are `127.0.0.1`, another site. */
function onLocalhost(server: StaticServer): string {
  return server.url.replace('127.0.0.1', 'localhost')
}

/** A page on a fresh origin of its own (a new port), with the embedder loaded. */
async function embedderOnNewOrigin(): Promise<{ page: Page; origin: string }> {
  const server = await serveStatic({ root: fixtures })
  sites.push(server)
  const page = await chromium.context.newPage()
  await page.goto(`${server.url}embedder.html`)
  await page.waitForSelector('body[data-ready]', { state: 'attached' })
  return { page, origin: new URL(server.url).origin }
}

function connect(page: Page): Promise<Attempt<{ namespace: string; namespaces: string[] }>> {
  return page.evaluate(
    `globalThis.engramTest.connect(${JSON.stringify(`${host}connect.html`)})`,
  ) as Promise<Attempt<{ namespace: string; namespaces: string[] }>>
}

/** Runs `body` against the page's `memory` (an `EmbeddedMemory`) and returns the attempt. */
function call<T>(page: Page, body: string): Promise<Attempt<T>> {
  return page.evaluate(
    `globalThis.engramTest.attempt(async () => { const memory = globalThis.memory; ${body} })`,
  ) as Promise<Attempt<T>>
}

/** Waits for the host page's prompt in the frame, checks it names `origin`, and clicks. */
async function answerPrompt(page: Page, origin: string, button: 'Allow' | 'Deny'): Promise<void> {
  const frame = page.frameLocator('iframe[title="Engram memory"]')
  await frame.locator('#consent').waitFor({ state: 'visible' })
  expect(await frame.locator('#consent-origin').textContent()).toBe(origin)
  await frame.getByRole('button', { name: button }).click()
}

/** The prompt's frame, and its Allow button, once the prompt is shown and takes clicks. */
async function armedPrompt(page: Page) {
  const frame = page.frameLocator('iframe[title="Engram memory"]')
  const allow = frame.getByRole('button', { name: 'Allow' })
  await frame.locator('#consent').waitFor({ state: 'visible' })
  await expect.poll(() => allow.isEnabled()).toBe(true)
  return { frame, allow }
}

/** The host page's frame, to look inside it as the test (not as the embedding page). */
function hostFrame(page: Page) {
  const frame = page.frames().find((f) => f.url().startsWith(`${host}connect.html`))
  if (!frame) throw new Error('the host page has no frame')
  return frame
}

/**
 * Where `selector` of the host page is drawn on the embedding page's screen while the frame is
 * zoomed: Playwright's own click takes the zoomed button to be outside the viewport.
 */
async function zoomedCentre(page: Page, selector: string): Promise<[number, number]> {
  const inside = await hostFrame(page).evaluate((s) => {
    const r = document.querySelector(s)?.getBoundingClientRect()
    return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : undefined
  }, selector)
  const frame = await page.evaluate(() => {
    const element = document.querySelector('iframe')
    const r = element?.getBoundingClientRect()
    return element && r
      ? { x: r.x, y: r.y, width: r.width, border: element.clientLeft, css: element.offsetWidth }
      : undefined
  })
  if (!inside || !frame) throw new Error(`no ${selector} in the frame`)
  const scale = frame.width / frame.css
  return [frame.x + (frame.border + inside.x) * scale, frame.y + (frame.border + inside.y) * scale]
}

/** What a connection answered once the user clicked Deny: the user's refusal, nothing else. */
const DENIED_BY_USER = {
  ok: false,
  name: 'AccessDeniedError',
  code: 'ACCESS_DENIED',
  message: expect.stringMatching(/the user denied/),
  typed: true,
}

async function allowed(): Promise<{ page: Page; origin: string; namespace: string }> {
  const { page, origin } = await embedderOnNewOrigin()
  const connecting = connect(page)
  await answerPrompt(page, origin, 'Allow')
  const connected = await connecting
  if (!connected.ok) throw new Error(`connect failed: ${connected.message}`)
  return { page, origin, namespace: connected.value.namespace }
}

/** The "Connected sites" panel, on the host origin. */
async function connectedSites(): Promise<Page> {
  const page = await chromium.context.newPage()
  await page.goto(`${host}fixtures/sites.html`)
  await page.waitForSelector('body[data-ready]', { state: 'attached' })
  return page
}

describe.skipIf(!SYSTEM_CHROMIUM_TESTS)('a memory shared with other origins', () => {
  beforeAll(async () => {
    const build = await buildCrossOrigin()
    fixtures = build.fixtures
    built = build.dir
    hostServer = await serveStatic({ root: build.app, mounts: { '/fixtures/': build.fixtures } })
    host = onLocalhost(hostServer)
    chromium = await launchPersistent({ allowThirdPartyStorage: true })
  }, 240_000)

  afterAll(async () => {
    await chromium?.close()
    for (const server of [hostServer, ...sites]) await server?.close()
    if (built) await rm(built, { recursive: true, force: true })
  })

  it('lets an allowed origin remember and recall in its own namespace, and nothing more', async () => {
    // The user's own memory, written in the app on the host origin.
    const app = await chromium.context.newPage()
    await openApp(app, host)
    expect(await rememberInUi(app, 'The bank card PIN hint is the name of the first cat')).toMatch(
      /Remembered/,
    )

    const { page, origin, namespace } = await allowed()
    expect(namespace).toBe(`origin:${origin}`)
    const stored = await call<{ status: string }>(
      page,
      `return memory.remember('The reader prefers dark mode and large print', { tags: ['reading'] })`,
    )
    expect(stored).toMatchObject({ ok: true, value: { status: 'created' } })

    const recalled = await call<RecallResult>(page, `return memory.recall('dark mode reader')`)
    if (!recalled.ok) throw new Error(recalled.message)
    expect(recalled.value.hits.map((hit) => hit.text)).toEqual([
      'The reader prefers dark mode and large print',
    ])
    expect(recalled.value.hits[0]?.memory.namespace).toBe(namespace)
    expect(recalled.value.hits[0]?.explanation).toMatch(/dark/)

    // The user's own memories are not the site's to read, not even by naming their namespace.
    const theirs = await call<RecallResult>(page, `return memory.recall('bank card PIN cat')`)
    expect(theirs).toMatchObject({ ok: true, value: { hits: [] } })
    for (const body of [
      `return memory.recall('bank card PIN', { namespace: 'default' })`,
      `return memory.list({ namespace: 'default' })`,
      `return memory.inspect.stats()`,
      `return memory.inspect.recallLog()`,
    ]) {
      expect(await call(page, body), body).toMatchObject({
        ok: false,
        name: 'AccessDeniedError',
        code: 'ACCESS_DENIED',
        origin,
        typed: true,
      })
    }
    const listed = await call<{ items: { text: string }[] }>(page, `return memory.list()`)
    expect(listed).toMatchObject({ ok: true, value: { items: [{ namespace }] } })
    expect(chromium.pageErrors).toEqual([])
  })

  it('tells the app the storage-access path answers while third-party cookies are allowed', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const connecting = page.evaluate(
      `globalThis.engramTest.connectVia(${JSON.stringify(`${host}connect.html`)}, 'frame')`,
    ) as Promise<Attempt<{ path: string }> & { heard: PathReport[] }>
    await answerPrompt(page, origin, 'Allow')
    const connected = await connecting
    expect(connected).toMatchObject({ ok: true, value: { path: 'storage-access' } })
    expect(connected.heard).toEqual([
      { via: 'frame', used: false, reason: expect.stringMatching(/partitioned or blocked/) },
      { via: 'storage-access', used: true, reason: expect.stringMatching(/without a prompt/) },
    ])
  })

  it('refuses a denied origin with AccessDeniedError, then without asking again', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const connecting = connect(page)
    await answerPrompt(page, origin, 'Deny')
    const refused = await connecting
    expect(refused).toMatchObject({
      ok: false,
      name: 'AccessDeniedError',
      code: 'ACCESS_DENIED',
      origin,
      typed: true,
    })
    expect(await page.evaluate(() => 'memory' in globalThis)).toBe(false)
    expect(await page.locator('iframe').count()).toBe(0)

    // No click this time: the answer comes from the remembered denial.
    const again = await connect(page)
    expect(again).toMatchObject({ ok: false, code: 'ACCESS_DENIED', typed: true })

    const panel = await connectedSites()
    const item = panel.locator(`#sites-list li[data-origin="${origin}"]`)
    expect(await item.getAttribute('data-state')).toBe('denied')
  })

  it('refuses the next call once the site is revoked in Connected sites, without a reload', async () => {
    const { page, origin } = await allowed()
    expect(
      await call(page, `return memory.remember('Subscribed to the weekly digest')`),
    ).toMatchObject({ ok: true })
    const panel = await connectedSites()
    const item = panel.locator(`#sites-list li[data-origin="${origin}"]`)
    expect(await item.getAttribute('data-state')).toBe('allowed')
    await item.getByRole('button', { name: `Revoke ${origin}` }).click()
    await item.waitFor({ state: 'detached' })

    for (const body of [
      `return memory.recall('weekly digest')`,
      `return memory.remember('More')`,
    ]) {
      expect(await call(page, body), body).toMatchObject({
        ok: false,
        code: 'ACCESS_DENIED',
        origin,
        typed: true,
      })
    }
  })

  it('disarms the prompt while the embedding page covers it with a decoy', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const connecting = connect(page)
    const frame = page.frameLocator('iframe[title="Engram memory"]')
    const allow = frame.getByRole('button', { name: 'Allow' })
    await frame.locator('#consent').waitFor({ state: 'visible' })
    await expect.poll(() => allow.isEnabled()).toBe(true)

    // A decoy over the frame that lets clicks through to it: the classic clickjacking set-up.
    await page.evaluate(() => {
      const decoy = document.createElement('div')
      decoy.id = 'decoy'
      decoy.textContent = 'Click here to win'
      decoy.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;pointer-events:none;background:#fffc'
      document.body.append(decoy)
    })
    await expect.poll(() => allow.isEnabled()).toBe(false)

    await page.evaluate(() => document.getElementById('decoy')?.remove())
    await expect.poll(() => allow.isEnabled()).toBe(true)
    await allow.click()
    expect(await connecting).toMatchObject({ ok: true, value: { namespace: `origin:${origin}` } })
  })

  it('ignores a real click on Allow while the embedding page zooms the frame out', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const connecting = connect(page)
    const { allow } = await armedPrompt(page)
    await page.evaluate(() => {
      const frame = document.querySelector('iframe')
      if (frame) frame.style.zoom = '0.15'
    })
    // IntersectionObserver v2 still calls the prompt visible; its rendered size says otherwise.
    await expect.poll(() => allow.isEnabled()).toBe(false)
    await hostFrame(page).evaluate(() => {
      const seen = (event: Event) => {
        if (event.target instanceof HTMLElement) document.body.dataset.pressed = event.target.id
      }
      document.addEventListener('pointerdown', seen, { capture: true })
    })
    // Clicked until a press reaches the button: Chromium drops input to a cross-origin frame
    // that has just moved (zoom moves it), and the press reaches the frame's process later.
    const at = await zoomedCentre(page, '#consent-allow')
    await expect
      .poll(async () => {
        await page.mouse.click(...at)
        return hostFrame(page).evaluate(() => document.body.dataset.pressed)
      })
      .toBe('consent-allow')

    await page.evaluate(() => {
      const frame = document.querySelector('iframe')
      if (frame) frame.style.zoom = ''
    })
    await answerPrompt(page, origin, 'Deny')
    expect(await connecting).toMatchObject({ ...DENIED_BY_USER, origin })
  })

  it('ignores Tab Tab Enter and Tab Tab Space typed into a frame the embedding page focused', async () => {
    const { page, origin } = await embedderOnNewOrigin()
    const connecting = connect(page)
    await armedPrompt(page)
    await page.evaluate(() => document.querySelector('iframe')?.focus())
    for (const keys of [
      ['Tab', 'Tab', 'Enter'],
      ['Shift+Tab', 'Tab', 'Space'],
    ]) {
      for (const key of keys) await page.keyboard.press(key)
    }
    // The keys reached the prompt: the focus is on Allow.
    expect(await hostFrame(page).evaluate(() => document.activeElement?.id)).toBe('consent-allow')

    await answerPrompt(page, origin, 'Deny')
    expect(await connecting).toMatchObject({ ...DENIED_BY_USER, origin })
  })
})
