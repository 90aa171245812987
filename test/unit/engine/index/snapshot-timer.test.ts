import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  MAX_SNAPSHOT_DEFER_MS,
  SNAPSHOT_SHARE_OF_DEFER,
  SnapshotTimer,
} from '../../../../src/engine/index/snapshot-timer.ts'

/** A timer over a host that is always stale, counting saves. */
function timer() {
  let saves = 0
  const t = new SnapshotTimer({
    windingDown: () => false,
    stale: () => true,
    save: () => {
      saves++
    },
  })
  return { t, saves: () => saves }
}

describe('SnapshotTimer', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs a due snapshot anyway after the longest deferral, longer when the last one was slow', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const quick = timer()
    quick.t.markSaved(100)
    expect(quick.t.maxDeferMs).toBe(MAX_SNAPSHOT_DEFER_MS)
    quick.t.markDue()
    vi.advanceTimersByTime(MAX_SNAPSHOT_DEFER_MS)
    // Busy all along (every schedule is a write): the next one runs the save at once.
    quick.t.schedule()
    expect(quick.saves()).toBe(1)

    const slow = timer()
    slow.t.markSaved(10_000)
    expect(slow.t.maxDeferMs).toBe(10_000 / SNAPSHOT_SHARE_OF_DEFER)
    slow.t.markDue()
    vi.advanceTimersByTime(MAX_SNAPSHOT_DEFER_MS)
    slow.t.noteActivity()
    slow.t.schedule()
    expect(slow.saves()).toBe(0)
    // Still busy: the quiet spell it waits for never comes.
    slow.t.cancel()
    vi.advanceTimersByTime(10_000 / SNAPSHOT_SHARE_OF_DEFER - MAX_SNAPSHOT_DEFER_MS)
    slow.t.noteActivity()
    slow.t.schedule()
    expect(slow.saves()).toBe(1)
  })

  it('queues an overdue snapshot once while writes go on, and again only if it never lands', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const busy = timer()
    busy.t.markDue()
    vi.advanceTimersByTime(MAX_SNAPSHOT_DEFER_MS)
    // Every write schedules: the save queued by the first waits behind them.
    for (let write = 0; write < 20; write++) {
      busy.t.noteActivity()
      busy.t.schedule()
    }
    expect(busy.saves()).toBe(1)
    // It never landed (a failed save): another deferral later it is queued again.
    vi.advanceTimersByTime(MAX_SNAPSHOT_DEFER_MS)
    busy.t.schedule()
    expect(busy.saves()).toBe(2)
    // Once saved, a new due snapshot waits its own deferral before it is forced.
    busy.t.markSaved(100)
    busy.t.markDue()
    busy.t.noteActivity()
    busy.t.schedule()
    expect(busy.saves()).toBe(2)
    // Still busy: the quiet spell it waits for never comes.
    busy.t.cancel()
    vi.advanceTimersByTime(MAX_SNAPSHOT_DEFER_MS)
    busy.t.noteActivity()
    busy.t.schedule()
    expect(busy.saves()).toBe(3)
  })
})
