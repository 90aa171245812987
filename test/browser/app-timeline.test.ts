/**
 * The Timeline card (issue 26 §3): memories listed newest first by when they happened (not when
 * stored), a from/to window of days, and paging by the engine's cursor.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { BROWSER_TESTS, inPage, openApp, screenshot, uniqueMemory, useRig } from './harness.ts'

const rig = useRig()

const texts = (page: Page) =>
  page.locator('#timeline-list .timeline-item .memory-text').allTextContents()

/** Stores `n` memories, the i-th happening on day i of March 2024 (local noon), oldest first. */
function storeMarch(page: Page, n: number): Promise<unknown> {
  return inPage(
    page,
    `return memory.rememberMany(Array.from({ length: ${n} }, (_, i) => ({
      text: 'Diary entry for the ' + (i + 1) + ' of March: walked by the river',
      tags: ['diary'],
      happenedAt: new Date(2024, 2, i + 1, 12).getTime(),
    })))`,
  )
}

describe.skipIf(!BROWSER_TESTS)('the Timeline card of the Engram app', () => {
  it('lists memories newest first by when they happened, and pages with Older', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('timeline-order'), model: 'ngram' }))
    // Stored out of order, so creation order and happening order disagree.
    await inPage(
      page,
      `await memory.remember('Moved to Lisbon', { happenedAt: new Date(2019, 5, 1).getTime() })
       await memory.remember('Started the pottery class', { happenedAt: new Date(2023, 4, 8).getTime() })
       await memory.remember('Adopted the cat Miso', { happenedAt: new Date(2021, 8, 3).getTime() })`,
    )
    await expect
      .poll(() => texts(page))
      .toEqual(['Started the pottery class', 'Adopted the cat Miso', 'Moved to Lisbon'])
    expect(await page.isHidden('#timeline-more')).toBe(true)

    await storeMarch(page, 22)
    await expect.poll(async () => (await texts(page)).length).toBe(20)
    expect((await texts(page))[0]).toBe('Diary entry for the 22 of March: walked by the river')
    await page.click('#timeline-more')
    await expect.poll(async () => (await texts(page)).length).toBe(25)
    expect((await texts(page)).slice(-3)).toEqual([
      'Started the pottery class',
      'Adopted the cat Miso',
      'Moved to Lisbon',
    ])
    expect(await page.isHidden('#timeline-more')).toBe(true)
    await screenshot(page, 'app-timeline')
  })

  it('shows only the window picked, its last day included', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('timeline-window'), model: 'ngram' }))
    await storeMarch(page, 10)
    await expect.poll(async () => (await texts(page)).length).toBe(10)
    await page.fill('#timeline-filter input[name=since]', '2024-03-04')
    await page.fill('#timeline-filter input[name=until]', '2024-03-06')
    await page.click('#timeline-filter button[type=submit]')
    await expect
      .poll(() => texts(page))
      .toEqual([6, 5, 4].map((d) => `Diary entry for the ${d} of March: walked by the river`))
    await page.fill('#timeline-filter input[name=since]', '2030-01-01')
    await page.fill('#timeline-filter input[name=until]', '2030-01-02')
    await page.click('#timeline-filter button[type=submit]')
    await expect
      .poll(() => page.textContent('#timeline-list'))
      .toBe('Nothing happened in this window.')
  })
})
