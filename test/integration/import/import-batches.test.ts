import { describe, expect, it } from 'vitest'
import { ImportFormatError, InvalidInputError } from '../../../src/core/errors.ts'
import type { MemoryApi } from '../../../src/core/types.ts'
import { importFrom } from '../../../src/import/index.ts'
import { BATCH_PAGES } from '../../../src/import/write-page.ts'
import { closingEngines } from '../../helpers/engine.ts'

const open = closingEngines()

/** A seeded ChatGPT export of `n` two-turn conversations, each with its own words. */
function exportOf(n: number, seed = 29): Record<string, unknown>[] {
  let state = seed
  const word = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return `w${(state % 50_000).toString(36)}`
  }
  return Array.from({ length: n }, (_, i) => {
    const said = Array.from({ length: 12 }, word).join(' ')
    const node = (id: string, parent: string | null, role: string, text: string) => ({
      id,
      parent,
      children: [],
      message: {
        author: { role },
        content: { content_type: 'text', parts: [text] },
        create_time: 1_700_000_000 + i * 60,
      },
    })
    return {
      id: `conv-${i}`,
      title: `Conversation ${i}`,
      create_time: 1_700_000_000 + i * 60,
      update_time: 1_700_000_030 + i * 60,
      current_node: `a-${i}`,
      mapping: {
        [`q-${i}`]: node(`q-${i}`, null, 'user', `Question ${i}: ${said}?`),
        [`a-${i}`]: node(`a-${i}`, `q-${i}`, 'assistant', `Answer ${i}: ${said}.`),
      },
    }
  })
}

/** `target[name]`, a method bound to it (the engine's methods read its private fields). */
function member(target: object, name: string | symbol): unknown {
  const value = Reflect.get(target, name)
  return typeof value === 'function' ? value.bind(target) : value
}

/** The memory, with the calls the importer makes of it counted (the engine answers them). */
function counting(memory: MemoryApi): { memory: MemoryApi; calls: Record<string, number> } {
  const calls: Record<string, number> = { get: 0, import: 0 }
  const pages = new Proxy(memory.pages, {
    get: (target, name) =>
      name === 'get'
        ? (id: string) => {
            calls.get!++
            return target.get(id)
          }
        : member(target, name),
  })
  const transfer = new Proxy(memory.transfer, {
    get: (target, name) =>
      name === 'import'
        ? (...args: Parameters<MemoryApi['transfer']['import']>) => {
            calls.import!++
            return target.import(...args)
          }
        : member(target, name),
  })
  const wrapped = new Proxy(memory, {
    get: (target, name) =>
      name === 'pages' ? pages : name === 'transfer' ? transfer : member(target, name),
  })
  return { memory: wrapped, calls }
}

