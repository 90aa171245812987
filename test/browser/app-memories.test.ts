/**
 * The PWA's first five minutes (issue 27): settings from the address hold for one visit and
 * say so; the Memories card creates (encrypted or not), opens and deletes memories by name, in
 * place; turning encryption on does not ask again for the passphrase just typed.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { AppSettings } from '../../src/app/settings.ts'
import {
  BROWSER_TESTS,
  inPage,
  openApp,
  rememberInUi,
  screenshot,
  uniqueMemory,
  useRig,
  waitReady,
} from './harness.ts'

const rig = useRig()

const PASSPHRASE = 'correct horse battery'

const settingsOf = (page: Page) =>
  page.evaluate(() => ({
    ...(globalThis as unknown as { engram: { settings: AppSettings } }).engram.settings,
  }))

const browseTexts = (page: Page) => page.locator('#browse-list .memory-text').allTextContents()

describe.skipIf(!BROWSER_TESTS)('the Engram app’s memories and settings', () => {
  it('holds settings from the address for that visit only, says so, and keeps them when asked', async () => {
    const page = await (await rig().newContext()).newPage()
    const memory = uniqueMemory('url-settings')
    await openApp(page, rig().url({ memory, model: 'ngram' }))
    expect(await settingsOf(page)).toMatchObject({ memory, model: 'ngram' })
    expect(await page.textContent('#url-settings')).toMatch(/memory=.*model=ngram.*not saved/)

    // The next visit without parameters opens the saved settings: the defaults here.
    await openApp(page, rig().url({ device: 'wasm' }))
    expect(await settingsOf(page)).toMatchObject({ memory: 'engram-app', model: 'use' })
    await openApp(page, rig().url({ memory, model: 'ngram' }))
    await page.click('#url-settings-keep')
    await page.waitForURL((url) => url.search === '')
    await waitReady(page)
    expect(await settingsOf(page)).toMatchObject({ memory, model: 'ngram' })
    expect(await page.isVisible('#url-settings')).toBe(false)
    expect(await page.inputValue('#model-setting')).toBe('ngram')
  })

  it('creates an encrypted memory in place without asking again, switches back and forth, and deletes one', async () => {
    const page = await (await rig().newContext()).newPage()
    const first = uniqueMemory('plain')
    const second = uniqueMemory('sealed')
    await openApp(page, rig().url({ memory: first, model: 'ngram' }))
    expect(await rememberInUi(page, 'The plain memory holds the shopping list')).toMatch(
      /Remembered/,
    )

    await page.click('#memory-create summary')
    await page.fill('#memory-create-form [name="name"]', second)
    await page.check('#memory-create-form [name="encrypt"]')
    await page.fill('#memory-create-form [name="passphrase"]', PASSPHRASE)
    await page.fill('#memory-create-form [name="confirm"]', PASSPHRASE)
    await page.click('#memory-create-form button[type="submit"]')
    await page.waitForSelector(`#memory-current >> text=${second}`)
    await page.waitForSelector('#encryption-status[data-state="encrypted"]')
    expect(await page.locator('#unlock-dialog').count()).toBe(0)
    await expect.poll(() => browseTexts(page)).toEqual([])
    expect(await page.textContent('#app-version')).toContain(second)
    expect(await rememberInUi(page, 'The sealed memory holds the alarm code')).toMatch(/Remembered/)
    expect((await inPage<{ atRest?: string }>(page, 'return memory.inspect.stats()')).atRest).toBe(
      'unlocked',
    )

    const row = (name: string) => page.locator(`#memories-list [data-memory="${name}"]`)
    await row(first).getByRole('button', { name: 'Open' }).click()
    await page.waitForSelector(`#memory-current >> text=${first}`)
    await expect.poll(() => browseTexts(page)).toEqual(['The plain memory holds the shopping list'])
    expect(await page.textContent('body')).not.toContain('alarm code')

    await row(second).getByRole('button', { name: 'Open' }).click()
    await page.waitForSelector('#unlock-dialog[open]')
    await page.fill('#unlock-dialog [name="passphrase"]', PASSPHRASE)
    await page.click('#unlock-dialog button[type="submit"]')
    await expect.poll(() => browseTexts(page)).toEqual(['The sealed memory holds the alarm code'])
    await screenshot(page, 'memories')

    await row(first).getByRole('button', { name: 'Delete' }).click()
    await row(first).getByRole('button', { name: 'Really delete?' }).click()
    await row(first).waitFor({ state: 'detached' })
    const names = await page.evaluate(async () =>
      (await indexedDB.databases()).map((db) => db.name),
    )
    expect(names).not.toContain(`engram:${first}`)
    expect(names).toContain(`engram:${second}`)
    // The choice is saved: a visit without parameters opens the memory switched to.
    await page.goto(rig().url({ model: 'ngram' }))
    await page.waitForSelector('#unlock-dialog[open]')
  })

  it('turns encryption on for an empty memory without asking for the passphrase just typed', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('enable'), model: 'ngram' }))
    const card = page.locator('section[aria-labelledby="encryption-title"]')
    await card.locator('[name="passphrase"]').fill(PASSPHRASE)
    await card.locator('[name="confirm"]').fill(PASSPHRASE)
    await card.locator('button[type="submit"]').click()
    await page.waitForSelector('#encryption-status[data-state="encrypted"]')
    expect(await page.locator('#unlock-dialog').count()).toBe(0)
    expect(await rememberInUi(page, 'Sealed from the first write')).toMatch(/Remembered/)
    expect((await inPage<{ atRest?: string }>(page, 'return memory.inspect.stats()')).atRest).toBe(
      'unlocked',
    )
  })
})
