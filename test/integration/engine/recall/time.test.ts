/**
 * Issue 26 §3: time words in a query boost memories in the window they name, explained; hard
 * `since`/`until` filters only when asked.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import { closingEngines, manualClock } from '../../../helpers/engine.ts'

const engine = closingEngines()
const DAY = 86_400_000
const NOW = Date.UTC(2024, 2, 14, 12) // Thursday 14 March 2024

/** Three dinners with Ana, the same words, in three months; and one undated note. */
async function dinners() {
  const clock = manualClock(NOW)
  const e = await engine({ clock: clock.read })
  const [april, may, june] = await e.rememberMany([
    { text: 'Dinner with Ana at the Thai place', happenedAt: Date.UTC(2023, 3, 20) },
    { text: 'Dinner with Ana at the harbour restaurant', happenedAt: Date.UTC(2023, 4, 14) },
    { text: 'Dinner with Ana at the pizza bar', happenedAt: Date.UTC(2023, 5, 2) },
  ])
  const stay = await e.remember('Ana stayed at our flat', {
    happenedAt: Date.UTC(2023, 3, 28),
    happenedUntil: Date.UTC(2023, 4, 3),
  })
  return { e, clock, april: april!.id, may: may!.id, june: june!.id, stay: stay.id }
}

const recall = (e: Awaited<ReturnType<typeof dinners>>['e'], q: string, o = {}) =>
  e.recall(q, { mode: 'keyword', log: false, k: 10, ...o })

