import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryTools } from '../../../src/agent/memory-tools.ts'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openTestMemory, text } from './memory.ts'

const SEARCH = { k: null, types: null, tags: null }

let memory: MemoryClient
let ids: Record<'feb' | 'mar' | 'apr', string>
beforeEach(async () => {
  memory = await openTestMemory()
  const at = async (t: string, happenedAt: number) =>
    (await memory.remember(t, { happenedAt, source: 'agent' })).id
  ids = {
    feb: await at('Standup notes: the billing migration slipped a week', Date.UTC(2024, 1, 20)),
    mar: await at('Standup notes: the billing migration shipped to staging', Date.UTC(2024, 2, 12)),
    apr: await at(
      'Standup notes: the billing migration reached every customer',
      Date.UTC(2024, 3, 9),
    ),
  }
})
afterEach(async () => {
  await memory.close()
})

describe('memory_search with since and until', () => {
  it('keeps only the memories whose time falls from since to before until', async () => {
    const result = await memoryTools(memory).handle('memory_search', {
      query: 'standup notes billing migration',
      ...SEARCH,
      since: '2024-03-01',
      until: '2024-04-01',
    })
    expect(result.isError).toBe(false)
    expect(text(result)).toContain(ids.mar)
    expect(text(result)).not.toContain(ids.feb)
    expect(text(result)).not.toContain(ids.apr)
  })

  it('searches every date when both are null or left out', async () => {
    const result = await memoryTools(memory).handle('memory_search', {
      query: 'standup notes billing migration',
      ...SEARCH,
    })
    for (const id of Object.values(ids)) expect(text(result)).toContain(id)
  })

  it('quotes each memory with the day it happened', async () => {
    const result = await memoryTools(memory).handle('memory_search', {
      query: 'billing migration staging',
      ...SEARCH,
      since: '2024-03-12',
      until: '2024-03-13T00:00:00Z',
    })
    expect(text(result)).toMatch(new RegExp(`id="${ids.mar}"[^>]*happened="2024-03-12"`))
  })

  it.each([
    [{ since: 'last week', until: null }, 'since'],
    [{ since: '2024-13-45', until: null }, 'since'],
    [{ since: null, until: 1_710_000_000_000 }, 'until'],
    [{ since: '2024-04-01', until: '2024-03-01' }, 'until'],
  ])('answers %j with a tool error naming %s, and searches nothing', async (dates, field) => {
    const result = await memoryTools(memory).handle('memory_search', {
      query: 'standup notes',
      ...SEARCH,
      ...dates,
    })
    expect(result).toMatchObject({ isError: true, error: { code: 'BAD_OPTION', field } })
  })
})
