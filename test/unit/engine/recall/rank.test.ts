import { describe, expect, it } from 'vitest'
import { DAY_MS, DEFAULT_BOOSTS } from '../../../../src/core/options.ts'
import { rankCandidates } from '../../../../src/engine/recall/rank.ts'
import { row } from '../fixtures.ts'

const now = 100 * DAY_MS
const candidate = (id: string, fused: number) => ({ id, fused, lists: {}, fusionRanks: {} })

describe('rankCandidates', () => {
  it('multiplies in the boosts and re-sorts', () => {
    const catalogue = new Map([
      ['old', row('old', 'old', { confirmedAt: 0 })],
      ['fresh', row('fresh', 'fresh', { confirmedAt: now - DAY_MS })],
    ])
    const ranked = rankCandidates(
      [candidate('old', 1), candidate('fresh', 0.9)],
      catalogue,
      DEFAULT_BOOSTS,
      now,
    )
    expect(ranked.map((r) => r.memory.id)).toEqual(['fresh', 'old'])
    expect(ranked[0]!.boosts).toEqual([{ name: 'recency', factor: 1.2 }])
    expect(ranked[0]!.score).toBeCloseTo(1.08)
    expect(ranked[1]).toMatchObject({ score: 1, boosts: [] })
  })

  it('keeps fusion’s order without boosts, and drops a candidate whose row is gone', () => {
    const catalogue = new Map([
      ['a', row('a', 'a', { confirmedAt: now })],
      ['b', row('b', 'b', { confirmedAt: now })],
    ])
    const fused = [candidate('a', 1), candidate('gone', 1), candidate('b', 1)]
    const ranked = rankCandidates(fused, catalogue, null, now)
    expect(ranked.map((r) => [r.memory.id, r.score, r.boosts])).toEqual([
      ['a', 1, []],
      ['b', 1, []],
    ])
  })

  it('boosts a memory naming a time for a "when" question, and reads a changed text again', () => {
    const catalogue = new Map([
      ['moved', row('moved', 'We moved to Porto last May', { confirmedAt: now })],
      ['plain', row('plain', 'We moved to Porto', { confirmedAt: now })],
    ])
    const when = { windows: [], factor: 1.3, when: true }
    const rank = () =>
      rankCandidates(
        [candidate('plain', 1), candidate('moved', 0.9)],
        catalogue,
        null,
        now,
        undefined,
        when,
      )
    const first = rank()
    expect(first.map((r) => r.memory.id)).toEqual(['moved', 'plain'])
    expect(first[0]!.boosts.map((b) => b.name)).toEqual(['time'])
    // The answer kept for 'moved' was for its old text: an edit that drops the time drops the boost.
    catalogue.set('moved', row('moved', 'We moved to Porto with Ana', { confirmedAt: now }))
    catalogue.set('plain', row('plain', 'We moved to Porto in 2019', { confirmedAt: now }))
    const second = rank()
    expect(second.map((r) => r.memory.id)).toEqual(['plain', 'moved'])
    expect(second[1]!.boosts).toEqual([])
    expect(second[0]!.boosts.map((b) => b.name)).toEqual(['time'])
  })
})
