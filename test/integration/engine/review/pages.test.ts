import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../../src/core/options.ts'
import { closingEngines, freshIdb, manualClock, openTestEngine } from '../../../helpers/engine.ts'
import { NEAR_A, NEAR_B } from '../../../unit/engine/fixtures.ts'
import { guide } from '../pages/page-fixture.ts'

const engine = closingEngines()

/** A guide whose sections each end with the same footer section: byte-identical chunks. */
function repetitivePage(): string {
  const footer = '## See also\n\nAsk in the team channel before you change the deploy scripts.'
  return guide(6, 2)
    .split(/\n(?=## Section)/)
    .map((section) => `${section.trim()}\n\n${footer}`)
    .join('\n\n')
}

describe('review of pages', () => {
  // Issue 22.1: review merged byte-identical chunks of one page (a repeated footer), so
  // getPage no longer gave back the stored text while verify() said ok.
  it('never merges the chunks of a page, even byte-identical ones', async () => {
    const e = await engine()
    const text = repetitivePage()
    const stored = await e.pages.remember({ title: 'Guide', text })
    const before = await e.pages.get(stored.pageId)
    expect(before?.text).toBe(text)
    const report = await e.review()
    expect(report.merged).toEqual([])
    expect(report.scanned).toBe(stored.chunks)
    const after = await e.pages.get(stored.pageId)
    expect(after?.chunks).toBe(stored.chunks)
    expect(after?.text).toBe(text)
    expect((await e.inspect.verify()).ok).toBe(true)
  })

  it('archives and removes a page as a whole, by the last use of any of its chunks', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const text = guide(4, 3)
    const { pageId, chunks } = await e.pages.remember({ title: 'Guide', text })
    // Eighty days on, one section changes: its new chunk is written (used) then, the rest not.
    clock.tick(80 * DAY_MS)
    const edited = text.replace('## Section 3\n\n', '## Section 3\n\nOne new opening line.\n\n')
    const update = await e.pages.remember({ title: 'Guide', text: edited, pageId })
    expect(update.status).toBe('updated')
    clock.tick(15 * DAY_MS)
    const early = await e.review()
    expect(early).toMatchObject({ archived: [], removed: [], flagged: [], merged: [] })
    expect((await e.pages.get(pageId))?.text).toBe(edited)
    clock.tick(80 * DAY_MS)
    const late = await e.review()
    const ids = (await e.list({ type: 'page', limit: 100 })).items
    expect(ids.length).toBe(update.chunks)
    expect([...late.archived].sort()).toEqual(ids.map((m) => m.id).sort())
    expect(update.chunks).toBeGreaterThanOrEqual(chunks)
    clock.tick(8 * DAY_MS)
    const gone = await e.review()
    expect(gone.removed.length).toBe(update.chunks)
    expect(await e.pages.get(pageId)).toBeUndefined()
    expect(await e.pages.list()).toEqual([])
    expect((await e.inspect.verify()).ok).toBe(true)
  })

  it('takes feedback on one chunk as feedback on its page, so review never splits the page', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const text = guide(4, 3)
    const { pageId, chunks } = await e.pages.remember({ title: 'Guide', text })
    const rows = (await e.list({ type: 'page', limit: 100 })).items
    const second = rows.find((m) => m.chunk === 1)!
    await e.feedback(second.id, 'outdated')
    const after = (await e.list({ type: 'page', limit: 100 })).items
    expect(after.every((m) => m.expiresAt === clock.now)).toBe(true)
    clock.tick(DAY_MS)
    expect((await e.review()).archived).toHaveLength(chunks)
    expect((await e.pages.get(pageId))?.text).toBe(text)
    clock.tick(8 * DAY_MS)
    expect((await e.review()).removed).toHaveLength(chunks)
    expect(await e.pages.get(pageId)).toBeUndefined()
  })

  it('gives a merged memory the lowest trust of the two it was made from', async () => {
    const db = { name: `review-trust-${Math.random().toString(36).slice(2)}`, ...freshIdb() }
    const lax = await openTestEngine({ ...db, retrieval: { nearDuplicate: 0.9999 } })
    const older = await lax.remember(NEAR_A, { trust: 'trusted', confidence: 'high' })
    const newer = await lax.remember(NEAR_B, { trust: 'untrusted' })
    await lax.close()
    const e = await engine(db)
    const report = await e.review()
    expect(report.merged).toEqual([
      { into: older.id, from: newer.id, similarity: expect.any(Number) },
    ])
    const merged = await e.get(older.id)
    expect(merged?.trust).toBe('untrusted')
    // An untrusted memory starts no higher than the ceiling: the merge is held to it too.
    expect(merged?.confidence).toBeLessThanOrEqual(0.4)
    expect((await e.recall('metric units in recipes', { minTrust: 'unverified' })).hits).toEqual([])
  })
})
