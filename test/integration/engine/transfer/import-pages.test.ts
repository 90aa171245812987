/**
 * Pages through export and import (issue 15): an imported chunk comes back as a chunk of its
 * page, so `getPage`, `listPages` and recall answer as they did; a malformed or incomplete page
 * is refused with the line named and nothing stored.
 */
import { describe, expect, it } from 'vitest'
import { ImportFormatError } from '../../../../src/core/errors.ts'
import type { MemoryEngine } from '../../../../src/engine/memory-engine.ts'
import { chunkKey } from '../../../../src/engine/pages/page-rows.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { closingEngines, freshIdb, manualClock } from '../../../helpers/engine.ts'
import { row } from '../../../unit/engine/fixtures.ts'
import { guide } from '../pages/page-fixture.ts'

const open = closingEngines()

/** A memory with facts, a relation and two pages, one of them tagged and long. */
async function source() {
  const clock = manualClock()
  const memory = await open({ clock: clock.read })
  const admin = await memory.remember('The agent reinstall needs admin rights on Windows')
  const units = await memory.remember('The owner prefers metric units', { tags: ['prefs'] })
  await memory.relations.add(admin.id, units.id, 'related_to')
  clock.tick(1_000)
  const text = guide(6).replace(
    '## Section 2\n\n',
    '## Section 2\n\nReinstall the agent with --force-reinstall.\n\n',
  )
  const manual = await memory.pages.remember({
    title: 'Agent manual',
    text,
    source: 'manual.md',
    tags: ['ops'],
  })
  clock.tick(1_000)
  const notes = await memory.pages.remember({
    title: 'Notes',
    text: guide(1, 2, 9),
    namespace: 'x',
  })
  return { memory, manual, notes, clock }
}

/** The lines of an export without its header's instant, which differs between two exports. */
async function exported(memory: MemoryEngine, vectors = false): Promise<string[]> {
  const [header, ...rest] = (await memory.transfer.export({ vectors })).trimEnd().split('\n')
  const { exportedAt: _at, ...kept } = JSON.parse(header!)
  return [JSON.stringify(kept), ...rest]
}

async function sameAnswers(a: MemoryEngine, b: MemoryEngine, pageIds: string[]): Promise<void> {
  for (const id of pageIds) expect(await b.pages.get(id)).toEqual(await a.pages.get(id))
  expect(await b.pages.list()).toEqual(await a.pages.list())
  expect(await b.pages.list({ namespace: 'x' })).toEqual(await a.pages.list({ namespace: 'x' }))
  let chunkHits = 0
  for (const query of ['how do I reinstall the agent', 'section 4 meadow', 'metric units']) {
    const hits = async (m: MemoryEngine) =>
      (await m.recall(query, { k: 5 })).hits.map(({ id, text, page, more }) => ({
        id,
        text,
        page,
        more,
      }))
    const expected = await hits(a)
    chunkHits += expected.filter((h) => h.page !== undefined).length
    expect(await hits(b)).toEqual(expected)
  }
  expect(chunkHits).toBeGreaterThan(0)
}

describe('importing an export with pages', () => {
  it('brings every page back as chunks of it: getPage, listPages and recall answer the same', async () => {
    const { memory, manual, notes, clock } = await source()
    expect(manual.chunks).toBeGreaterThan(4)
    let db: EngramDatabase | undefined
    const copy = await open({ clock: clock.read, onDatabase: (d) => (db = d) })
    clock.tick(60_000)
    const report = await copy.transfer.import(await memory.transfer.export(), { trust: 'trusted' })
    const chunks = manual.chunks + notes.chunks
    expect(report).toEqual({ lines: 2 + chunks, created: 2 + chunks, duplicates: 0, flagged: 0 })
    // Every field of every line, relations included, survives: the two exports are the same.
    expect(await exported(copy)).toEqual(await exported(memory))
    await sameAnswers(memory, copy, [manual.pageId, notes.pageId])
    const stats = await copy.inspect.stats()
    expect(stats.vectors).toBe(stats.memories)
    const row = await db!.memories.where('pageId').equals(manual.pageId).first()
    expect(row!.key).toBe(chunkKey(manual.pageId, row!.id))
    expect((await copy.inspect.verify()).ok).toBe(true)
  })

  it('keeps exported vectors of the same model, and writes no page again for the same file', async () => {
    const { memory, manual, notes, clock } = await source()
    const copy = await open({ clock: clock.read })
    const file = await memory.transfer.export({ vectors: true })
    await copy.transfer.import(file, { trust: 'trusted' })
    expect(await exported(copy, true)).toEqual(await exported(memory, true))
    const seq = (await copy.inspect.stats()).changeSeq
    const again = await copy.transfer.import(file, { trust: 'trusted' })
    expect(again).toMatchObject({ created: 0, duplicates: 2 + manual.chunks + notes.chunks })
    // A restore is not a confirmation: the facts and the pages' chunks are left as they were.
    expect((await copy.inspect.stats()).changeSeq).toBe(seq)
    expect(await copy.count({ type: 'page' })).toBe(manual.chunks + notes.chunks)
  })

  it('stores a group of new pages with one read and one request a table, not one a page', async () => {
    const memory = await open()
    for (let i = 0; i < 6; i++) {
      await memory.pages.remember({ title: `Page ${i}`, text: guide(2, 2, 100 + i) })
    }
    const file = await memory.transfer.export({ vectors: true })
    const requests: string[] = []
    let counting = false
    const copy = await open({
      onDatabase: (d) =>
        d.use({
          stack: 'dbcore',
          name: 'count',
          create: (down) => ({
            ...down,
            table: (name) => {
              const table = down.table(name)
              const noted =
                <A, R>(what: (a: A) => string, call: (a: A) => R) =>
                (a: A) => {
                  if (counting) requests.push(`${name} ${what(a)}`)
                  return call(a)
                }
              return {
                ...table,
                mutate: noted((req) => req.type, table.mutate),
                query: noted(() => 'query', table.query),
                openCursor: noted(() => 'query', table.openCursor),
              }
            },
          }),
        }),
    })
    counting = true
    const report = await copy.transfer.import(file, { trust: 'trusted' })
    counting = false
    expect(report.created).toBe(await memory.count())
    // Six pages of a few chunks each make one group: each table is asked once for all of them.
    expect(requests.filter((r) => r.startsWith('memories ')).sort()).toEqual([
      'memories put',
      'memories query',
    ])
    expect(requests.filter((r) => r.startsWith('vectors '))).toEqual(['vectors put'])
    // (Its other request, a query, is the write path's look at the log's head: one a group.)
    expect(requests.filter((r) => /^changes (add|put)/.test(r))).toEqual(['changes add'])
    expect(await exported(copy, true)).toEqual(await exported(memory, true))
  })

  it('stores a page under a fresh id when another page holds its id, losing neither', async () => {
    const { memory, manual } = await source()
    const file = await memory.transfer.export({ namespace: 'default' })
    await memory.pages.remember({
      title: 'Agent manual',
      text: 'Replaced.',
      source: 'manual.md',
      tags: ['ops'],
    })
    const report = await memory.transfer.import(file, { trust: 'trusted' })
    expect(report.created).toBe(manual.chunks)
    const pages = await memory.pages.list()
    expect(pages).toHaveLength(2)
    const restored = pages.find((p) => p.pageId !== manual.pageId)!
    expect((await memory.pages.get(restored.pageId))?.text).toContain('--force-reinstall')
    expect((await memory.pages.get(manual.pageId))?.text).toBe('Replaced.')
    expect((await memory.inspect.verify()).ok).toBe(true)
  })
})

