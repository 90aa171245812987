/**
 * Pages in the built PWA: a Markdown file picked in the Pages card is chunked and listed, recall
 * finds its passage with the page's title, headings and `<mark>`ed matches, the page view opens
 * at that chunk, markup in the page stays text, and Forget empties the list.
 */
import { describe, expect, it } from 'vitest'
import type { PageInfo, StoredPage } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  inPage,
  modelReady,
  openApp,
  recallInUi,
  screenshot,
  uniqueMemory,
  useRig,
} from './harness.ts'

const rig = useRig()

/** Three sections, so three chunks; the markup must never become an element. */
const GUIDE = `# Service guide

How the service is laid out, for whoever maintains it next.

## Install

Clone the repository and run \`npm install\`, set the auth handler's secret, then
\`npm start\` on port 8080.

## Auth

Every request passes through auth_handler before it reaches the router. A page that
shows <img src=x onerror=alert(1)> must show it as text.

\`\`\`ts
export function auth_handler(request: Request): boolean {
  return request.headers.has('authorization')
}
\`\`\`
`

describe.skipIf(!BROWSER_TESTS)('pages in the Engram app', () => {
  it('imports a Markdown file, recalls its passage with highlights, opens it and forgets it', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await openApp(page, rig().url({ memory: uniqueMemory('pages'), model: 'ngram' }))
    await page.waitForSelector('#pages-list .empty')

    await page.setInputFiles('#page-form [name="file"]', {
      name: 'service-guide.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(GUIDE),
    })
    await page.waitForFunction(() => document.querySelector('#page-result')?.textContent !== '')
    expect(await page.textContent('#page-result')).toMatch(/^Stored “service-guide\.md”: 3 chunks/)
    const stored = await inPage<PageInfo[]>(page, 'return memory.pages.list()')
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ title: 'service-guide.md', chunks: 3 })
    const item = page.locator('#pages-list .page-item')
    await expect.poll(() => item.count(), { timeout: 5000 }).toBe(1)
    expect(await item.locator('.page-open').textContent()).toBe('service-guide.md')
    expect(await item.locator('.page-chunks').textContent()).toBe('3 chunks')

    const hits = await recallInUi(page, 'auth handler')
    expect(hits[0]?.text).toMatch(/^## Auth\n\nEvery request passes through auth_handler/)
    const hit = page.locator('#recall-results .hit').first()
    expect(await hit.locator('.hit-page .page-open').textContent()).toBe('service-guide.md')
    expect(await hit.locator('.hit-headings').textContent()).toBe('Service guide › Auth')
    // Install names the auth handler too: its chunk is collapsed into this hit. The intro shares
    // no word with the query, so the relevance floor drops it rather than collapsing it here.
    expect(await hit.locator('.hit-more').textContent()).toBe('+1 more from this page')
    const marks = await hit.locator('.hit-text mark').allTextContents()
    expect(marks).toContain('auth_handler')
    // The heading's "Auth" is a match of the query's first word too; nothing else is marked.
    expect(new Set(marks)).toEqual(new Set(['Auth', 'auth_handler']))
    expect(await hit.locator('.hit-text').textContent()).toContain('<img src=x onerror=alert(1)>')
    expect(await page.locator('#recall-results img').count()).toBe(0)

    await hit.locator('.hit-page .page-open').click()
    await page.waitForSelector('#page-view:not([hidden]) .page-chunk')
    const full = await inPage<StoredPage>(
      page,
      `return memory.pages.get(${JSON.stringify(stored[0]!.pageId)})`,
    )
    expect(await page.textContent('#page-view-text')).toBe(full.text)
    expect(await page.textContent('#page-view-title')).toBe('service-guide.md')
    const chunk = page.locator('#page-view-text .page-chunk')
    expect(await chunk.textContent()).toMatch(/^## Auth\n\nEvery request/)
    expect(await chunk.locator('mark').allTextContents()).toEqual(marks)
    expect(await page.locator('#page-view img').count()).toBe(0)
    expect(await chunk.isVisible()).toBe(true)
    await screenshot(page, 'pages')

    await item.getByRole('button', { name: 'Forget' }).click()
    await item.getByRole('button', { name: 'Really forget?' }).click()
    await page.waitForSelector('#pages-list .empty')
    expect(await page.locator('#pages-list .page-item').count()).toBe(0)
    expect(await page.isHidden('#page-view')).toBe(true)
    expect(await inPage<PageInfo[]>(page, 'return memory.pages.list()')).toEqual([])
    expect(dialogs).toEqual([])
    expect(rig().pageErrors).toEqual([])
  })

  it("shows a page's embedding progress on its row once the model it waited for loads", async () => {
    const context = await rig().newContext()
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    // The model's weights wait until the page is stored and listed: its chunks go in without
    // vectors, and the backfill that embeds them starts only when the model is ready.
    await context.route('**/models/engram-test/tiny/**/*.onnx', async (route) => {
      await held
      await route.continue()
    })
    const page = await context.newPage()
    const memory = uniqueMemory('pages-progress')
    await openApp(page, rig().url({ memory, model: 'engram-test/tiny', remote: '0' }))
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { chipTexts: string[] }).chipTexts = seen
      new MutationObserver(() => {
        for (const chip of document.querySelectorAll<HTMLElement>('#pages-list .page-embedding')) {
          const text = chip.hidden ? '(hidden)' : (chip.textContent ?? '')
          if (seen.at(-1) !== text) seen.push(text)
        }
      }).observe(document.querySelector('#pages-list')!, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      })
    })
    await page.setInputFiles('#page-form [name="file"]', {
      name: 'service-guide.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(GUIDE),
    })
    await page.waitForFunction(() => document.querySelector('#page-result')?.textContent !== '')
    expect(await page.textContent('#page-result')).toBe(
      'Stored “service-guide.md”: 3 chunks, 0 embedded (the model is still loading: they are embedded in the background once it is ready).',
    )
    const item = page.locator('#pages-list .page-item')
    await expect.poll(() => item.count(), { timeout: 5000 }).toBe(1)
    const hits = await recallInUi(page, 'auth handler')
    expect(hits[0]?.text).toMatch(/^## Auth\n\nEvery request passes through auth_handler/)

    release()
    await modelReady(page)
    await expect
      .poll(() => inPage<number>(page, 'return (await memory.inspect.stats()).pendingVectors'), {
        timeout: 60_000,
      })
      .toBe(0)
    await expect.poll(() => item.locator('.page-embedding').isHidden()).toBe(true)
    const texts = await page.evaluate(
      () => (window as unknown as { chipTexts: string[] }).chipTexts,
    )
    expect(texts).toContain('0 of 3 chunks embedded')
    expect(texts.at(-1)).toBe('(hidden)')
    expect(rig().pageErrors).toEqual([])
  }, 180_000)

  it('adds a pasted page under its title, and an HTML file as text under its file name', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('pages-paste'), model: 'ngram' }))
    await page.fill('#page-form [name="title"]', 'Release notes')
    await page.fill('#page-form [name="text"]', '# v2\n\nThe sync_worker retries three times.')
    await page.click('#page-form button[type="submit"]')
    await page.waitForFunction(() => document.querySelector('#page-result')?.textContent !== '')
    // Stored and keyword-searchable at once; the backfill embeds it afterwards.
    expect(await page.textContent('#page-result')).toBe(
      'Stored “Release notes”: 1 chunk, found by its words now; embedding in the background.',
    )
    await expect
      .poll(() => inPage<number>(page, 'return (await memory.inspect.stats()).pendingVectors'))
      .toBe(0)
    const notes = page.locator('#pages-list .page-item', { hasText: 'Release notes' })
    expect(await notes.locator('.page-embedding').isHidden()).toBe(true)
    expect(await page.inputValue('#page-form [name="text"]')).toBe('')

    await page.setInputFiles('#page-form [name="file"]', {
      name: 'faq.html',
      mimeType: 'text/html',
      buffer: Buffer.from(
        '<h1>FAQ</h1><p>Reset with <code>--reset</code>.<img src=x onerror=alert(1) alt="a diagram"></p><script>alert(2)</script>',
      ),
    })
    await expect
      .poll(() => page.locator('#pages-list .page-item').count(), { timeout: 5000 })
      .toBe(2)
    const faq = page.locator('#pages-list .page-item', { hasText: 'faq.html' })
    await faq.locator('.page-open').click()
    await page.waitForSelector('#page-view:not([hidden])')
    // HTML went to the engine as html: converted to Markdown-shaped text, script dropped.
    expect(await page.textContent('#page-view-text')).toBe(
      '# FAQ\n\nReset with `--reset`. a diagram',
    )
    expect(await page.locator('#page-view img, #page-view script, #page-view code').count()).toBe(0)
    expect(rig().pageErrors).toEqual([])
  })
})
