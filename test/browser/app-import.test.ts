/**
 * Import from another assistant in the PWA (issue 29): a ChatGPT export picked in the card
 * becomes pages that Browse and Pages list, the card's counts match what is stored, and Undo
 * takes them all out; a bad file shows its code and entry and stores nothing; a Claude export
 * dropped on the zone imports too.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { PageInfo } from '../../src/core/types.ts'
import { BROWSER_TESTS, inPage, openApp, screenshot, uniqueMemory, useRig } from './harness.ts'

const rig = useRig()

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'import')
const CHATGPT = readFileSync(join(FIXTURES, 'chatgpt-conversations.json'))
const CLAUDE = readFileSync(join(FIXTURES, 'claude-conversations.json'), 'utf8')

const card = '#import-panel'

/** Waits for the card to leave `running` and returns the state it settled in. */
async function settled(page: Page): Promise<string | null> {
  await page.waitForSelector(`${card}[data-state]:not([data-state="running"])`)
  return page.getAttribute(card, 'data-state')
}

const titles = (page: Page, list: string) =>
  page
    .locator(list)
    .allTextContents()
    .then((all) => all.sort())

describe.skipIf(!BROWSER_TESTS)('importing from another assistant in the Engram app', () => {
  it('imports a ChatGPT export, lists its pages with counts that match the memory, and undoes it', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('import-chatgpt'), model: 'ngram' }))
    await page.setInputFiles('#import-from-file', {
      name: 'conversations.json',
      mimeType: 'application/json',
      buffer: CHATGPT,
    })
    expect(await settled(page)).toBe('done')
    expect(await page.textContent('#import-from-summary')).toMatch(
      /^ChatGPT export .*: 2 read; 2 new, 0 changed, 0 already stored; \d+ chunks/,
    )
    const stored = await inPage<PageInfo[]>(page, 'return memory.pages.list()')
    expect(stored.map((p) => p.title).sort()).toEqual(['Sourdough starter', 'Three days in Lisbon'])

    const rows = page.locator('#import-from-pages .import-page')
    expect(await rows.count()).toBe(2)
    for (const info of stored) {
      const row = page.locator(`#import-from-pages [data-page-id="${info.pageId}"]`)
      expect(await row.locator('.page-open').textContent()).toBe(info.title)
      expect(await row.locator('.import-chunks').textContent()).toBe(
        `${info.chunks} chunk${info.chunks === 1 ? '' : 's'}`,
      )
      // Both conversations hold the assistant's answers: outside text.
      expect(await row.locator('.import-untrusted').count()).toBe(1)
    }
    const chunks = stored.reduce((sum, p) => sum + p.chunks, 0)
    expect(await page.textContent('#import-from-summary')).toContain(`; ${chunks} chunks`)
    const flagged = await inPage<number>(
      page,
      'return (await memory.list({ limit: 1000 })).items.filter((m) => m.flags.length > 0).length',
    )
    const shownFlagged = await page
      .locator('#import-from-pages .import-flagged')
      .allTextContents()
      .then((all) => all.reduce((sum, text) => sum + Number.parseInt(text, 10), 0))
    expect(shownFlagged).toBe(flagged)

    await expect
      .poll(() => titles(page, '#pages-list .page-item .page-open'))
      .toEqual(['Sourdough starter', 'Three days in Lisbon'])
    await expect
      .poll(() => titles(page, '#browse-list .page-group .page-title'))
      .toEqual(['Sourdough starter', 'Three days in Lisbon'])
    // The JSONL card's bar follows its own imports only.
    expect(await page.isVisible('#import-progress')).toBe(false)
    await screenshot(page, 'import-chatgpt')

    const download = page.waitForEvent('download')
    await page.click('#export-markdown-button')
    const zip = await download
    expect(zip.suggestedFilename()).toMatch(/-markdown\.zip$/)
    let bytes = ''
    for await (const part of await zip.createReadStream())
      bytes += (part as Buffer).toString('latin1')
    expect(bytes.startsWith('PK\x03\x04')).toBe(true)
    expect(bytes).toContain('pages/Three days in Lisbon.md')

    await page.click('#import-undo')
    await page.waitForSelector(`${card}[data-state="undone"]`)
    expect(await page.textContent('#import-from-summary')).toBe('Undone: 2 pages removed.')
    expect(await inPage<number>(page, 'return memory.count()')).toBe(0)
    await page.waitForSelector('#pages-list .empty')
    await expect.poll(() => page.locator('#browse-list .page-group').count()).toBe(0)
    expect(await page.isVisible('#import-undo')).toBe(false)
  })

  it('shows a bad file’s code and entry and stores nothing, then imports a dropped Claude export', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('import-claude'), model: 'ngram' }))
    await page.setInputFiles('#import-from-file', {
      name: 'conversations.json',
      mimeType: 'application/json',
      buffer: Buffer.from('[{"title": "cut short", "mapping": '),
    })
    expect(await settled(page)).toBe('failed')
    expect(await page.textContent('#import-from-error')).toMatch(
      /^IMPORT_FORMAT at entry 1: .*\. Nothing was stored\.$/,
    )
    expect(await page.isVisible('#import-from-result')).toBe(false)
    expect(await inPage<number>(page, 'return memory.count()')).toBe(0)

    const drop = await page.evaluateHandle((text) => {
      const data = new DataTransfer()
      data.items.add(new File([text], 'conversations.json', { type: 'application/json' }))
      return data
    }, CLAUDE)
    await page.dispatchEvent('#import-drop', 'drop', { dataTransfer: drop })
    await page.waitForSelector(`${card}[data-state="done"]`)
    expect(await page.isVisible('#import-from-error')).toBe(false)
    expect(await page.textContent('#import-from-summary')).toMatch(
      /^Claude export .*: \d+ read; \d+ new/,
    )
    const stored = await inPage<PageInfo[]>(page, 'return memory.pages.list()')
    expect(stored.length).toBeGreaterThan(0)
    expect(await titles(page, '#import-from-pages .page-open')).toEqual(
      stored.map((p) => p.title).sort(),
    )
  })

  it('imports a picked notes folder, its wiki-links as links, and leaves out what is not a note', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('import-notes'), model: 'ngram' }))
    await page.setInputFiles('#import-from-folder', join(FIXTURES, 'notes'))
    expect(await settled(page)).toBe('done')
    expect(await page.textContent('#import-from-status')).toBe('Imported notes/.')
    expect(await page.textContent('#import-from-summary')).toMatch(
      /^Markdown notes \(3 files\): 3 read; 3 new, 0 changed, 0 already stored; \d+ chunks?, 3 links\.$/,
    )
    expect(await titles(page, '#import-from-pages .page-open')).toEqual([
      'Lisbon',
      'Packing list',
      'Porto',
    ])
    // The user's own notes: nothing marked untrusted.
    expect(await page.locator('#import-from-pages .import-untrusted').count()).toBe(0)
  })
})
