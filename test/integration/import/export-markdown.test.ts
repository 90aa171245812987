import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { MemoryApi, StoredPage } from '../../../src/core/types.ts'
import { exportMarkdown, importFrom, markdownFiles } from '../../../src/import/index.ts'
import { closingEngines } from '../../helpers/engine.ts'

const open = closingEngines()
const chatgpt = readFileSync(
  join(import.meta.dirname, '../../fixtures/import/chatgpt-conversations.json'),
  'utf8',
)

async function pages(memory: MemoryApi): Promise<StoredPage[]> {
  const list = await memory.pages.list()
  const out = await Promise.all(list.map(async (p) => (await memory.pages.get(p.pageId))!))
  return out.sort((a, b) => a.title.localeCompare(b.title))
}

const own = (tags: string[]) => tags.filter((t) => !t.startsWith('import:')).sort()

describe('exportMarkdown', () => {
  it('writes one file per page with front matter, a file of facts and the JSONL, zipped', async () => {
    const memory = await open()
    await importFrom(memory, chatgpt)
    const fact = await memory.remember('The user prefers window seats', { tags: ['travel'] })
    const [lisbon] = (await memory.list({ type: 'page', limit: 1000 })).items.filter(
      (m) => m.chunk === 0 && m.page?.title === 'Three days in Lisbon',
    )
    await memory.relations.add(lisbon!.id, fact.id, 'related_to')
    const files = unzipSync(await exportMarkdown(memory))
    expect(Object.keys(files).sort()).toEqual([
      'facts.md',
      'memories.jsonl',
      'pages/Sourdough starter.md',
      'pages/Three days in Lisbon.md',
    ])
    const page = strFromU8(files['pages/Three days in Lisbon.md']!)
    expect(page).toMatch(
      /^---\nid: "chatgpt-[0-9a-f]{16}"\ntype: "page"\ntitle: "Three days in Lisbon"\n/,
    )
    expect(page).toContain('tags: ["chatgpt"]')
    expect(page).toContain('created: "2024-01-15T10:00:00.123Z"')
    expect(page).toContain('trust: "untrusted"')
    expect(page).toContain(`relations: ["related_to ${fact.id}"]`)
    expect(page).toContain('\n---\n\n## User, 2024-01-15 10:00 UTC')
    const facts = strFromU8(files['facts.md']!)
    expect(facts).toContain(`## ${fact.id}`)
    expect(facts).toContain('The user prefers window seats')
    expect(strFromU8(files['memories.jsonl']!).split('\n')[0]).toContain('"format":"engram"')
  })

  it('reads back through the Markdown importer with the same texts, titles, tags and dates', async () => {
    const source = await open()
    await importFrom(source, chatgpt)
    await source.pages.remember({
      title: 'Bike repair',
      text: '# Brakes\n\nAdjust the cable first.\n\n## Pads\n\nReplace at 1 mm.',
      tags: ['bike', 'howto'],
    })
    const before = await pages(source)
    const zip = await exportMarkdown(source)

    const target = await open()
    const report = await importFrom(target, zip, { format: 'markdown' })
    expect(report).toMatchObject({ read: 3, created: 3 })
    const after = await pages(target)
    expect(after.map((p) => p.text)).toEqual(before.map((p) => p.text))
    expect(after.map((p) => p.title)).toEqual(before.map((p) => p.title))
    expect(after.map((p) => p.pageId)).toEqual(before.map((p) => p.pageId))
    expect(after.map((p) => [p.createdAt, p.updatedAt])).toEqual(
      before.map((p) => [p.createdAt, p.updatedAt]),
    )
    for (const [i, p] of after.entries()) {
      expect(own(p.tags)).toEqual([...new Set([...own(before[i]!.tags), 'notes'])].sort())
    }
    // When each page happened (the conversations' spans; none for the page written here).
    const when = async (memory: MemoryApi) =>
      (await memory.list({ type: 'page', limit: 1000 })).items
        .map((m) => `${m.page?.title} ${m.chunk}: ${m.happenedAt} ${m.happenedUntil}`)
        .sort()
    const spans = await when(source)
    expect(spans).toContain('Three days in Lisbon 0: 1705312800123 1705316400500')
    expect(spans).toContain('Bike repair 0: undefined undefined')
    expect(await when(target)).toEqual(spans)
    const trust = (await target.list({ limit: 1000 })).items.map((m) => [m.page?.title, m.trust])
    expect(new Set(trust.map(([title, t]) => `${title}: ${t}`))).toEqual(
      new Set([
        'Three days in Lisbon: untrusted',
        'Sourdough starter: untrusted',
        'Bike repair: unverified',
      ]),
    )
    expect((await importFrom(source, await markdownFiles(source))).unchanged).toBe(3)
  })
})
