/**
 * Issue 26 §3 follow-ups: time and the lifecycle agree (a recall that names a time looks past the
 * TTL for what happened then; an `expiresAt` still holds), and `since`/`until` are per call only.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_LIFECYCLE } from '../../../../src/core/options.ts'
import { findTimeWindows } from '../../../../src/core/time/index.ts'
import { lifecycleFilter } from '../../../../src/engine/recall/lifecycle-filter.ts'
import { closingEngines, manualClock, openTestEngine } from '../../../helpers/engine.ts'
import { row } from '../../../unit/engine/fixtures.ts'

const engine = closingEngines()
const DAY = 86_400_000
const MAY_2023 = Date.UTC(2023, 4, 9, 18)
const NOW = Date.UTC(2024, 2, 14, 12) // ten months on: every tier but procedural has expired

/** Notes written in May 2023 and never used since, one with an `expiresAt` of its own. */
async function oldNotes() {
  const clock = manualClock(MAY_2023)
  const e = await engine({ clock: clock.read })
  const undated = await e.remember('Dinner with Ana at the Thai place', { type: 'fact' })
  const dated = await e.remember('Dinner with Ana at the pizza bar', {
    type: 'fact',
    happenedAt: Date.UTC(2023, 4, 20),
  })
  const due = await e.remember('Dinner with Ana at the ramen counter', {
    type: 'fact',
    expiresAt: Date.UTC(2023, 5, 1),
  })
  clock.now = NOW
  return { e, undated: undated.id, dated: dated.id, due: due.id }
}

const ids = async (e: Awaited<ReturnType<typeof oldNotes>>['e'], q: string, o = {}) =>
  (await e.recall(q, { mode: 'keyword', log: false, k: 10, ...o })).hits.map((h) => h.id).sort()

describe('time and the lifecycle', () => {
  it('hides memories past their TTL from a recall that names no time', async () => {
    const { e } = await oldNotes()
    expect(await ids(e, 'dinner with Ana')).toEqual([])
  })

  it('finds TTL-expired memories inside since/until, but not one whose own expiresAt passed', async () => {
    const { e, undated, dated, due } = await oldNotes()
    const window = { since: '2023-05-01', until: '2023-06-01' }
    expect(await ids(e, 'dinner with Ana', window)).toEqual([undated, dated].sort())
    expect(await ids(e, 'dinner with Ana', { ...window, includeExpired: true })).toEqual(
      [undated, dated, due].sort(),
    )
    // Outside the window the TTL still rules: a window of 2024 finds none of them.
    expect(await ids(e, 'dinner with Ana', { since: '2024-01-01' })).toEqual([])
  })

  it('keeps, for the query’s own time words, the TTL-expired memories in their window', () => {
    const notes = [
      row('01', 'Dinner with Ana at the Thai place', {
        createdAt: MAY_2023,
        confirmedAt: MAY_2023,
      }),
      row('02', 'Dinner with Ana at the pizza bar', {
        createdAt: MAY_2023,
        confirmedAt: MAY_2023,
        expiresAt: Date.UTC(2023, 5, 1),
      }),
      row('03', 'Dinner with Ana in the garden', {
        createdAt: Date.UTC(2023, 7, 2),
        confirmedAt: Date.UTC(2023, 7, 2),
      }),
    ]
    const catalogue = new Map(notes.map((m) => [m.id, m]))
    const keep = (o: Parameters<typeof lifecycleFilter>[1]) =>
      notes.map((m) => m.id).filter(lifecycleFilter(catalogue, o, NOW, DEFAULT_LIFECYCLE))
    expect(keep({})).toEqual([])
    expect(keep({ windows: findTimeWindows('dinner in May 2023', NOW) })).toEqual(['01'])
    expect(keep({ windows: findTimeWindows('dinner last summer', NOW) })).toEqual(['03'])
    expect(keep({ windows: [] })).toEqual([])
    expect(keep({ includeExpired: true })).toEqual(['01', '02', '03'])
  })

  it('finds a TTL-expired note for a query naming its month (scope gave the lifecycle filter no windows)', async () => {
    const { e, undated, dated } = await oldNotes()
    // "in May 2023" is the query's own window: the notes of that month come back, the one whose
    // own expiresAt passed does not, and without time words the TTL still hides them all.
    expect(await ids(e, 'dinner with Ana in May 2023')).toEqual([undated, dated].sort())
    expect(await ids(e, 'dinner with Ana in May 2023', { time: false })).toEqual([])
    expect(await ids(e, 'dinner with Ana in August 2023')).toEqual([])
  })

  it('keeps a memory in use whatever the window', async () => {
    const { e } = await oldNotes()
    const fresh = await e.remember('Dinner with Ana at the tapas bar', { type: 'fact' })
    expect(
      await ids(e, 'dinner with Ana', { since: '2023-05-01', until: '2023-06-01' }),
    ).not.toContain(fresh.id)
    expect(await ids(e, 'dinner with Ana')).toEqual([fresh.id])
  })
})

describe('since and until are per call only', () => {
  it('refuses them as engine-wide recallDefaults with BAD_OPTION naming the field', async () => {
    for (const [defaults, field] of [
      [{ since: '2024-01-01' }, 'recallDefaults.since'],
      [{ until: Date.UTC(2024, 0, 1) }, 'recallDefaults.until'],
      [{ k: 3, since: 0, until: 1 }, 'recallDefaults.since'],
    ] as const) {
      await expect(
        openTestEngine({ recallDefaults: defaults as Record<string, unknown> }),
      ).rejects.toMatchObject({ name: 'InvalidInputError', code: 'BAD_OPTION', field })
    }
  })

  it('still takes them per call next to engine-wide defaults', async () => {
    const clock = manualClock(NOW - 3 * DAY)
    const e = await engine({ clock: clock.read, recallDefaults: { k: 4, mode: 'keyword' } })
    const before = await e.remember('Standup moved to ten')
    clock.now = NOW
    const after = await e.remember('Standup moved to eleven')
    const since = NOW - DAY
    const { hits } = await e.recall('standup', { since, log: false })
    expect(hits.map((h) => h.id)).toEqual([after.id])
    expect((await e.recall('standup', { log: false })).hits.map((h) => h.id).sort()).toEqual(
      [before.id, after.id].sort(),
    )
  })
})
