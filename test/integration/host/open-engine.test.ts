/**
 * The hosts' opener: the automatic review is on unless the caller says `autoReview: false`,
 * and it runs at most once a day per database (the injected clock moves the day on).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../src/core/options.ts'
import { type OpenedEngine, openEngine } from '../../../src/host/open-engine.ts'
import type { WorkerOpenOptions } from '../../../src/host/protocol.ts'
import { EngramDatabase } from '../../../src/storage/index.ts'
import { eventually } from '../../helpers/eventually.ts'

const opened: OpenedEngine[] = []
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.engine.close()
    o.dispose()
  }
})

let now = Date.UTC(2026, 0, 1)
const indexedDB = new IDBFactory()
let counter = 0

async function open(options: Partial<WorkerOpenOptions> = {}): Promise<OpenedEngine> {
  const result = await openEngine(
    { name: `host-${++counter}`, embedder: { kind: 'none' }, tabSync: false, ...options },
    undefined,
    { indexedDB, IDBKeyRange, clock: () => now },
  )
  opened.push(result)
  return result
}

describe('openEngine', () => {
  it('turns the automatic review on by default: one review a day', async () => {
    const { engine } = await open()
    await engine.remember('The parking spot is B12', { tier: 'working' })
    expect(await engine.reviewIfDue()).toBe(true)
    expect(await engine.reviewIfDue()).toBe(false)
    now += DAY_MS - 1
    expect(await engine.reviewIfDue()).toBe(false)
    now += 1
    expect(await engine.reviewIfDue()).toBe(true)
  })

  it('leaves the review off for autoReview: false, and review() still runs on request', async () => {
    const { engine } = await open({ autoReview: false })
    await engine.remember('The owner prefers metric units')
    expect(await engine.reviewIfDue()).toBe(false)
    expect(await engine.review()).toMatchObject({ scanned: 1 })
  })

  it('starts the review by itself once writes have been quiet for the given idleMs', async () => {
    const { engine } = await open({ autoReview: { idleMs: 20 } })
    await engine.remember('The owner prefers metric units')
    // A second connection only reads the review's record: nothing here runs a review itself.
    const db = new EngramDatabase(engine.name, { indexedDB, IDBKeyRange })
    try {
      await eventually(async () => Boolean(await db.meta.get('review:done')), 'a review ran')
      expect(await db.meta.get('review:done')).toMatchObject({ value: { completedAt: now } })
    } finally {
      db.close()
    }
    expect(await engine.reviewIfDue()).toBe(false)
  })
})
