import { afterEach, describe, expect, it, vi } from 'vitest'
import { COUNTER_FLUSH_MS } from '../../../src/core/options.ts'
import { QUIET_SNAPSHOT_MS } from '../../../src/engine/index/snapshot-timer.ts'
import { EngramDatabase } from '../../../src/storage/index.ts'
import { closingEngines, freshIdb } from '../../helpers/engine.ts'

const engine = closingEngines()

const FACTS = [
  'Deploys go out through scripts/ship.sh after the smoke tests pass',
  'The owner prefers metric units',
  'Ticket FH-2291 tracks the flaky upload test',
]

afterEach(() => {
  vi.useRealTimers()
})

/** The snapshot and counter-mark rows as another connection sees them. */
async function snapshotRows(name: string, idb: ReturnType<typeof freshIdb>) {
  const db = new EngramDatabase(name, idb)
  await db.open()
  try {
    const [indexes, counters] = await db.snapshots.bulkGet(['indexes', 'recall-counters'])
    return { indexes, counters }
  } finally {
    db.close()
  }
}

// Only the engine's own timers are faked: fake-indexeddb schedules its work with setImmediate.
const ENGINE_TIMERS = { toFake: ['setTimeout', 'clearTimeout'] as const }

describe('background writes stay off the answer path', () => {
  it('a due snapshot waits while recalls keep coming, and is saved once they stop', async () => {
    const idb = freshIdb()
    const memory = await engine({ name: 'quiet-snapshot', ...idb, snapshotEvery: 1 })
    vi.useFakeTimers({ toFake: [...ENGINE_TIMERS.toFake] })
    await memory.rememberMany(FACTS.map((text) => ({ text })))
    for (let i = 0; i < 3; i++) {
      await memory.recall('metric units', { log: false })
      await vi.advanceTimersByTimeAsync(QUIET_SNAPSHOT_MS)
      await memory.catchUp() // anything the timer queued has run
      expect((await snapshotRows('quiet-snapshot', idb)).indexes).toBeUndefined()
    }
    await vi.advanceTimersByTimeAsync(QUIET_SNAPSHOT_MS)
    await memory.catchUp()
    const { indexes } = await snapshotRows('quiet-snapshot', idb)
    expect(indexes?.count).toBe(FACTS.length)
  })

  it('counts a burst of recalls in one flush once the burst ends', async () => {
    const idb = freshIdb()
    const memory = await engine({ name: 'one-flush', ...idb })
    const [, target] = await memory.rememberMany(FACTS.map((text) => ({ text })))
    vi.useFakeTimers({ toFake: [...ENGINE_TIMERS.toFake] })
    for (let i = 0; i < 10; i++) await memory.recall('metric units', { mode: 'keyword' })
    await vi.advanceTimersByTimeAsync(COUNTER_FLUSH_MS)
    expect((await snapshotRows('one-flush', idb)).counters).toBeUndefined()
    await vi.advanceTimersByTimeAsync(COUNTER_FLUSH_MS)
    await memory.inspect.recallLog() // the flush has landed
    const { counters } = await snapshotRows('one-flush', idb)
    expect(counters?.seq).toBe(1)
    expect((await memory.get(target!.id))?.recallCount).toBe(10)
    expect(await memory.inspect.recallLog({ limit: 20 })).toHaveLength(10)
  })
})
