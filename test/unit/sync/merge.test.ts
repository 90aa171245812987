import { describe, expect, it } from 'vitest'
import { foldInto, mergePayloads, resolveLeaves } from '../../../src/sync/merge.ts'
import { type MemoryPayload, sum, toPayload, toRow } from '../../../src/sync/payload.ts'
import { hashSeed, TEST_SEED, uniform } from '../../helpers/random.ts'

function payload(
  overrides: Partial<MemoryPayload['row']>,
  counts: Record<string, number> = { d1: 1 },
): MemoryPayload {
  return {
    t: 'memory',
    origin: '01J0000000000000000000000A',
    counts: { confirmations: counts, recallCount: {} },
    vv: {},
    prev: [],
    at: {},
    row: {
      namespace: 'default',
      type: 'fact',
      text: 'The release train leaves on Thursdays',
      key: 'the release train leaves on thursdays',
      tags: [],
      aliases: [],
      source: 'agent',
      trust: 'unverified',
      confidence: 0.6,
      tier: 'semantic',
      flags: [],
      createdAt: 100,
      updatedAt: 100,
      confirmedAt: 100,
      ...overrides,
    },
  }
}

describe('mergePayloads', () => {
  it('takes the fields of the latest update, the earliest creation and the latest confirmation', () => {
    const early = payload({ source: 'a', createdAt: 50, updatedAt: 200, confirmedAt: 400 })
    const late = payload({ source: 'b', createdAt: 90, updatedAt: 300, confirmedAt: 300 })
    const { payload: merged } = mergePayloads([early, late])
    expect(merged.row.source).toBe('b')
    expect(merged.row.createdAt).toBe(50)
    expect(merged.row.updatedAt).toBe(300)
    expect(merged.row.confirmedAt).toBe(400)
  })

  it('unions tags and counts each contributor once, by its greatest count', () => {
    const a = payload({ tags: ['x', 'a'] }, { d1: 2 })
    const b = payload({ tags: ['x', 'b'] }, { d1: 1, d2: 1 })
    const { payload: merged } = mergePayloads([a, b])
    expect([...merged.row.tags].sort()).toEqual(['a', 'b', 'x'])
    expect(merged.counts.confirmations).toEqual({ d1: 2, d2: 1 })
    expect(sum(merged.counts.confirmations)).toBe(3)
  })

  it('gives the same result whatever order the versions come in', () => {
    const next = uniform(hashSeed(`merge-${TEST_SEED}`))
    const versions = Array.from({ length: 5 }, (_, i) =>
      payload(
        {
          source: `s${i}`,
          tags: [`t${Math.floor(next() * 4)}`],
          updatedAt: Math.floor(next() * 3) * 100,
          createdAt: Math.floor(next() * 1000),
          confirmedAt: Math.floor(next() * 1000),
        },
        { [`d${Math.floor(next() * 3)}`]: 1 + Math.floor(next() * 5) },
      ),
    )
    const reference = mergePayloads(versions)
    for (let trial = 0; trial < 20; trial++) {
      const shuffled = [...versions].sort(() => next() - 0.5)
      expect(mergePayloads(shuffled)).toEqual(reference)
    }
  })
})

describe('mergePayloads field by field', () => {
  it('keeps each field from the version that changed it last, meta key by key', () => {
    // A edited the meta at 200, B the confidence at 300: neither edit undoes the other.
    const a = payload({ meta: { a: 1 }, updatedAt: 200 })
    a.at = { 'meta.a': 200 }
    const b = payload({ confidence: 0.3, meta: { b: 2 }, updatedAt: 300 })
    b.at = { confidence: 300, 'meta.b': 300 }
    const { payload: merged, fields } = mergePayloads([a, b])
    expect(merged.row.confidence).toBe(0.3)
    expect(merged.row.meta).toEqual({ a: 1, b: 2 })
    expect(fields).toEqual(['confidence', 'meta.a', 'meta.b'])
    expect(mergePayloads([b, a]).payload).toEqual(merged)
  })

  it('takes the later text with its key, and returns the earlier one to keep', () => {
    const a = payload({ text: 'The door code is 4472', key: 'the door code is 4472' })
    a.at = { text: 200 }
    const b = payload({ text: 'The door code is 5580', key: 'the door code is 5580', tags: ['x'] })
    b.at = { text: 300, tags: 250 }
    const { payload: merged, kept } = mergePayloads([a, b])
    expect([merged.row.text, merged.row.key]).toEqual([
      'The door code is 5580',
      'the door code is 5580',
    ])
    expect(merged.row.tags).toEqual(['x'])
    expect(kept.map((k) => k.row.text)).toEqual(['The door code is 4472'])
  })
})

describe('resolveLeaves', () => {
  it('leaves out a version another leaf has seen, so a replayed body cannot win', () => {
    const old = payload({ source: 'old', updatedAt: 900 })
    old.vv = { d1: 1 }
    const current = payload({ source: 'current', updatedAt: 100 })
    current.vv = { d1: 2 }
    const resolution = resolveLeaves(
      [
        { rev: '3-a', deleted: false, payload: old, iv: 'a' },
        { rev: '2-b', deleted: false, payload: current, iv: 'b' },
      ],
      '3-a',
    )
    expect(resolution.outcome).toBe('live')
    if (resolution.outcome === 'live') expect(resolution.payload.row.source).toBe('current')
  })

  it('forgets a memory when the forget is at least as recent as every live version', () => {
    const live = payload({ updatedAt: 100 })
    const resolution = resolveLeaves(
      [
        { rev: '2-a', deleted: false, payload: live, iv: 'a' },
        { rev: '2-b', deleted: true, at: 150, vv: {}, iv: 'b' },
      ],
      '2-a',
    )
    expect(resolution).toMatchObject({ outcome: 'forgotten', at: 150, losers: ['2-a'] })
  })

  it('keeps a memory written again after it was forgotten, deleting the other live versions', () => {
    const resolution = resolveLeaves(
      [
        { rev: '4-a', deleted: false, payload: payload({ updatedAt: 300 }), iv: 'a' },
        { rev: '3-c', deleted: false, payload: payload({ updatedAt: 250 }), iv: 'c' },
        { rev: '2-b', deleted: true, at: 200, vv: {}, iv: 'b' },
      ],
      '4-a',
    )
    expect(resolution.outcome).toBe('live')
    expect(resolution.losers).toEqual(['3-c'])
  })
})

describe('payload counters', () => {
  it('credits this device with what its row gained over the version it last saw', () => {
    const seen = payload({}, { d1: 2, d2: 1 })
    const row = { ...toRow(seen, 'local'), confirmations: 5 }
    expect(toPayload(row, 'd2', seen).counts.confirmations).toEqual({ d1: 2, d2: 3 })
  })

  it('counts a folded near duplicate once however many devices fold it', () => {
    const winner = payload({}, { d1: 1 })
    const loser = payload({ text: 'other', key: 'other' }, { d2: 2 })
    const once = foldInto(winner, 'm:loser', loser)
    const twice = foldInto(once, 'm:loser', loser)
    expect(sum(twice.counts.confirmations)).toBe(3)
    expect(twice).toEqual(once)
  })
})
