import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryTools } from '../../../src/agent/memory-tools.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openTestMemory, text } from './memory.ts'

const SEARCH = { k: null, types: null, tags: null }

let memory: MemoryClient
beforeEach(async () => {
  memory = await openTestMemory()
})
afterEach(async () => {
  await memory.close()
})

describe('memory_relate', () => {
  it('stores the edge, and a superseded memory then drops out of search', async () => {
    const old = await memory.remember('The owner lives in Lisbon')
    const fresh = await memory.remember('The owner lives in Porto now')
    const tools = memoryTools(memory)
    const result = await tools.handle('memory_relate', {
      fromId: fresh.id,
      toId: old.id,
      kind: 'supersedes',
    })
    expect(result.isError).toBe(false)
    expect(text(result)).toBe(`Related memory ${fresh.id} supersedes memory ${old.id}.`)
    expect(await memory.relations.of(old.id)).toMatchObject([
      { from: fresh.id, to: old.id, kind: 'supersedes' },
    ])
    const found = text(await tools.handle('memory_search', { query: 'owner lives', ...SEARCH }))
    expect(found).toContain('Porto')
    expect(found).not.toContain('Lisbon')
  })

  it('refuses a kind outside the vocabulary as a tool error naming the argument', async () => {
    const a = await memory.remember('Fact one')
    const b = await memory.remember('Fact two')
    const result = await memoryTools(memory).handle('memory_relate', {
      fromId: a.id,
      toId: b.id,
      kind: 'replaces',
    })
    expect(result).toMatchObject({
      isError: true,
      error: { name: 'InvalidInputError', field: 'kind' },
    })
    expect(await memory.relations.of(a.id)).toEqual([])
  })

  it('treats an end in another namespace as not found, and stores no edge', async () => {
    const mine = await memory.remember('My fact')
    const theirs = await memory.remember('Their fact', { namespace: 'other' })
    const tools = memoryTools(memory)
    for (const [fromId, toId] of [
      [mine.id, theirs.id],
      [theirs.id, mine.id],
    ]) {
      const result = await tools.handle('memory_relate', { fromId, toId, kind: 'related_to' })
      expect(result).toMatchObject({ isError: true, error: { code: 'NOT_FOUND' } })
    }
    expect(await memory.relations.of(theirs.id)).toEqual([])
  })

  it('is left out in read-only mode', async () => {
    const tools = memoryTools(memory, { readOnly: true })
    expect(tools.definitions.map((d) => d.name)).toEqual(['memory_search'])
    const result = await tools.handle('memory_relate', {
      fromId: 'a',
      toId: 'b',
      kind: 'supersedes',
    })
    expect(result).toMatchObject({ isError: true, error: { field: 'name' } })
  })
})

describe('memory_feedback', () => {
  it("'wrong' lowers the confidence and marks the memory for review", async () => {
    const { id } = await memory.remember('The owner is allergic to peanuts', { confidence: 'high' })
    const before = (await memory.get(id))!.confidence
    const result = await memoryTools(memory).handle('memory_feedback', { id, verdict: 'wrong' })
    expect(result.isError).toBe(false)
    expect(text(result)).toContain(`Noted memory ${id} as wrong`)
    const after = (await memory.get(id))!
    expect(after.confidence).toBeLessThan(before)
    expect(await memory.list({ needsReview: true })).toMatchObject({ items: [{ id }] })
  })

  it("'outdated' expires the memory, so search stops showing it", async () => {
    const { id } = await memory.remember('The owner drives a red Fiat')
    const tools = memoryTools(memory)
    await tools.handle('memory_feedback', { id, verdict: 'outdated' })
    expect((await memory.get(id))?.expiresAt).toBeTypeOf('number')
    expect(text(await tools.handle('memory_search', { query: 'red Fiat', ...SEARCH }))).toMatch(
      /^No memories matched/,
    )
  })

  it("'useful' raises the confidence", async () => {
    const { id } = await memory.remember('The owner takes the 8:10 train', { confidence: 'low' })
    const before = (await memory.get(id))!.confidence
    await memoryTools(memory).handle('memory_feedback', { id, verdict: 'useful' })
    expect((await memory.get(id))!.confidence).toBeGreaterThan(before)
  })

  it('treats an id from another namespace as not found, and leaves that memory alone', async () => {
    const { id } = await memory.remember('Their fact', { namespace: 'other' })
    const before = await memory.get(id)
    const result = await memoryTools(memory).handle('memory_feedback', { id, verdict: 'outdated' })
    expect(result).toMatchObject({ isError: true, error: { name: 'MemoryNotFoundError' } })
    expect(await memory.get(id)).toEqual(before)
  })

  it('answers a verdict outside the vocabulary as a tool error, never a throw', async () => {
    const { id } = await memory.remember('A fact')
    const result = await memoryTools(memory).handle('memory_feedback', { id, verdict: 'great' })
    expect(result).toMatchObject({ isError: true, error: { field: 'verdict' } })
  })
})
