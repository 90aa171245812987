import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { IDLE_SNAPSHOT_MS } from '../../../../src/core/options.ts'
import type { MemoryEvent } from '../../../../src/core/types.ts'
import { ConnectionState } from '../../../../src/engine/connection-state.ts'
import { optionsHash } from '../../../../src/engine/index/snapshot.ts'
import { IndexUpkeep } from '../../../../src/engine/index/upkeep.ts'
import { WriteQueue } from '../../../../src/engine/write/queue.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'

function upkeep() {
  const events: MemoryEvent[] = []
  const tracked: Promise<unknown>[] = []
  const host = {
    db: new EngramDatabase('index-upkeep', { indexedDB: new IDBFactory(), IDBKeyRange }),
    embedder: undefined,
    keywordOptions: {},
    optionsHash: optionsHash({}),
    clock: () => 0,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    connection: new ConnectionState(),
    queue: new WriteQueue(),
    readyDims: () => 0,
    emit: (event: MemoryEvent) => events.push(event),
    track: (promise: Promise<unknown>) => tracked.push(promise),
  }
  return { upkeep: new IndexUpkeep(host), events, tracked, db: host.db }
}

describe('IndexUpkeep.recordWrites', () => {
  // The 100k import of issue 11 failed with "Maximum call stack size exceeded": the seqs of one
  // batch were spread into Math.min/Math.max, and a call has room for only so many arguments.
  it('takes a batch of more seqs than a call has room for arguments', () => {
    const { upkeep: s, events } = upkeep()
    const seqs = Array.from({ length: 300_000 }, (_, i) => i + 1)
    expect(() => Math.max(...seqs)).toThrow(RangeError) // the mechanism, at this length
    s.recordWrites(seqs)
    expect(s.lastSeq).toBe(300_000)
    expect(events).toEqual([{ type: 'change', seq: 300_000 }])
    s.cancelIdleSnapshot()
  })
})

describe('IndexUpkeep.noteCountersFlushed', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  // Issue 25: a flush of the recall counters scheduled no snapshot, so a tab killed after recalls
  // left a saved catalogue behind the counter mark, and the next open read every row.
  it('schedules the idle snapshot, which saves the catalogue as of the new counter mark', async () => {
    const { upkeep: s, tracked, db } = upkeep()
    await s.restore(undefined)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    s.noteCountersFlushed(0, 1)
    vi.advanceTimersByTime(IDLE_SNAPSHOT_MS)
    vi.useRealTimers()
    expect(tracked).toHaveLength(1)
    await Promise.all(tracked)
    const manifest = (await db.snapshots.get('indexes'))?.data as { counters: number } | undefined
    expect(manifest?.counters).toBe(1)
  })

  it('schedules it at most once a minute, and not when another tab moved the mark', async () => {
    const { upkeep: s, tracked } = upkeep()
    await s.restore(undefined)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    s.noteCountersFlushed(0, 1)
    vi.advanceTimersByTime(IDLE_SNAPSHOT_MS)
    vi.useRealTimers()
    await Promise.all(tracked)
    expect(tracked).toHaveLength(1)
    // Just saved: the next flush waits for the close or the next change instead.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    s.noteCountersFlushed(1, 2)
    vi.advanceTimersByTime(IDLE_SNAPSHOT_MS)
    vi.useRealTimers()
    expect(tracked).toHaveLength(1)

    const other = upkeep()
    await other.upkeep.restore(undefined)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    other.upkeep.noteCountersFlushed(5, 6)
    vi.advanceTimersByTime(IDLE_SNAPSHOT_MS)
    vi.useRealTimers()
    expect(other.tracked).toHaveLength(0)
  })
})
