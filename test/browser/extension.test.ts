/**
 * The example extension (examples/extension), built with the tiny generated model inside it and
 * loaded unpacked into Debian's Chromium: a selection on a page served on 127.0.0.1 is
 * remembered through the "Remember selection" handler, then recalled in the side panel with its
 * explanation and source. Playwright cannot click a context menu, so the test makes a real
 * selection (a triple click) and calls, in the service worker, the very function the menu's
 * `onClicked` listener calls, with the menu's `info` and the real tab. The side panel's import
 * card is given the ChatGPT fixture through its file input, as a picked file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page, Worker } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildExtension } from '../../scripts/extension/build.ts'
import { ensureModel } from '../../scripts/make-models.ts'
import { type StaticServer, serveStatic } from '../../scripts/serve-static.ts'
import { ROOT } from './harness.ts'
import {
  launchPersistent,
  type PersistentChromium,
  SYSTEM_CHROMIUM_TESTS,
} from './persistent-chromium.ts'

const MENU_ID = 'engram-remember-selection'
const CHATGPT_EXPORT = join(ROOT, 'test/fixtures/import/chatgpt-conversations.json')
const FACT = 'The staging database is restored from the nightly snapshot at 03:00 UTC.'

const ARTICLE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Runbook: staging</title></head>
  <body>
    <h1>Runbook</h1>
    <p>Staging mirrors production, with smaller machines.</p>
    <p id="fact">${FACT}</p>
    <p>Ask in #ops before restarting anything by hand.</p>
  </body>
</html>
`

let chromium: PersistentChromium
let server: StaticServer
let serviceWorker: Worker
let extensionId: string
let scratch: string
let extension: string

/** Selects `selector`'s paragraph the way a user does, and returns what the menu's `info` would carry. */
async function selectParagraph(page: Page, selector: string) {
  await page.locator(selector).click({ clickCount: 3 })
  const selectionText = await page.evaluate(() => getSelection()?.toString() ?? '')
  return { menuItemId: MENU_ID, selectionText, pageUrl: page.url(), editable: false }
}

/** The tab as the service worker knows it (what `onClicked` receives as its second argument). */
function activeTab(): Promise<{ id: number }> {
  return serviceWorker.evaluate(
    'chrome.tabs.query({ active: true, lastFocusedWindow: true }).then(([tab]) => tab)',
  ) as Promise<{ id: number }>
}

function rememberSelection(info: object, tab: object): Promise<{ status: string; id: string }> {
  return serviceWorker.evaluate(
    ([i, t]) =>
      (
        globalThis as unknown as {
          engramExtension: { rememberSelection(i: unknown, t: unknown): Promise<never> }
        }
      ).engramExtension.rememberSelection(i, t),
    [info, tab] as const,
  )
}

async function openSidePanel(): Promise<Page> {
  const panel = await chromium.context.newPage()
  await panel.goto(`chrome-extension://${extensionId}/side-panel.html`)
  await panel.waitForSelector('body[data-ready]', { state: 'attached' })
  expect(
    await panel.getAttribute('body', 'data-ready'),
    (await panel.textContent('#status')) ?? '',
  ).toBe('true')
  return panel
}

/** Asks the panel's Recall form and returns its rendered hits and status line. */
async function recallInPanel(panel: Page, query: string) {
  await panel.fill('#recall-form [name="query"]', query)
  await panel.evaluate(() => {
    document.getElementById('recall-meta')!.textContent = ''
  })
  await panel.click('#recall-form button[type="submit"]')
  await panel.waitForFunction(() => document.getElementById('recall-meta')?.textContent !== '')
  const meta = (await panel.textContent('#recall-meta')) ?? ''
  const hits = await panel.$$eval('#hits .hit', (items) =>
    items.map((item) => ({
      text: item.querySelector('.hit-text')?.textContent ?? '',
      via: item.querySelector('.via')?.textContent ?? '',
      source: item.querySelector('a.source')?.getAttribute('href') ?? '',
      explanation: item.querySelector('.explanation')?.textContent ?? '',
    })),
  )
  return { meta, hits }
}