describe('importFrom in batches', () => {
  it('stores a fresh export in a few transfer.import calls, reading no page back', async () => {
    const engine = await open()
    const { memory, calls } = counting(engine)
    const n = 2 * BATCH_PAGES + 5
    const report = await importFrom(memory, JSON.stringify(exportOf(n)), { format: 'chatgpt' })
    expect(report).toMatchObject({ read: n, created: n, unchanged: 0, updated: 0 })
    expect(report.done).toHaveLength(n)
    expect(calls.import).toBe(3)
    expect(calls.get).toBe(0)
    expect(await engine.pages.list()).toHaveLength(n)
    const found = await engine.recall('Answer 131', { mode: 'keyword' })
    expect(found.hits[0]?.page?.title).toBe('Conversation 131')
  })

  it('stores each batch of pages in one transaction, not one a page', async () => {
    let changes = 0
    const memory = await open({
      onEvent: (event) => {
        if (event.type === 'change') changes++
      },
    })
    const n = 2 * BATCH_PAGES + 5
    const report = await importFrom(memory, JSON.stringify(exportOf(n)), { format: 'chatgpt' })
    expect(report).toMatchObject({ created: n })
    // A change notice a committed write: three batches, three transactions.
    expect(changes).toBe(3)
  })

  it('stores two conversations of the same text in one batch once, the second a twin', async () => {
    const memory = await open()
    const [first, second] = exportOf(2)
    const twin = { ...second!, mapping: first!.mapping, current_node: first!.current_node }
    const report = await importFrom(
      memory,
      JSON.stringify([first, { ...twin, title: first!.title }]),
      {
        format: 'chatgpt',
      },
    )
    expect(report).toMatchObject({ read: 2, created: 1, unchanged: 1 })
    expect(await memory.pages.list()).toHaveLength(1)
    expect((await memory.list({ type: 'page', limit: 100 })).items).toHaveLength(report.chunks)
  })

  it('adds nothing when the export comes again, and replaces only the conversation that went on', async () => {
    const memory = await open()
    const conversations = exportOf(BATCH_PAGES + 3)
    await importFrom(memory, JSON.stringify(conversations), { format: 'chatgpt' })
    const again = await importFrom(memory, JSON.stringify(conversations), { format: 'chatgpt' })
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: BATCH_PAGES + 3, chunks: 0 })
    const answer = (conversations[40]!.mapping as Record<string, { message: unknown }>)['a-40']!
    ;(answer.message as { content: { parts: string[] } }).content.parts = ['Answer 40, revised.']
    const newer = await importFrom(memory, JSON.stringify(conversations), { format: 'chatgpt' })
    expect(newer).toMatchObject({ created: 0, updated: 1, unchanged: BATCH_PAGES + 2 })
    expect(await memory.pages.list()).toHaveLength(BATCH_PAGES + 3)
    const page = (await memory.pages.list()).find((p) => p.title === 'Conversation 40')!
    expect((await memory.pages.get(page.pageId))!.text).toContain('Answer 40, revised.')
  })

  it('keeps every conversation before a broken one stored, though they were still held in a batch', async () => {
    const memory = await open()
    const conversations = exportOf(BATCH_PAGES + 10)
    conversations[BATCH_PAGES + 7]!.current_node = 'no-such-node'
    const error = await importFrom(memory, JSON.stringify(conversations), {
      format: 'chatgpt',
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImportFormatError)
    expect((error as ImportFormatError).line).toBe(BATCH_PAGES + 8)
    const titles = (await memory.pages.list()).map((p) => p.title)
    expect(titles).toHaveLength(BATCH_PAGES + 7)
    expect(titles).toContain(`Conversation ${BATCH_PAGES + 6}`)
    expect(titles).not.toContain(`Conversation ${BATCH_PAGES + 7}`)
  })

  it('stores the same conversation twice in one export once, the second compared with the first', async () => {
    const memory = await open()
    const [first] = exportOf(1)
    const report = await importFrom(memory, JSON.stringify([first, first]), { format: 'chatgpt' })
    expect(report).toMatchObject({ read: 2, created: 1, unchanged: 1 })
    expect(await memory.pages.list()).toHaveLength(1)
  })

  it('leaves a page the memory refuses out of done, so a re-run tries it again', async () => {
    const engine = await open()
    // The memory refuses one line of the batch (as it would a page past its quota); the
    // importer is what is under test here.
    const refusing = new Proxy(engine, {
      get: (target, name) =>
        name === 'transfer'
          ? new Proxy(target.transfer, {
              get: (t, key) =>
                key === 'import'
                  ? (text: string, options: Parameters<MemoryApi['transfer']['import']>[1]) => {
                      if (text.includes('Question 2:')) {
                        throw new InvalidInputError('BAD_OPTION', 'text', 'refused for the test')
                      }
                      return t.import(text, options)
                    }
                  : member(t, key),
            })
          : member(target, name),
    })
    const conversations = exportOf(5)
    const report = await importFrom(refusing, JSON.stringify(conversations), { format: 'chatgpt' })
    expect(report).toMatchObject({ created: 4, unchanged: 0, updated: 0 })
    expect(report.done).not.toContain('conv-2')
    expect(report.done).toHaveLength(4)
    expect(report.skipped).toEqual([{ entry: 3, id: 'conv-2', reason: expect.any(String) }])
    const again = await importFrom(engine, JSON.stringify(conversations), { format: 'chatgpt' })
    expect(again).toMatchObject({ created: 1, unchanged: 4, skipped: [] })
  })

  it('costs a conversation whose extracted fact is refused its facts, not the import or the rest of its batch', async () => {
    const memory = await open()
    const n = BATCH_PAGES + 6
    const bad = new Set(['conv-10', `conv-${n - 1}`])
    const report = await importFrom(memory, JSON.stringify(exportOf(n)), {
      format: 'chatgpt',
      extract: (c) => [{ text: bad.has(c.id) ? 'x'.repeat(9000) : `Fact of ${c.title}.` }],
    })
    expect(report).toMatchObject({ read: n, created: n, facts: n - 2 })
    expect(report.done).toHaveLength(n)
    expect(report.skipped.map((s) => s.id).sort()).toEqual([...bad].sort())
    for (const s of report.skipped) expect(s.reason).toMatch(/^its facts: /)
    const facts = await memory.list({ type: 'fact', limit: 1000 })
    expect(facts.items).toHaveLength(n - 2)
  })
})
