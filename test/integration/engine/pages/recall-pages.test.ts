import { afterEach, describe, expect, it } from 'vitest'
import type { MemoryEngine } from '../../../../src/engine/memory-engine.ts'
import { openTestEngine } from '../../../helpers/engine.ts'
import { guide } from './page-fixture.ts'

const open: MemoryEngine[] = []
async function engine(...args: Parameters<typeof openTestEngine>) {
  const e = await openTestEngine(...args)
  open.push(e)
  return e
}

afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((e) => e.close()))
})

/** A guide whose sections 2 and 5 both mention the reinstall flag. */
function manual(): string {
  const base = guide(6)
  return base
    .replace('## Section 2\n\n', '## Section 2\n\nReinstall the agent with --force-reinstall.\n\n')
    .replace('## Section 5\n\n', '## Section 5\n\nAfter a reinstall check the agent log.\n\n')
}

async function seeded() {
  const memory = await engine()
  await memory.remember('The agent reinstall needs admin rights on Windows')
  await memory.remember('The owner prefers metric units')
  const page = await memory.pages.remember({ title: 'Agent manual', text: manual() })
  return { memory, page }
}

describe('recall over pages and facts', () => {
  it('fuses fact hits and chunk hits, one hit per page with how many more it stands for', async () => {
    const { memory, page } = await seeded()
    const { hits } = await memory.recall('agent reinstall', { k: 5 })
    const chunks = hits.filter((h) => h.page)
    expect(chunks).toHaveLength(1)
    expect(hits.some((h) => !h.page && h.text.includes('admin rights'))).toBe(true)
    const [hit] = chunks
    expect(hit!.page).toMatchObject({ pageId: page.pageId, title: 'Agent manual' })
    expect(hit!.page!.headingPath[0]).toBe('Agent guide')
    expect(hit!.more).toBeGreaterThanOrEqual(1)
    const stored = await memory.pages.get(page.pageId)
    expect(stored!.text.slice(hit!.page!.start, hit!.page!.end)).toBe(hit!.text)
  })

  it('returns every chunk with collapsePages: false', async () => {
    const { memory } = await seeded()
    const { hits } = await memory.recall('agent reinstall', { k: 10, collapsePages: false })
    expect(hits.filter((h) => h.page).length).toBeGreaterThanOrEqual(2)
    expect(hits.every((h) => h.more === undefined)).toBe(true)
    await expect(memory.recall('x', { collapsePages: 'no' as never })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      field: 'collapsePages',
    })
  })

  it('filters to pages or to facts by type', async () => {
    const { memory } = await seeded()
    const pages = await memory.recall('agent reinstall', { types: ['page'] })
    expect(pages.hits.length).toBeGreaterThan(0)
    expect(pages.hits.every((h) => h.memory.type === 'page' && h.page)).toBe(true)
    const facts = await memory.recall('agent reinstall', { types: ['fact'] })
    expect(facts.hits.length).toBeGreaterThan(0)
    expect(facts.hits.every((h) => h.memory.type === 'fact' && !h.page)).toBe(true)
  })

  it('marks where the query matched on every hit, facts and chunks alike', async () => {
    const { memory } = await seeded()
    const { hits } = await memory.recall('reinstalling agents', { k: 5, mode: 'keyword' })
    expect(hits.length).toBeGreaterThan(1)
    for (const hit of hits) {
      expect(hit.highlights!.length).toBeGreaterThan(0)
      const marked = hit.highlights!.map(([s, e]) => hit.text.slice(s, e).toLowerCase())
      for (const word of marked) expect(word).toMatch(/^(reinstall|agent)/)
    }
  })

  it('finds nothing of a forgotten page', async () => {
    const { memory, page } = await seeded()
    await memory.pages.forget(page.pageId)
    const { hits } = await memory.recall('agent reinstall', { k: 10, mode: 'keyword' })
    expect(hits.some((h) => h.page)).toBe(false)
    expect(hits.map((h) => h.text)).toEqual(['The agent reinstall needs admin rights on Windows'])
  })
})
