/**
 * Pages in two tabs on one database (issue 15): a page stored, replaced or forgotten in one tab
 * is what the other tab's recall and getPage answer once the change has propagated.
 */
import { describe, expect, it } from 'vitest'
import { mutex, tabOpener } from '../../../helpers/tabs.ts'
import { guide } from './page-fixture.ts'

const tab = tabOpener()

const reinstall = guide(4).replace(
  '## Section 3\n\n',
  '## Section 3\n\nReinstall the agent with --force-reinstall.\n\n',
)

describe('pages across tabs', () => {
  it('a page stored in one tab is recalled and read whole in the other', async () => {
    const locks = mutex()
    const name = `page-tabs-${process.pid}-store`
    const a = await tab(name, locks)
    const b = await tab(name, locks)
    const stored = await a.pages.remember({ title: 'Agent manual', text: reinstall })
    await expect
      .poll(async () => (await b.recall('reinstall the agent', { k: 3 })).hits[0]?.page?.pageId, {
        timeout: 2000,
      })
      .toBe(stored.pageId)
    const hit = (await b.recall('reinstall the agent', { k: 3 })).hits[0]!
    expect(hit.memory.type).toBe('page')
    expect(hit.page!.headingPath).toEqual(['Agent guide', 'Section 3'])
    const page = await b.pages.get(stored.pageId)
    expect(page).toMatchObject({ text: reinstall, chunks: stored.chunks, title: 'Agent manual' })
    expect(page!.text.slice(hit.page!.start, hit.page!.end)).toBe(hit.text)
    expect(await b.pages.list()).toEqual(await a.pages.list())
    expect((await b.inspect.verify()).ok).toBe(true)
  })

  it('a page replaced or forgotten in one tab is gone from the other tab too', async () => {
    const locks = mutex()
    const name = `page-tabs-${process.pid}-forget`
    const a = await tab(name, locks)
    const b = await tab(name, locks)
    const { pageId } = await a.pages.remember({ title: 'Agent manual', text: reinstall })
    await expect.poll(async () => (await b.pages.get(pageId))?.chunks).toBeGreaterThan(1)
    const edited = reinstall.replace('--force-reinstall', '--clean-install')
    // The other tab replaces it: its catch-up must see a's chunks first, or it would make a twin.
    const replaced = await b.pages.remember({ title: 'Agent manual', text: edited })
    expect(replaced).toMatchObject({ pageId, status: 'updated' })
    await expect.poll(async () => (await a.pages.get(pageId))?.text).toBe(edited)
    await a.pages.forget(pageId)
    // getPage reads the table, so it answers at once; recall waits for the other tab's catch-up.
    expect(await b.pages.get(pageId)).toBeUndefined()
    const pageHits = async () =>
      (await b.recall('clean install the agent', { k: 5, mode: 'keyword' })).hits.length
    await expect.poll(pageHits, { timeout: 2000 }).toBe(0)
    expect(await b.count()).toBe(0)
    expect((await b.inspect.verify()).ok).toBe(true)
  })
})
