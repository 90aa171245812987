/**
 * Issue 26 §3: `timeline` lists what happened in a window, newest first by `happenedAt ??
 * createdAt`, paged, without keywords; through the engine, an in-process client and another
 * origin's scope (which sees only its namespaces).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { openMemoryInProcess } from '../../../src/client/open-memory-in-process.ts'
import { scopeToOrigin } from '../../../src/connect/origin-scope.ts'
import { InvalidInputError } from '../../../src/core/errors.ts'
import type { MemoryApi } from '../../../src/core/types.ts'
import { createMemoryHost } from '../../../src/host/memory-host.ts'
import { closingEngines, manualClock } from '../../helpers/engine.ts'

const engine = closingEngines()
const DAY = 86_400_000
const NOW = Date.UTC(2024, 2, 14, 12)

/** Seven events a day apart (day 0 the oldest), stored in shuffled order, plus one dated trip. */
async function week(memory: Pick<MemoryApi, 'remember'>) {
  const ids: string[] = []
  for (const day of [3, 0, 6, 1, 5, 2, 4]) {
    const { id } = await memory.remember(`Event of day ${day}`, {
      happenedAt: Date.UTC(2024, 2, 1 + day, 9),
      type: day % 2 === 0 ? 'log' : 'fact',
      tags: day < 3 ? ['early'] : [],
    })
    ids[day] = id
  }
  return ids
}

describe('timeline', () => {
  it('lists newest first by the time things happened, not when they were stored', async () => {
    const clock = manualClock(NOW)
    const e = await engine({ clock: clock.read })
    const ids = await week(e)
    clock.now = NOW - 20 * DAY
    const undated = await e.remember('Stored on 23 February, no date of its own')
    clock.now = NOW
    const { items, cursor } = await e.timeline()
    expect(items.map((m) => m.id)).toEqual([...ids].reverse().concat(undated.id))
    expect(cursor).toBeUndefined()
  })

  it('pages by cursor without repeating or skipping, also when times tie', async () => {
    const e = await engine({ clock: manualClock(NOW).read })
    const ids = await week(e)
    const tied = await e.rememberMany(
      ['a', 'b', 'c'].map((x) => ({ text: `Tied ${x}`, happenedAt: Date.UTC(2024, 2, 4, 9) })),
    )
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await e.timeline({ limit: 3, ...(cursor ? { cursor } : {}) })
      expect(page.items.length).toBeLessThanOrEqual(3)
      seen.push(...page.items.map((m) => m.id))
      cursor = page.cursor
    } while (cursor)
    expect(seen).toHaveLength(10)
    expect(new Set(seen).size).toBe(10)
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse())
    expect(seen.indexOf(ids[4]!)).toBeLessThan(seen.indexOf(tied[0]!.id))
    expect(seen.indexOf(ids[2]!)).toBeGreaterThan(seen.indexOf(tied[2]!.id))
  })

  it('keeps to the window, the types and the tags, and overlaps an interval', async () => {
    const e = await engine({ clock: manualClock(NOW).read })
    const ids = await week(e)
    const trip = await e.remember('Trip to Porto', {
      happenedAt: Date.UTC(2024, 1, 27),
      happenedUntil: Date.UTC(2024, 2, 2, 18),
    })
    const window = { since: '2024-03-02', until: '2024-03-05' }
    expect((await e.timeline(window)).items.map((m) => m.id)).toEqual([
      ids[3],
      ids[2],
      ids[1],
      trip.id,
    ])
    const logs = await e.timeline({ ...window, types: ['log'] })
    expect(logs.items.map((m) => m.id)).toEqual([ids[2]])
    const early = await e.timeline({ tags: ['early'], until: Date.UTC(2024, 2, 2) })
    expect(early.items.map((m) => m.id)).toEqual([ids[0]])
  })

  it('leaves out expired memories unless asked', async () => {
    const e = await engine({ clock: manualClock(NOW).read })
    const ids = await week(e)
    await e.feedback(ids[5]!, 'outdated')
    expect((await e.timeline()).items.map((m) => m.id)).not.toContain(ids[5])
    expect((await e.timeline({ includeExpired: true })).items.map((m) => m.id)).toContain(ids[5])
  })

  it('refuses bad options, naming each', async () => {
    const e = await engine()
    const bad: [string, object][] = [
      ['since', { since: 'last week' }],
      ['until', { since: 10, until: 5 }],
      ['limit', { limit: 0 }],
      ['cursor', { cursor: 'not-a-cursor' }],
      ['types', { types: 'log' }],
      ['query', { query: 'words' }],
    ]
    for (const [field, options] of bad) {
      const error = await e.timeline(options as never).catch((x: unknown) => x)
      expect(error, field).toBeInstanceOf(InvalidInputError)
      expect((error as InvalidInputError).field).toBe(field)
    }
  })

  it('answers through an in-process client the same as the engine', async () => {
    const memory = await openMemoryInProcess(
      { name: `timeline-${process.pid}`, embedder: { kind: 'none' }, tabSync: false },
      { indexedDB: new IDBFactory(), IDBKeyRange },
    )
    try {
      const ids = await week(memory)
      const page = await memory.timeline({ limit: 2 })
      expect(page.items.map((m) => m.id)).toEqual([ids[6], ids[5]])
      const next = await memory.timeline({ limit: 2, cursor: page.cursor! })
      expect(next.items.map((m) => m.id)).toEqual([ids[4], ids[3]])
    } finally {
      await memory.close()
    }
  })

  it('shows another origin only its own namespaces', async () => {
    const host = createMemoryHost({ indexedDB: new IDBFactory(), IDBKeyRange })
    const api = await host.open({
      name: 'timeline-origin',
      embedder: { kind: 'none' },
      tabSync: false,
      autoReview: false,
    })
    try {
      const scoped = scopeToOrigin(api, {
        origin: 'https://site.test',
        namespaces: async () => ['origin:https://site.test'],
      })
      const mine = await scoped.remember('The site saw a visit', {
        happenedAt: Date.UTC(2024, 0, 2),
      })
      await api.remember('The owner banks with Acme', { happenedAt: Date.UTC(2024, 0, 3) })
      expect((await api.timeline()).items).toHaveLength(2)
      expect((await scoped.timeline()).items.map((m) => m.id)).toEqual([mine.id])
      await expect(scoped.timeline({ namespace: 'default' })).rejects.toMatchObject({
        name: 'AccessDeniedError',
      })
    } finally {
      await api.close()
      await host.dispose()
    }
  })
})