describe('time in recall', () => {
  it('boosts the memory that happened in the month the query names, and says so', async () => {
    const { e, may, stay } = await dinners()
    const { hits } = await recall(e, 'dinner with Ana in May 2023')
    expect(hits[0]!.id).toBe(may)
    const boost = hits[0]!.boosts.find((b) => b.name === 'time')
    expect(boost).toEqual({
      name: 'time',
      factor: 1.3,
      detail: 'in window 2023-05-01..2023-05-31 ×1.3',
    })
    expect(hits[0]!.explanation).toContain('time in window 2023-05-01..2023-05-31 x1.3')
    // Nothing is dropped: the other dinners still come, unboosted (the stay overlaps May).
    expect(hits.map((h) => h.id)).toHaveLength(4)
    const dated = hits.filter((h) => h.boosts.some((b) => b.name === 'time')).map((h) => h.id)
    expect(dated.sort()).toEqual([may, stay].sort())
  })

  it('matches an interval that overlaps the window', async () => {
    const { e, stay } = await dinners()
    const { hits } = await recall(e, 'Ana in May 2023')
    expect(hits.find((h) => h.id === stay)!.boosts.map((b) => b.name)).toContain('time')
  })

  it('keeps the time words as keywords, and boosts only what happened in the window', async () => {
    const { e, april, may, june } = await dinners()
    const note = await e.remember('Dinner with Ana, May 2023 menu planned', {
      happenedAt: Date.UTC(2023, 0, 9),
    })
    const { hits } = await recall(e, 'May 2023 dinner')
    // The note says "May 2023" and is found by those words; of the dinners that say neither,
    // the one that happened in May ranks first.
    const ids = hits.map((h) => h.id)
    expect(ids).toContain(note.id)
    expect(ids.indexOf(may)).toBeLessThan(ids.indexOf(april))
    expect(ids.indexOf(may)).toBeLessThan(ids.indexOf(june))
    expect(hits.find((h) => h.id === note.id)!.boosts.map((b) => b.name)).not.toContain('time')
    const words = await recall(e, 'May 2023 dinner', { time: false })
    expect(words.hits.every((h) => h.boosts.every((b) => b.name !== 'time'))).toBe(true)
  })

  it('reads relative words against the engine clock and a memory without happenedAt by createdAt', async () => {
    const { e, clock } = await dinners()
    clock.now = NOW - 8 * DAY // Wednesday of the week before
    const old = await e.remember('Dinner with Ana, sushi')
    clock.now = NOW
    const { hits } = await recall(e, 'dinner with Ana last week')
    expect(hits[0]!.id).toBe(old.id)
    expect(hits[0]!.boosts.find((b) => b.name === 'time')!.detail).toBe(
      'in window 2024-03-04..2024-03-10 ×1.3',
    )
  })

  it("tunes the factor, and reads the words in the caller's calendar with offsetMinutes", async () => {
    const { e } = await dinners()
    const late = await e.remember('Dinner with Ana, dumplings', {
      happenedAt: Date.UTC(2024, 2, 14, 6),
    })
    const timeOf = async (o: object) =>
      (await recall(e, 'dinner with Ana yesterday', o)).hits
        .find((h) => h.id === late.id)!
        .boosts.find((b) => b.name === 'time')
    // 06:00 UTC on 14 March is today in UTC, and yesterday twelve hours east (local midnight).
    expect(await timeOf({})).toBeUndefined()
    expect(await timeOf({ time: { offsetMinutes: 720 } })).toEqual({
      name: 'time',
      factor: 1.3,
      detail: 'in window 2024-03-14..2024-03-14 ×1.3',
    })
    expect((await timeOf({ time: { offsetMinutes: 720, factor: 2 } }))!.factor).toBe(2)
    await expect(recall(e, 'x', { time: { offsetMinutes: 900 } })).rejects.toMatchObject({
      field: 'time.offsetMinutes',
    })
    await expect(recall(e, 'x', { time: { offsetMinutes: 1.5 } })).rejects.toMatchObject({
      field: 'time.offsetMinutes',
    })
  })

  it('answers a query that is only a time from the window, newest first, in either mode', async () => {
    const { e, clock } = await dinners()
    clock.now = NOW - 9 * DAY
    const brakes = await e.remember('Fixed the bike brakes')
    await e.remember('Bought a kettle', { happenedAt: NOW - 7 * DAY })
    await e.remember('Fed the fish', { happenedAt: NOW - 7 * DAY, tags: ['pets'] })
    clock.now = NOW
    for (const mode of ['keyword', 'hybrid'] as const) {
      const { hits } = await e.recall('what did I do last week?', { mode, log: false, k: 2 })
      expect(hits.map((h) => h.text)).toEqual(['Fed the fish', 'Bought a kettle'])
      expect(hits[0]!.explanation).toBe(
        'recent: in window 2024-03-04..2024-03-10, newest first -> #1',
      )
    }
    // Stored nine days ago without a date of its own: in last week by its createdAt.
    const all = await e.recall('what did I do last week?', { log: false })
    expect(all.hits.map((h) => h.id)).toContain(brakes.id)
    const scoped = await e.recall('what did I do last week', { log: false, tags: ['pets'] })
    expect(scoped.hits.map((h) => h.text)).toEqual(['Fed the fish'])
    // With time words off it is a query of stop words again, and nothing matches.
    expect((await e.recall('what did I do last week?', { log: false, time: false })).hits).toEqual(
      [],
    )
  })

  it('favours, for a "when" question, the memory whose text names a time, and says so', async () => {
    const { e } = await dinners()
    const plain = await e.remember('Ana moved to Porto with her sister')
    const dated = await e.remember('Ana moved to Porto last spring')
    const { hits } = await recall(e, 'When did Ana move to Porto?')
    expect(hits[0]!.id).toBe(dated.id)
    expect(hits[0]!.boosts).toContainEqual({
      name: 'time',
      factor: 1.3,
      detail: 'for "when": names a time ×1.3',
    })
    expect(hits.find((h) => h.id === plain.id)!.boosts.map((b) => b.name)).not.toContain('time')
    // Not a "when" question, or time off: no such boost.
    const what = await recall(e, 'Did Ana move to Porto?')
    expect(what.hits.every((h) => h.boosts.every((b) => b.name !== 'time'))).toBe(true)
    const off = await recall(e, 'When did Ana move to Porto?', { time: false })
    expect(off.hits.every((h) => h.boosts.every((b) => b.name !== 'time'))).toBe(true)
  })

  it('filters hard by since and until, as ms or ISO strings, only when asked', async () => {
    const { e, may, june, stay } = await dinners()
    const ids = async (o: object) => (await recall(e, 'Ana', o)).hits.map((h) => h.id).sort()
    expect(await ids({ since: '2023-05-01', until: '2023-06-01' })).toEqual([may, stay].sort())
    expect(await ids({ since: Date.UTC(2023, 5, 1) })).toEqual([june])
    expect(await ids({ until: '2023-04-20T00:00:01Z' })).toHaveLength(1)
    expect(await ids({})).toHaveLength(4)
  })

  it('refuses a bad since or until, or since not before until', async () => {
    const { e } = await dinners()
    for (const o of [{ since: 'last May' }, { until: Number.NaN }, { since: 5, until: 5 }]) {
      await expect(recall(e, 'Ana', o)).rejects.toBeInstanceOf(InvalidInputError)
    }
    await expect(recall(e, 'Ana', { time: 'yes' })).rejects.toMatchObject({ field: 'time' })
  })
})
