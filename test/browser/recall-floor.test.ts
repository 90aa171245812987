/**
 * The Recall card and the relevance floor (issue 13): a query nothing is about shows no hits
 * and says how many weaker matches the floor hid; "show them" asks again with the floor off
 * and marks those hits. The n-gram embedder is calibrated, so its floor is on.
 */
import { describe, expect, it } from 'vitest'
import type { RecallResult } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  inPage,
  modelReady,
  openApp,
  recallInUi,
  uniqueMemory,
  useRig,
} from './harness.ts'

const rig = useRig()

const SPARE_KEY = 'The spare key is under the blue pot'
/** Enough memories that a nonsense query has weak cosine neighbours for the floor to drop. */
const FACTS = [
  'Hanna manages the Panama account for the agency',
  'The friendship with the landlord goes back years',
  'Replace the kitchen water filter every January',
  'The heater is kept in the garage over summer',
  'Standup is on Tuesdays at half past nine',
  'The library card expires in March',
  'The bike needs a new chain before the race',
  SPARE_KEY,
]
const NONSENSE = 'banana spaceship'

describe.skipIf(!BROWSER_TESTS)('the Recall card and the relevance floor', () => {
  it('says how many weaker matches the floor hid, and "show them" shows them, marked', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('floor'), model: 'ngram' }))
    await modelReady(page)
    await inPage(
      page,
      `await memory.rememberMany(${JSON.stringify(FACTS.map((text) => ({ text })))})`,
    )
    const engine = await inPage<RecallResult>(
      page,
      `return memory.recall(${JSON.stringify(NONSENSE)}, { log: false })`,
    )
    expect(engine.hits).toEqual([])
    expect(engine.degraded).toBeUndefined()
    expect(engine.filtered).toBeGreaterThan(1)

    expect(await recallInUi(page, NONSENSE)).toEqual([])
    expect(await page.textContent('#recall-results .empty')).toMatch(
      /No hits above the relevance floor/,
    )
    const note = page.locator('#recall-floor')
    expect(await note.isVisible()).toBe(true)
    expect(await note.textContent()).toBe(
      `${engine.filtered} weaker matches hidden (relevance floor) — show them`,
    )

    await page.evaluate(() => {
      document.querySelector('#recall-meta')!.textContent = ''
    })
    await page.click('#recall-floor button.floor-reveal')
    await page.waitForFunction(() => document.querySelector('#recall-meta')?.textContent !== '')
    const shown = page.locator('#recall-results .hit')
    expect(await shown.count()).toBe(engine.filtered)
    expect(await page.locator('#recall-results .hit.below-floor').count()).toBe(engine.filtered)
    expect(await shown.first().locator('.chip-floor').textContent()).toBe('below floor')
    expect(FACTS).toContain(await shown.first().locator('.hit-text').textContent())
    expect(await note.textContent()).toBe(
      `${engine.filtered} matches below the relevance floor shown, marked “below floor”`,
    )
  })

  it('shows no floor note when the floor hid nothing', async () => {
    const page = await (await rig().newContext()).newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('floor-none'), model: 'ngram' }))
    await modelReady(page)
    await inPage(page, `await memory.remember(${JSON.stringify(SPARE_KEY)})`)
    const hits = await recallInUi(page, 'spare key')
    expect(hits.map((h) => h.text)).toEqual([SPARE_KEY])
    expect(await page.locator('#recall-results .below-floor').count()).toBe(0)
    expect(await page.locator('#recall-floor').isHidden()).toBe(true)
  })
})
