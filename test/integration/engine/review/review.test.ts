import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../../../../src/core/options.ts'
import type { JudgeCase } from '../../../../src/core/types.ts'
import type { EngineOptions } from '../../../../src/engine/engine-options.ts'
import { closingEngines, freshIdb, manualClock, openTestEngine } from '../../../helpers/engine.ts'
import { eventually } from '../../../helpers/eventually.ts'
import { NEAR_A, NEAR_B } from '../../../unit/engine/fixtures.ts'

const engine = closingEngines()

/** Two near duplicates stored by an engine that did not dedup them (as a backfill race can). */
async function slippedPair(options: Partial<EngineOptions> = {}) {
  const db = { name: `review-${Math.random().toString(36).slice(2)}`, ...freshIdb() }
  const lax = await openTestEngine({ ...db, ...options, retrieval: { nearDuplicate: 0.9999 } })
  const a = await lax.remember(NEAR_A)
  const b = await lax.remember(NEAR_B)
  await lax.close()
  return { db, a: a.id, b: b.id }
}

describe('review', () => {
  it('archives an expired memory, then removes it after the grace period', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const note = await e.remember('The parking spot is B12', { tier: 'working' })
    const kept = await e.remember('The owner prefers metric units', { tier: 'procedural' })
    clock.tick(2 * DAY_MS)
    const first = await e.review()
    expect(first).toMatchObject({ scanned: 2, archived: [note.id], removed: [], resumed: false })
    expect((await e.get(note.id))?.archivedAt).toBe(clock.now)
    expect((await e.review()).archived).toEqual([])
    clock.tick(7 * DAY_MS)
    const second = await e.review()
    expect(second.removed).toEqual([note.id])
    expect(await e.get(note.id)).toBeUndefined()
    expect(await e.get(kept.id)).toBeDefined()
    expect((await e.inspect.verify()).ok).toBe(true)
  })

  it('flags memories whose confidence fell low, for list({ needsReview: true })', async () => {
    const clock = manualClock()
    const e = await engine({ clock: clock.read })
    const shaky = await e.remember('Maybe the meeting moved to Tuesday', {
      type: 'log',
      confidence: 'low',
    })
    const sure = await e.remember('The meeting room is 4B', { type: 'log', confidence: 'high' })
    clock.tick(10 * DAY_MS)
    expect((await e.review()).flagged).toEqual([shaky.id])
    expect((await e.list({ needsReview: true })).items.map((m) => m.id)).toEqual([shaky.id])
    expect((await e.list({ needsReview: false })).items.map((m) => m.id)).toEqual([sure.id])
  })

  it('merges near duplicates that slipped in, into the older one', async () => {
    const { db, a, b } = await slippedPair()
    const e = await engine(db)
    expect(await e.count()).toBe(2)
    const report = await e.review()
    expect(report.merged).toEqual([{ into: a, from: b, similarity: expect.any(Number) }])
    expect(report.merged[0]!.similarity).toBeGreaterThanOrEqual(0.97)
    expect(await e.get(b)).toBeUndefined()
    expect((await e.get(a))?.confirmations).toBe(2)
    expect((await e.inspect.verify()).ok).toBe(true)
  })

  it('promotes a working memory that keeps being recalled', async () => {
    const e = await engine()
    const note = await e.remember('The parking spot is B12', { tier: 'working' })
    for (let i = 1; i <= 3; i++) {
      await e.recall('parking spot', { log: false })
      await eventually(async () => (await e.get(note.id))?.recallCount === i, `recall ${i} counted`)
    }
    expect((await e.review()).promoted).toEqual([{ id: note.id, tier: 'episodic' }])
    expect((await e.get(note.id))?.tier).toBe('episodic')
  })

  it('lets a judge keep a duplicate apart, or call a related pair a contradiction', async () => {
    const { db, a, b } = await slippedPair()
    const e = await engine({ ...db, retrieval: { relatedFloor: 0.3 } })
    const seen: JudgeCase[][] = []
    const report = await e.review({
      judge: async (cases) => {
        seen.push(cases)
        return cases.map((c) => (c.kind === 'duplicate' ? 'contradicts' : 'keep'))
      },
    })
    expect(seen.flat().map((c) => [c.kind, c.older.id, c.newer.id])).toEqual([['duplicate', a, b]])
    expect(report).toMatchObject({ judge: 'applied', merged: [] })
    expect(report.related).toMatchObject([{ from: b, to: a, kind: 'contradicts' }])
    expect(await e.count()).toBe(2)
  })

  it('keeps the rules standing when the judge throws or times out', async () => {
    const broken = await slippedPair()
    const e = await engine(broken.db)
    const failed = await e.review({
      judge: () => {
        throw new Error('model offline')
      },
    })
    expect(failed).toMatchObject({ judge: 'failed', merged: [{ into: broken.a, from: broken.b }] })
    const slow = await slippedPair()
    const f = await engine(slow.db)
    const late = await f.review({ judge: () => new Promise(() => {}), judgeTimeoutMs: 20 })
    expect(late).toMatchObject({ judge: 'timeout', merged: [{ into: slow.a, from: slow.b }] })
  })

  it('resumes where a review cut short stopped', async () => {
    const db = { name: 'review-resume', ...freshIdb() }
    // The second progress mark fails, as if the tab closed in the middle of the second chunk.
    let metaWrites = 0
    const e = await engine({
      ...db,
      embedder: null,
      onDatabase: (d) =>
        d.use({
          stack: 'dbcore',
          name: 'cut',
          create: (down) => ({
            ...down,
            table: (name) => {
              const table = down.table(name)
              if (name !== 'meta') return table
              return {
                ...table,
                mutate: (req) =>
                  metaWrites++ === 1 ? Promise.reject(new Error('tab closed')) : table.mutate(req),
              }
            },
          }),
        }),
    })
    await e.rememberMany(Array.from({ length: 620 }, (_, i) => ({ text: `fact number ${i}` })))
    await expect(e.review()).rejects.toThrow('tab closed')
    const resumed = await e.review()
    expect(resumed).toMatchObject({ resumed: true, scanned: 120 })
    const fresh = await e.review()
    expect(fresh).toMatchObject({ resumed: false, scanned: 620 })
  })

  it('rejects options it does not know', async () => {
    const e = await engine()
    await expect(e.review({ judge: 'yes' as never })).rejects.toMatchObject({ field: 'judge' })
    await expect(e.review({ nightly: true } as never)).rejects.toMatchObject({
      code: 'BAD_OPTION',
    })
  })
})
