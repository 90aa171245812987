import type { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../../src/core/options.ts'
import { closingEngines, freshIdb } from '../../../helpers/engine.ts'
import { eventually } from '../../../helpers/eventually.ts'

const engine = closingEngines()

describe('the automatic review', () => {
  it('runs in one of two tabs, once a day', async () => {
    let now = Date.UTC(2026, 0, 1)
    const shared = { name: 'two-tabs-review', ...freshIdb(), clock: () => now }
    // Long quiet time: the test asks for the check itself.
    const a = await engine({ ...shared, autoReview: { idleMs: 3_600_000 } })
    const b = await engine({ ...shared, autoReview: { idleMs: 3_600_000 } })
    await a.remember('The parking spot is B12', { tier: 'working' })
    const ran = await Promise.all([a.reviewIfDue(), b.reviewIfDue()])
    expect(ran.filter(Boolean)).toHaveLength(1)
    expect(await Promise.all([a.reviewIfDue(), b.reviewIfDue()])).toEqual([false, false])
    now += DAY_MS
    expect(await b.reviewIfDue()).toBe(true)
    expect(await a.reviewIfDue()).toBe(false)
    expect((await a.get((await a.list()).items[0]!.id))?.archivedAt).toBe(now)
  })

  it('starts by itself once writes have been quiet', async () => {
    let db: Dexie | undefined
    const e = await engine({ autoReview: { idleMs: 20 }, onDatabase: (d) => (db = d) })
    await e.remember('The owner prefers metric units')
    await eventually(
      async () => Boolean(await db!.table('meta').get('review:done')),
      'a review ran',
    )
    expect(await db!.table('meta').get('review:done')).toMatchObject({
      value: { completedAt: expect.any(Number) },
    })
  })

  it('is off unless asked for', async () => {
    const e = await engine()
    expect(await e.reviewIfDue()).toBe(false)
    await expect(engine({ autoReview: { idleMs: 0 } })).rejects.toMatchObject({
      field: 'autoReview.idleMs',
    })
  })
})