/** Line numbers (1-based) of an export's chunk lines of one page, and the parsed lines. */
function chunkLines(file: string, pageId: string) {
  const rows = file
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l))
  const at = rows.flatMap((r, i) => (r.pageId === pageId ? [i] : []))
  return { rows, at }
}

/** An exported chunk line, as far as the spoilers below touch it. */
interface ChunkLine {
  text: string
  pageId?: string
  page: string | { start: unknown; end: number; hash?: string; extra?: number }
}
const place = (r: ChunkLine) => r.page as Exclude<ChunkLine['page'], string>

const join = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`

describe('a malformed page in an import', () => {
  it.each([
    ['page is not an object', (r: ChunkLine) => (r.page = 'intro')],
    ['page.hash is missing', (r: ChunkLine) => delete place(r).hash],
    ['page.start is not a number', (r: ChunkLine) => (place(r).start = '0')],
    ['page has an unknown field', (r: ChunkLine) => (place(r).extra = 1)],
    ['pageId is missing', (r: ChunkLine) => delete r.pageId],
    ['the offsets do not fit the text', (r: ChunkLine) => (place(r).end += 5)],
    ['the text was edited', (r: ChunkLine) => (r.text = `${r.text}Extra words. `)],
  ])('is refused, naming the line, when %s; nothing is stored', async (_what, spoil) => {
    const { memory, manual } = await source()
    const file = await memory.transfer.export()
    const { rows, at } = chunkLines(file, manual.pageId)
    const target = at[2]!
    spoil(rows[target])
    const copy = await open()
    const error = await copy.transfer.import(join(rows)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImportFormatError)
    expect(error).toMatchObject({ code: 'IMPORT_FORMAT' })
    // The line at fault, or for a page that no longer adds up, its first chunk's line.
    expect([target + 1, at[0]! + 1]).toContain((error as ImportFormatError).line)
    expect(await copy.count()).toBe(0)
    expect(await copy.pages.list()).toEqual([])
  })

  it('is refused when a chunk is missing, naming the line after the gap', async () => {
    const { memory, manual } = await source()
    const { rows, at } = chunkLines(await memory.transfer.export(), manual.pageId)
    const kept = rows.filter((_, i) => i !== at[1])
    const copy = await open()
    await expect(copy.transfer.import(join(kept))).rejects.toMatchObject({
      name: 'ImportFormatError',
      line: at[2]!,
    })
    expect(await copy.count()).toBe(0)
  })

  it('stores a group of pages whole or not at all when a later page of it is stale', async () => {
    const memory = await open()
    await memory.pages.remember({ title: 'One', text: '# One\n\nFirst page text about bikes.' })
    const two = await memory.pages.remember({
      title: 'Two',
      text: '# Two\n\nSecond page about boats.',
    })
    const file = await memory.transfer.export()
    const idb = freshIdb()
    const copy = await open({ name: 'stale-group', ...idb })
    // A row written around the log holds page Two's id: Two plans against an index that does
    // not know it, and its commit finds it stale every time, after One was written.
    const raw = new EngramDatabase('stale-group', idb)
    await raw.open()
    const outside = row('01J0OUTSIDE0000000000000000', 'A row written around the log', {
      pageId: two.pageId,
    })
    await raw.memories.put(outside)
    await expect(copy.transfer.import(file, { trust: 'trusted' })).rejects.toThrow(/kept changing/)
    // Page One was written before Two was found stale: the aborted transaction took it back.
    expect(await raw.memories.where('pageId').notEqual(two.pageId).count()).toBe(0)
    raw.close()
  })
})
