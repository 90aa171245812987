/**
 * An open whose index restore fails (issue 15): the snapshot is unusable and the rebuild from
 * the tables throws on a row the keyword index cannot take, written straight into IndexedDB
 * under the engine. The memory still opens on its tables, recall answers from the recency
 * window, and a later successful rebuild brings hybrid recall back with every write made meanwhile.
 */
import { ulid } from 'ulidx'
import { describe, expect, it } from 'vitest'
import { INDEX_RETRY_MS } from '../../../src/core/options.ts'
import { EngramDatabase } from '../../../src/storage/index.ts'
import { closingEngines, freshIdb, manualClock } from '../../helpers/engine.ts'

const engine = closingEngines()
let counter = 0

const FACTS = [
  'The owner prefers metric units',
  'The owner’s sister is called Priya',
  'The parking spot is B12',
]

/**
 * A memory whose indexes cannot be restored: three good rows, a damaged snapshot and one row
 * whose `aliases` is null (MiniSearch's document builder throws a TypeError on it).
 */
async function brokenMemory() {
  const shared = { name: `failed-open-${++counter}`, ...freshIdb() }
  const clock = manualClock()
  const first = await engine({ ...shared, clock: clock.read })
  for (const text of FACTS) await first.remember(text)
  await first.close()
  const db = new EngramDatabase(shared.name, shared)
  const good = (await db.memories.toArray())[0]!
  const bad = { ...good, id: ulid(), text: 'The owner cycles to work', key: 'malformed' }
  await db.memories.put({ ...bad, aliases: null } as never)
  const [snapshot] = await db.snapshots.toArray()
  await db.snapshots.put({ ...snapshot!, data: { keyword: 'damaged' } })
  db.close()
  const memory = await engine({ ...shared, clock: clock.read })
  const repair = async () => {
    const fix = new EngramDatabase(shared.name, shared)
    await fix.memories.put(bad)
    fix.close()
  }
  return { memory, clock, bad, repair }
}

describe('an open whose index restore fails', () => {
  it('still opens, and stats say the indexes failed and why', async () => {
    const { memory, clock } = await brokenMemory()
    const stats = await memory.inspect.stats()
    expect(stats.open?.restored).toBe('failed')
    expect(stats.memories).toBe(4)
    expect(stats.indexes).toEqual({
      state: 'failed',
      error: { name: 'TypeError', code: 'STORAGE', message: expect.stringContaining('join') },
      since: clock.now,
      lastTriedAt: clock.now,
      attempts: 1,
    })
  })

  it('serves get, list and count from the tables, and recall from the recency window', async () => {
    const { memory, bad } = await brokenMemory()
    expect((await memory.get(bad.id))?.text).toBe('The owner cycles to work')
    expect((await memory.list()).items).toHaveLength(4)
    expect(await memory.count()).toBe(4)
    const result = await memory.recall('metric units')
    expect(result.degraded).toBe('recency')
    expect(result.hits.map((h) => h.text)).toEqual(['The owner prefers metric units'])
    expect(result.hits[0]?.via).toBe('recent')
  })

  it('takes writes meanwhile, and the rebuild that succeeds later indexes them', async () => {
    const { memory, clock, repair } = await brokenMemory()
    const { id, status } = await memory.remember('The owner plays the cello on Sundays')
    expect(status).toBe('created')
    expect((await memory.recall('cello')).hits.map((h) => h.id)).toEqual([id])
    await repair()
    // Too soon for another try: still the recency window.
    expect((await memory.recall('cello')).degraded).toBe('recency')
    clock.tick(INDEX_RETRY_MS)
    await memory.remember('The owner’s bike is green')
    const stats = await memory.inspect.stats()
    expect(stats.indexes).toBeUndefined()
    expect(stats.keywordEntries).toBe(6)
    const result = await memory.recall('cello Sundays')
    expect(result.degraded).toBeUndefined()
    expect(result.hits[0]).toMatchObject({ id, via: expect.not.stringMatching('recent') })
    expect(await memory.inspect.verify()).toMatchObject({ ok: true })
  })

  it('keeps batches all or nothing, and a repeat a duplicate, while the indexes are unavailable', async () => {
    const { memory } = await brokenMemory()
    await expect(
      memory.rememberMany([{ text: 'The owner likes figs' }, { text: '   ' }]),
    ).rejects.toMatchObject({ code: 'EMPTY_TEXT' })
    expect(await memory.count()).toBe(4)
    const stored = await memory.rememberMany([
      { text: 'The owner likes figs' },
      { text: 'The owner likes dates' },
    ])
    expect(stored.map((s) => s.status)).toEqual(['created', 'created'])
    expect((await memory.remember(FACTS[0]!)).status).toBe('duplicate')
    expect(await memory.count()).toBe(6)
  })

  it('tries again from a recall once a retry is due, and records a retry that fails again', async () => {
    const { memory, clock, repair } = await brokenMemory()
    clock.tick(INDEX_RETRY_MS)
    await memory.recall('parking')
    await memory.catchUp() // waits for the retry queued before it
    expect((await memory.inspect.stats()).indexes).toMatchObject({
      attempts: 2,
      lastTriedAt: clock.now,
      since: clock.now - INDEX_RETRY_MS,
    })
    await memory.recall('parking')
    await memory.catchUp()
    expect((await memory.inspect.stats()).indexes?.attempts).toBe(2)
    await repair()
    clock.tick(INDEX_RETRY_MS)
    expect((await memory.recall('parking')).degraded).toBe('recency')
    await memory.catchUp()
    const result = await memory.recall('parking spot')
    expect(result.degraded).toBeUndefined()
    expect(result.hits[0]?.text).toBe('The parking spot is B12')
    expect((await memory.inspect.stats()).indexes).toBeUndefined()
  })
})
