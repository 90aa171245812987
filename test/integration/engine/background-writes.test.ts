import { afterEach, describe, expect, it, vi } from 'vitest'
import { COUNTER_FLUSH_MS } from '../../../src/core/options.ts'
import { QUIET_SNAPSHOT_MS } from '../../../src/engine/index/snapshot-timer.ts'
import { COUNTER_FLUSH_ROWS } from '../../../src/engine/recall/log.ts'
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

  it('stores a large burst of counters a chunk at a time, and a write waits for no more than one', async () => {
    const idb = freshIdb()
    const memory = await engine({ name: 'chunked-flush', ...idb })
    const n = COUNTER_FLUSH_ROWS * 3 + 5
    const texts = Array.from(
      { length: n },
      (_, i) => `Drawer ${i} of the workshop holds spare part ${i}`,
    )
    await memory.rememberMany(texts.map((text) => ({ text })))
    const db = new EngramDatabase('chunked-flush', idb)
    await db.open()
    const counted = () => db.memories.filter((m) => m.recallCount > 0).count()
    // Turns of the event loop (fake-indexeddb's own), with or without the engine's timers moving.
    const until = async (done: () => Promise<boolean>, moveTimers: boolean) => {
      for (let turn = 0; turn < 2000; turn++) {
        if (await done()) return
        if (moveTimers) await vi.advanceTimersByTimeAsync(COUNTER_FLUSH_MS)
        await new Promise((resolve) => setImmediate(resolve))
      }
      throw new Error('the flush never got there')
    }
    try {
      vi.useFakeTimers({ toFake: [...ENGINE_TIMERS.toFake] })
      const { hits } = await memory.recall('workshop drawer spare part', {
        mode: 'keyword',
        k: 100,
      })
      const recalled = hits.length
      expect(recalled).toBeGreaterThan(COUNTER_FLUSH_ROWS)
      // The recall's own activity, then the quiet spell: the flush starts (as in the test above).
      await vi.advanceTimersByTimeAsync(COUNTER_FLUSH_MS)
      await vi.advanceTimersByTimeAsync(COUNTER_FLUSH_MS)
      // The first chunk lands by itself; the next waits for a quiet spell of its own.
      await until(async () => (await counted()) > 0, false)
      expect(await counted()).toBe(COUNTER_FLUSH_ROWS)
      const written = await memory.remember('The shed key hangs behind the workshop door')
      expect(written.status).toBe('created')
      expect(await counted()).toBe(COUNTER_FLUSH_ROWS)
      // Then the rest, a chunk a quiet spell, each moving the counter mark.
      await until(async () => (await counted()) === recalled, true)
      const { counters } = await snapshotRows('chunked-flush', idb)
      expect(counters?.seq).toBe(Math.ceil(recalled / COUNTER_FLUSH_ROWS))
      const stored = await db.memories.toArray()
      expect(stored.filter((m) => m.recallCount === 1)).toHaveLength(recalled)
    } finally {
      db.close()
      // A flush left waiting on a quiet spell (a failure above) ends once the engine closes.
      const closing = memory.close()
      await vi.advanceTimersByTimeAsync(COUNTER_FLUSH_MS)
      await closing
    }
  })
})
