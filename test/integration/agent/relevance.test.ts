/**
 * One relevance rule for both agent paths (issue 23 §4): `minCosine` is the engine floor's raw
 * bar, passed as the recall option, so `memory_search` and `contextFor` keep the same memories
 * for the same setting; -1 switches the floor off on both (it used to in `memory_search` only).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { contextFor } from '../../../src/agent/context-for.ts'
import { memoryTools } from '../../../src/agent/memory-tools.ts'
import { relevanceFloor } from '../../../src/agent/relevance.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openTestMemory, text } from './memory.ts'

let memory: MemoryClient
beforeEach(async () => {
  // RRF keeps every vector candidate, so only the floor decides what an unrelated query keeps.
  memory = await openTestMemory({ fusion: 'rrf' })
  await memory.remember('The wifi password is hunter2')
  await memory.remember('The owner prefers metric units', { tags: ['units'] })
  await memory.remember("Priya is the owner's sister-in-law")
})
afterEach(async () => {
  await memory.close()
})

const SEARCH = { k: null, types: null, tags: null }
const ids = (block: string) => [...block.matchAll(/<memory id="(\w+)"/g)].map((m) => m[1])

describe('minCosine, one rule for memory_search and contextFor', () => {
  it('is the recall floor: off at -1, else the floor with it as the raw cosine bar', () => {
    expect(relevanceFloor(-1)).toBe(false)
    expect(relevanceFloor(0.5)).toEqual({ minCosine: 0.5 })
    expect(relevanceFloor(0)).toEqual({ minCosine: 0 })
  })

  it('keeps every hit at -1 on both paths, an unrelated query included', async () => {
    const query = 'banana bread recipe'
    const block = await contextFor(memory, query, { minCosine: -1 })
    const found = text(
      await memoryTools(memory, { minCosine: -1 }).handle('memory_search', {
        query,
        ...SEARCH,
      }),
    )
    expect(block).toContain('hunter2')
    expect(found).toContain('hunter2')
    expect(ids(block)).toEqual(ids(found))
  })

  it('shows the same memories on both paths for the same setting', async () => {
    const queries = ['banana bread recipe', 'Who is Priya?', 'metric units', 'wifi password']
    for (const minCosine of [-1, 0, 0.5, 0.9, undefined]) {
      const tools = memoryTools(memory, minCosine === undefined ? {} : { minCosine })
      for (const query of queries) {
        const block = await contextFor(memory, query, minCosine === undefined ? {} : { minCosine })
        const found = text(await tools.handle('memory_search', { query, ...SEARCH }))
        expect({ minCosine, query, ids: ids(block) }).toEqual({
          minCosine,
          query,
          ids: ids(found),
        })
      }
    }
  })

  it('drops an unrelated memory on both paths by default', async () => {
    const query = 'banana bread recipe'
    expect(await contextFor(memory, query)).toBe('')
    const found = text(await memoryTools(memory).handle('memory_search', { query, ...SEARCH }))
    expect(found).toMatch(/^No memories matched/)
  })
})
