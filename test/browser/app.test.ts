/**
 * The built PWA in Chromium: remember, recall with explanations, browse, reload from
 * snapshots, typed errors beside their fields, and a failed import naming its line. The
 * deterministic n-gram embedder keeps these fast; transformers.js has its own file.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { MemoryStats } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  inPage,
  openApp,
  ROOT,
  recallInUi,
  rememberInUi,
  screenshot,
  uniqueMemory,
  useRig,
  waitReady,
} from './harness.ts'

const rig = useRig()

const FACTS: [string, string][] = [
  ["Priya is the owner's sister-in-law", 'family'],
  ['The owner prefers metric units in every answer', 'preferences'],
  ['Deploy staging with tools/deploy.sh after the tests pass', 'work, deploy'],
  ['The cat is called Miso and needs medicine twice a day', 'family, pets'],
  ['Standup moved to 9:30 on Tuesdays', 'work'],
]

async function seeded(label: string): Promise<{ page: Page; memory: string }> {
  const context = await rig().newContext()
  const page = await context.newPage()
  const memory = uniqueMemory(label)
  await openApp(page, rig().url({ memory, model: 'ngram' }))
  for (const [text, tags] of FACTS) {
    expect(await rememberInUi(page, text, { tags })).toMatch(/Remembered/)
  }
  return { page, memory }
}

describe.skipIf(!BROWSER_TESTS)('the Engram app in Chromium', () => {
  it('remembers facts and recalls them through the worker with explanations', async () => {
    const { page } = await seeded('recall')
    expect(await rememberInUi(page, "priya is the owner's sister-in-law")).toMatch(/Already known/)
    const hits = await recallInUi(page, 'Who is Priya?')
    expect(hits[0]?.text).toBe("Priya is the owner's sister-in-law")
    expect(['kw', 'both']).toContain(hits[0]?.via)
    expect(hits[0]?.explanation).toMatch(/priya/)
    expect(await page.textContent('#recall-meta')).toMatch(/hits? in [\d.]+ ms/)
    await page.waitForSelector('#browse-list .memory')
    expect(await page.locator('#browse-list .memory').count()).toBe(FACTS.length)
    await page.waitForFunction(() => document.querySelector('#recall-log .log-entry'))
    expect(await page.textContent('#recall-log')).toMatch(/Who is Priya\?/)
    await screenshot(page, 'main')
    if (process.env.ENGRAM_UPDATE_SCREENSHOT) {
      // The README's picture: the first screen, as a person opening the app sees it.
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.screenshot({ path: join(ROOT, 'docs', 'screenshot.png') })
    }
  })

  it('browses with a tag filter, edits a memory and forgets one', async () => {
    const { page } = await seeded('browse')
    await page.fill('#browse-filter [name="tag"]', 'family')
    await page.click('#browse-filter button')
    await expect.poll(() => page.locator('#browse-list .memory').count(), { timeout: 5000 }).toBe(2)
    const cat = page.locator('#browse-list .memory', { hasText: 'Miso' })
    await cat.getByRole('button', { name: 'Edit' }).click()
    await page.fill('#browse-list .editor [name="text"]', 'The cat is called Miso and eats at 7')
    await page.click('#browse-list .editor button[type="submit"]')
    await page.waitForSelector('#browse-list .memory >> text=eats at 7')
    const edited = page.locator('#browse-list .memory', { hasText: 'eats at 7' })
    await edited.getByRole('button', { name: 'Forget' }).click()
    await edited.getByRole('button', { name: 'Really forget?' }).click()
    await expect.poll(() => page.locator('#browse-list .memory').count(), { timeout: 5000 }).toBe(1)
    expect(await inPage<number>(page, 'return memory.count()')).toBe(FACTS.length - 1)
    await screenshot(page, 'browse')
  })

  it('browses a page as one row under its title, with Open page and no Edit on its chunks', async () => {
    const { page } = await seeded('browse-pages')
    const sections = Array.from(
      { length: 14 },
      (_, i) =>
        `## Step ${i + 1}\n\nDo part ${i + 1} of the boiler service, then note the pressure reading.`,
    )
    const stored = await inPage<{ chunks: number }>(
      page,
      `return memory.pages.remember({ title: 'Boiler manual', text: ${JSON.stringify(`# Boiler manual\n\n${sections.join('\n\n')}`)} })`,
    )
    expect(stored.chunks).toBeGreaterThan(10)
    await page.click('#browse-filter button[type="submit"]')
    const group = page.locator('#browse-list .page-group')
    await group.waitFor()
    const rows = page.locator('#browse-list .memory')
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(FACTS.length + 1)
    expect(await group.locator('.page-title').textContent()).toBe('Boiler manual')
    expect(await group.locator('.page-chunks').textContent()).toBe(`${stored.chunks} chunks`)
    expect(await page.locator('#browse-list .memory >> text=Do part').count()).toBe(0)
    expect(await group.getByRole('button', { name: 'Edit' }).count()).toBe(0)
    expect(await rows.getByRole('button', { name: 'Edit' }).count()).toBe(FACTS.length)
    expect(await page.isDisabled('#browse-next')).toBe(true)
    await group.getByRole('button', { name: 'Open page' }).click()
    await page.waitForSelector('#page-view:not([hidden])')
    expect(await page.textContent('#page-view-title')).toBe('Boiler manual')
    expect(await page.textContent('#page-view-text')).toContain('Do part 14 of the boiler service')
  })

  it('filters Browse by tier, expiry and the review flag, each row showing its tier and confidence', async () => {
    const { page } = await seeded('lifecycle-filters')
    await inPage(
      page,
      `await memory.remember('Fixed the boiler pressure this morning', { type: 'log' })
      const list = await memory.list()
      const byText = (start) => list.items.find((m) => m.text.startsWith(start)).id
      await memory.feedback(byText('Standup moved'), 'outdated')
      await memory.feedback(byText('The owner prefers'), 'wrong')`,
    )
    const rows = page.locator('#browse-list .memory')
    const filterBy = async (fields: { tier?: string; expired?: string; needsReview?: boolean }) => {
      await page.selectOption('#browse-filter [name="tier"]', fields.tier ?? '')
      await page.selectOption('#browse-filter [name="expired"]', fields.expired ?? '')
      await page.setChecked('#browse-filter [name="needsReview"]', fields.needsReview ?? false)
      await page.click('#browse-filter button[type="submit"]')
    }

    // Each filter is waited for by its rows' texts: the previous filter's list may also hold one row.
    const texts = () => rows.locator('.memory-text').allTextContents()
    await filterBy({ tier: 'episodic' })
    await expect.poll(texts, { timeout: 5000 }).toEqual(['Fixed the boiler pressure this morning'])
    expect(await rows.locator('.chip-tier').textContent()).toBe('episodic')
    expect(await rows.locator('.chip-confidence').textContent()).toMatch(/^confidence 0\.\d\d$/)

    await filterBy({ needsReview: true })
    await expect
      .poll(async () => (await texts()).join('|'), { timeout: 5000 })
      .toMatch(/^The owner prefers metric[^|]*$/)
    expect(await rows.locator('.chip-review').textContent()).toBe('needs review')

    await filterBy({ expired: 'expired' })
    await expect.poll(texts, { timeout: 5000 }).toEqual(['Standup moved to 9:30 on Tuesdays'])
    expect(await rows.locator('.chip-expired').textContent()).toBe('expired')

    await filterBy({ expired: 'live', tier: 'semantic' })
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(FACTS.length - 1)
    expect(await rows.locator('.chip-tier').allTextContents()).toEqual(
      Array(FACTS.length - 1).fill('semantic'),
    )
    expect(await page.locator('#browse-list .chip-expired').count()).toBe(0)
    await screenshot(page, 'browse-filters')
  })

  it('shows a hit its relations as chips, marks a contradiction and the edge expand followed', async () => {
    const { page } = await seeded('relations')
    await inPage(
      page,
      `const lisbon = await memory.remember('The office is in Lisbon')
      const porto = await memory.remember('The office is in Porto since March')
      const badge = await memory.remember('Visitors collect a blue badge at reception')
      await memory.relations.add(porto.id, lisbon.id, 'contradicts')
      await memory.relations.add(badge.id, porto.id, 'related_to')`,
    )
    await page.selectOption('#recall-form [name="mode"]', 'keyword')
    await page.check('#recall-form [name="expand"]')
    const hits = await recallInUi(page, 'office')
    expect(hits.map((hit) => hit.via)).toEqual(['kw', 'kw', 'rel'])
    expect(hits[2]?.text).toBe('Visitors collect a blue badge at reception')
    await page.waitForSelector('#recall-results .chip-relation')

    // A hit by its own text: a chip of another hit may quote it.
    const hitOf = (text: string) =>
      page
        .locator('#recall-results .hit')
        .filter({ has: page.locator('.hit-text', { hasText: new RegExp(`^${text}$`) }) })
    const porto = hitOf('The office is in Porto since March')
    const contradiction = porto.locator('.chip-relation[data-kind="contradicts"]')
    expect(await contradiction.textContent()).toBe('contradicts The office is in Lisbon')
    expect(await porto.getAttribute('class')).toMatch(/\bhit-contradicted\b/)
    expect(await porto.locator('.chip-contradiction').textContent()).toBe('contradiction')
    expect(await porto.locator('.chip-relation[data-kind="related_to"]').textContent()).toBe(
      'related to Visitors collect a blue badge at reception',
    )
    const lisbon = hitOf('The office is in Lisbon')
    expect(await lisbon.locator('.chip-contradiction').count()).toBe(1)

    const badge = page.locator('#recall-results .hit').nth(2)
    const followed = badge.locator('.relation-expanded')
    expect(await followed.count()).toBe(1)
    const portoRank = (await porto.locator('.hit-rank').textContent()) ?? ''
    expect(await followed.textContent()).toBe(
      `from ${portoRank}related to The office is in Porto since March`,
    )
    expect(await badge.locator('.chip-contradiction').count()).toBe(0)
    await screenshot(page, 'relations')
  })

  it('runs a review from the Browse card and shows its report, each action opening to the memories touched', async () => {
    const { page } = await seeded('review')
    await inPage(
      page,
      `await memory.remember('A passing thought about kites', { confidence: 0.1 })
      const list = await memory.list()
      await memory.feedback(list.items.find((m) => m.text.startsWith('Standup')).id, 'outdated')`,
    )
    // busy() disables the button before the click handler first awaits.
    expect(
      await page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('#review-button')!
        button.click()
        return button.disabled
      }),
    ).toBe(true)
    await page.waitForSelector(
      '#review-report[data-state="done"], #review-report[data-state="failed"]',
    )
    expect(await page.isVisible('#review-error')).toBe(false)
    expect(await page.isEnabled('#review-button')).toBe(true)
    expect(await page.textContent('#review-report .review-summary')).toMatch(
      new RegExp(`^Reviewed ${FACTS.length + 1} memories in \\d+ ms · 2 changes`),
    )
    const section = (action: string) =>
      page.locator(`#review-report .review-section[data-action="${action}"]`)
    expect(await section('removed').textContent()).toBe('0 removed for good')
    expect(await section('archived').locator('summary').textContent()).toBe(
      '1 archived (expired, kept for the grace period)',
    )
    expect(await section('archived').locator('.review-lines').isVisible()).toBe(false)
    await section('archived').locator('summary').click()
    expect(await section('archived').locator('.review-lines').textContent()).toBe(
      'Standup moved to 9:30 on Tuesdays',
    )
    await section('flagged').locator('summary').click()
    expect(await section('flagged').locator('.review-lines').textContent()).toBe(
      'A passing thought about kites',
    )
    await screenshot(page, 'review')

    await page.setChecked('#browse-filter [name="needsReview"]', true)
    await page.click('#browse-filter button[type="submit"]')
    const rows = page.locator('#browse-list .memory')
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(1)
    expect(await rows.locator('.memory-text').textContent()).toBe('A passing thought about kites')

    // With the memory closed the review fails, and says why beside the button.
    await inPage(page, 'await memory.close()')
    await page.click('#review-button')
    await page.waitForSelector('#review-report[data-state="failed"]')
    expect(await page.isVisible('#review-error')).toBe(true)
    expect(await page.textContent('#review-error')).toMatch(/closed/i)
  })

  it('restores its indexes from a snapshot after a reload, and recall still works', async () => {
    const { page } = await seeded('reload')
    // close() writes a snapshot, as leaving the page does.
    await inPage(page, 'await memory.close()')
    await page.reload()
    await waitReady(page)
    const first = await inPage<MemoryStats>(page, 'return memory.inspect.stats()')
    expect(first.memories).toBe(FACTS.length)
    expect(first.open?.restored).toBe('snapshot')
    // A write after the snapshot is replayed from the change log on the next start.
    expect(await rememberInUi(page, 'The boiler service is due in October')).toMatch(/Remembered/)
    await page.reload()
    await waitReady(page)
    const second = await inPage<MemoryStats>(page, 'return memory.inspect.stats()')
    expect(second.memories).toBe(FACTS.length + 1)
    expect(second.open?.restored).toBe('snapshot')
    const hits = await recallInUi(page, 'when is the boiler service')
    expect(hits[0]?.text).toBe('The boiler service is due in October')
    expect((await inPage<{ ok: boolean }>(page, 'return memory.inspect.verify()')).ok).toBe(true)
  })

  it('shows typed errors as readable messages next to the field at fault', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('errors'), model: 'ngram' }))

    await rememberInUi(page, '   ')
    const textError = page.locator('#remember-form [data-error-for="text"]')
    expect(await textError.isVisible()).toBe(true)
    expect(await textError.textContent()).toMatch(/^Expected text/)
    expect(await page.getAttribute('#remember-form [name="text"]', 'aria-invalid')).toBe('true')

    await rememberInUi(page, 'A fact with a silly tag', { tags: `ok, ${'x'.repeat(80)}` })
    const tagError = page.locator('#remember-form [data-error-for="tags"]')
    expect(await tagError.isVisible()).toBe(true)
    expect(await textError.isVisible()).toBe(false)
    expect(await tagError.textContent()).toMatch(/64/)

    await page.fill('#recall-form [name="k"]', '0')
    await recallInUi(page, 'anything')
    const kError = page.locator('#recall-form [data-error-for="k"]')
    expect(await kError.isVisible()).toBe(true)
    expect(await kError.textContent()).toMatch(/from 1 to 100/)
    await screenshot(page, 'errors')
  })

  it('through the real worker: a select hook just works, errors keep their fields, a function in meta is named', async () => {
    const { page } = await seeded('worker-contract')
    const outcome = await inPage<{
      selection: string
      ids: string[]
      judged: string[]
      missing: Record<string, unknown>
      uncloneable: Record<string, unknown>
      count: number
    }>(
      page,
      `const judged = []
      const result = await memory.recall('deploy staging', {
        k: 3,
        select: (query, hits) => { judged.push(query); return [hits[hits.length - 1].id] },
      })
      const catching = (p) => p.then(() => ({}), (e) => ({
        isError: e instanceof Error, name: e.name, code: e.code, id: e.id, field: e.field, message: e.message,
      }))
      const missing = await catching(memory.forget('say "hi": now'))
      const uncloneable = await catching(memory.remember('A fact with a callback', { meta: { onSeen: () => 1 } }))
      return { selection: result.selection, ids: result.hits.map((h) => h.id), judged, missing, uncloneable,
        count: await memory.count() }`,
    )
    expect(outcome.selection).toBe('applied')
    expect(outcome.judged).toEqual(['deploy staging'])
    expect(outcome.ids).toHaveLength(1)
    expect(outcome.missing).toMatchObject({
      isError: true,
      name: 'MemoryNotFoundError',
      code: 'NOT_FOUND',
      id: 'say "hi": now',
    })
    expect(outcome.uncloneable).toMatchObject({
      isError: true,
      name: 'InvalidInputError',
      code: 'BAD_OPTION',
      field: 'meta.onSeen',
    })
    expect(outcome.count).toBe(FACTS.length)
  })

  it('reports the line of a failed import and stores nothing from its batch', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('import'), model: 'ngram' }))
    const bad = '{"text":"first imported fact"}\n{"text":"second imported fact"}\n{"text": 42}\n'
    await page.setInputFiles('#import-form [name="file"]', {
      name: 'bad.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(bad),
    })
    const fileError = page.locator('#import-form [data-error-for="file"]')
    await fileError.waitFor({ state: 'visible' })
    expect(await fileError.textContent()).toMatch(/^Line 3: .*Nothing from that batch was stored/)
    expect(await inPage<number>(page, 'return memory.count()')).toBe(0)

    const good =
      '{"text":"first imported fact","tags":["import"]}\n{"text":"second imported fact"}\n'
    await page.setInputFiles('#import-form [name="file"]', {
      name: 'good.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(good),
    })
    await page.waitForSelector('#import-result[data-status="ok"]')
    expect(await page.textContent('#import-result')).toMatch(/2 lines, 2 new/)
    expect(await fileError.isVisible()).toBe(false)

    const download = page.waitForEvent('download')
    await page.click('#export-button')
    const file = await download
    expect(file.suggestedFilename()).toMatch(/\.jsonl$/)
    const stream = await file.createReadStream()
    let text = ''
    for await (const chunk of stream) text += chunk
    const lines = text.trim().split('\n')
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'engram', version: 1 })
    expect(lines).toHaveLength(3)
  })

  it('shows storage use and asks for persistent storage from the page', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('storage'), model: 'ngram' }))
    await page.waitForFunction(() =>
      /used of/.test(document.querySelector('#storage-text')?.textContent ?? ''),
    )
    await page.click('#persist-button')
    await page.waitForFunction(
      () => (document.querySelector('#persist-text')?.textContent ?? '') !== '',
    )
    expect(await page.textContent('#persist-text')).toMatch(/Persistent|declined|Best effort/)
  })
})