describe.skipIf(!SYSTEM_CHROMIUM_TESTS)('the browser extension in Chromium', () => {
  beforeAll(async () => {
    const models = join(ROOT, '.models')
    await ensureModel('tiny', models)
    extension = await buildExtension({
      outDir: join(ROOT, 'node_modules', '.cache', `engram-extension-${process.pid}`),
      embedder: 'engram-test/tiny',
      models,
      // 'auto' would first look for a WebGPU adapter, which a headless extension worker lacks.
      device: 'wasm',
      minify: false,
    })
    scratch = await mkdtemp(join(tmpdir(), 'engram-article-'))
    await writeFile(join(scratch, 'article.html'), ARTICLE)
    server = await serveStatic({ root: scratch })
    chromium = await launchPersistent({ extension })
    serviceWorker =
      chromium.context.serviceWorkers()[0] ??
      (await chromium.context.waitForEvent('serviceworker', { timeout: 20_000 }))
    extensionId = new URL(serviceWorker.url()).host
  }, 180_000)

  afterAll(async () => {
    await chromium?.close()
    await server?.close()
    for (const dir of [scratch, extension]) if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('remembers a selection from a page and recalls it in the side panel with reasons', async () => {
    // The menu item the handler belongs to exists (update rejects for an unknown id). It is
    // created by `onInstalled`, which may still be running on a loaded machine: wait for it.
    const menu = `chrome.contextMenus.update(${JSON.stringify(MENU_ID)}, {}).then(() => true, () => false)`
    let menuReady = false
    for (let tries = 0; tries < 100 && !menuReady; tries++) {
      menuReady = Boolean(await serviceWorker.evaluate(menu))
      if (!menuReady) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(menuReady).toBe(true)

    const page = await chromium.context.newPage()
    await page.goto(`${server.url}article.html`)
    const info = await selectParagraph(page, '#fact')
    expect(info.selectionText.trim()).toBe(FACT)
    const tab = await activeTab()
    expect(typeof tab.id).toBe('number')

    expect(await rememberSelection(info, tab)).toMatchObject({ status: 'created' })
    expect(await serviceWorker.evaluate('chrome.action.getBadgeText({})')).toBe('+1')
    // The same selection again is the same memory.
    expect(await rememberSelection(info, tab)).toMatchObject({ status: 'duplicate' })

    const panel = await openSidePanel()
    await expect.poll(() => panel.textContent('#recent')).toContain(FACT)
    // The PWA's plurals (issue 27): not "1 memories".
    await expect.poll(() => panel.textContent('#status')).toBe('1 memory')

    // Keyword hits at once; once the model has embedded the memory, both lists agree.
    await expect
      .poll(
        async () => (await recallInPanel(panel, 'when is the staging snapshot restored?')).meta,
        {
          timeout: 20_000,
        },
      )
      .not.toMatch(/keyword-only/)
    const { hits, meta } = await recallInPanel(panel, 'when is the staging snapshot restored?')
    expect(meta).toMatch(/^1 hit in [\d.]+ ms$/)
    // Which model answers, as the PWA's Model card says it.
    await expect.poll(() => panel.textContent('#model-why')).toMatch(/ answers/)
    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatchObject({ text: FACT, via: 'both', source: info.pageUrl })
    expect(hits[0]?.explanation).toMatch(
      /^matched \[[^\]]*snapshot[^\]]*\] \(bm25 [\d.]+ #1\) \+ semantic [\d.]+ \(#1\)/,
    )
    expect(chromium.pageErrors).toEqual([])
  })

  it('imports a ChatGPT export in the side panel with progress and what came in, then undoes it as one step', async () => {
    const panel = await openSidePanel()
    const count = () =>
      panel.evaluate(() =>
        (
          globalThis as unknown as { engram: { memory: { count(): Promise<number> } } }
        ).engram.memory.count(),
      )
    const before = await count()
    await panel.setInputFiles('#import-file', CHATGPT_EXPORT)
    await panel.waitForSelector('body[data-import="done"]', { state: 'attached' })
    expect(await panel.textContent('#import-line')).toMatch(
      /^ChatGPT export \(conversations\.json\), told by its first conversation: 2 read; 2 new, 0 changed, 0 already stored; \d+ chunks\.$/,
    )
    expect(await panel.getAttribute('#import-progress', 'value')).toBe(
      await panel.getAttribute('#import-progress', 'max'),
    )
    const pages = await panel.$$eval('#import-pages li', (items) => items.map((i) => i.textContent))
    expect(pages).toHaveLength(2)
    expect(pages.join('\n')).toMatch(
      /^Sourdough starter: \d+ chunks?\nThree days in Lisbon: \d+ chunks?$/,
    )
    const chunks = pages.reduce((n, line) => n + Number(/: (\d+) chunk/.exec(line ?? '')![1]), 0)
    expect(await count()).toBe(before + chunks)
    // The same file again adds nothing.
    await panel.evaluate(() => {
      document.body.dataset.import = ''
    })
    await panel.setInputFiles('#import-file', CHATGPT_EXPORT)
    await panel.waitForSelector('body[data-import="done"]', { state: 'attached' })
    expect(await panel.textContent('#import-line')).toContain('0 new, 0 changed, 2 already stored')
    expect(await count()).toBe(before + chunks)

    await panel.click('#import-undo')
    await panel.waitForSelector('body[data-import="undone"]', { state: 'attached' })
    expect(await panel.textContent('#import-line')).toBe('Undone: 2 pages removed.')
    expect(await count()).toBe(before)
    expect(await panel.isHidden('#import-undo')).toBe(true)
    expect(chromium.pageErrors).toEqual([])
  })

  it('shares one memory between the side panel and the service worker', async () => {
    const panel = await openSidePanel()
    await panel.fill('#remember-form [name="text"]', 'The VPN certificate expires on 1 March')
    await panel.click('#remember-form button[type="submit"]')
    await expect.poll(() => panel.textContent('#remember-result')).toBe('Remembered ✓')

    // What the panel stored is a duplicate for the service worker's own connection.
    const page = await chromium.context.newPage()
    await page.setContent('<p id="vpn">The VPN certificate expires on 1 March</p>')
    const info = { ...(await selectParagraph(page, '#vpn')), pageUrl: `${server.url}vpn` }
    expect(await rememberSelection(info, await activeTab())).toMatchObject({
      status: 'duplicate',
    })
    expect(await serviceWorker.evaluate('chrome.action.getBadgeText({})')).toBe('=')

    // Both panels hear of a write made elsewhere, through the shared memory's change events.
    const other = await openSidePanel()
    await page.setContent('<p id="lunch">Team lunch is on Thursdays at the noodle bar</p>')
    const lunch = { ...(await selectParagraph(page, '#lunch')), pageUrl: `${server.url}lunch` }
    expect(await rememberSelection(lunch, await activeTab())).toMatchObject({ status: 'created' })
    for (const view of [panel, other]) {
      await expect.poll(() => view.textContent('#recent')).toContain('Team lunch is on Thursdays')
    }
  })
})
