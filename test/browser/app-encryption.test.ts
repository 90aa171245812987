/**
 * The PWA and a memory encrypted at rest (issue 22): once locked, no decrypted text stays on
 * the page behind the unlock prompt, and unlocking brings it back.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  BROWSER_TESTS,
  openApp,
  recallInUi,
  rememberInUi,
  screenshot,
  uniqueMemory,
  useRig,
  waitReady,
} from './harness.ts'

const rig = useRig()

const PASSPHRASE = 'correct horse battery'
const SECRET = 'The spare key is under the blue flowerpot'
const QUESTION = 'where is the spare key'

/** Answers the unlock prompt, if the app shows one, and waits for the app to be ready. */
async function answerPrompt(page: Page): Promise<void> {
  await page.waitForSelector('#unlock-dialog[open], #encryption-status[data-state="encrypted"]')
  if (await page.isVisible('#unlock-dialog[open]')) {
    await page.fill('#unlock-dialog [name="passphrase"]', PASSPHRASE)
    await page.click('#unlock-dialog button[type="submit"]')
    await page.waitForSelector('#unlock-dialog', { state: 'detached' })
  }
  await waitReady(page)
  await page.waitForSelector('#encryption-status[data-state="encrypted"]')
}

/** Turns encryption on for the (empty) memory from the Encryption card. */
async function encryptInUi(page: Page): Promise<void> {
  const card = page.locator('section[aria-labelledby="encryption-title"]')
  await card.locator('[name="passphrase"]').fill(PASSPHRASE)
  await card.locator('[name="confirm"]').fill(PASSPHRASE)
  await card.locator('button[type="submit"]').click()
  await answerPrompt(page)
}

/** Every piece of text a page holds outside the unlock prompt: text, field values, attributes. */
function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = []
    const dialog = document.querySelector('#unlock-dialog')
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node as HTMLElement
      if (dialog?.contains(element) || element.tagName === 'SCRIPT') continue
      for (const attribute of element.attributes) parts.push(attribute.value)
      for (const child of element.childNodes)
        if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent ?? '')
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)
        parts.push(element.value)
    }
    return parts.join('\n')
  })
}

describe.skipIf(!BROWSER_TESTS)('the Engram app with an encrypted memory', () => {
  it('removes every decrypted text from the page when the memory locks, and shows it again once unlocked', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('lock'), model: 'ngram' }))
    await encryptInUi(page)
    expect(await rememberInUi(page, SECRET, { tags: 'home' })).toMatch(/Remembered/)
    expect((await recallInUi(page, QUESTION))[0]?.text).toBe(SECRET)
    await page.waitForSelector(`#browse-list .memory >> text=${SECRET}`)
    await page.waitForSelector('#recall-log .log-entry')
    await page.fill('#agent-form [name="message"]', QUESTION)
    await page.click('#agent-form button[type="submit"]')
    await page.waitForFunction(() => document.querySelector('#agent-context')?.textContent)
    // Left in the fields, typed but not yet sent.
    await page.fill('#remember-form [name="text"]', 'The alarm code is 4711')
    const before = await pageText(page)
    expect(before).toContain('flowerpot')
    expect(before).toContain(QUESTION)

    await page.click('section[aria-labelledby="encryption-title"] button >> text=Lock now')
    await page.waitForSelector('#unlock-dialog[open]')
    const after = await pageText(page)
    for (const secret of ['flowerpot', QUESTION, '4711']) expect(after).not.toContain(secret)
    await screenshot(page, 'locked')

    await page.fill('#unlock-dialog [name="passphrase"]', PASSPHRASE)
    await page.click('#unlock-dialog button[type="submit"]')
    await page.waitForSelector('#unlock-dialog', { state: 'detached' })
    await page.waitForSelector(`#browse-list .memory >> text=${SECRET}`)
    await page.waitForSelector(`#recall-log .log-entry >> text=${QUESTION}`)
  })
})
