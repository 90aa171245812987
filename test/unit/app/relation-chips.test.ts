import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHIP_TEXT_MAX, relationChips, truncate } from '../../../src/app/relation-chips.ts'
import type { RecallHit, Relation, RelationKind } from '../../../src/core/types.ts'

const edge = (from: string, to: string, kind: RelationKind): Relation => ({
  from,
  to,
  kind,
  createdAt: 0,
})
type Rank = { rank: number; via: RecallHit['via'] }

describe('truncate', () => {
  it('leaves a short text as it is', () => {
    expect(truncate('The office is in Porto')).toBe('The office is in Porto')
  })

  it('cuts a long text to the limit, ending with an ellipsis', () => {
    const cut = truncate('x'.repeat(100))
    expect([...cut]).toHaveLength(CHIP_TEXT_MAX)
    expect(cut.endsWith('…')).toBe(true)
  })

  it('never splits a surrogate pair and never exceeds the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.integer({ min: 2, max: 60 }),
        (text, max) => {
          const cut = truncate(text, max)
          expect(cut.isWellFormed()).toBe(true)
          if ([...text].length <= max) expect(cut).toBe(text)
          else expect([...cut].length).toBeLessThanOrEqual(max)
        },
      ),
    )
  })
})

describe('relationChips', () => {
  const texts = new Map([
    ['A', 'The office is in Lisbon'],
    ['B', 'The office is in Porto'],
    ['C', 'Parking is behind the office'],
  ])

  it('reads each edge from the hit side, naming the other memory by its text', () => {
    const ranks = new Map<string, Rank>([['A', { rank: 1, via: 'kw' }]])
    const chips = relationChips(
      { id: 'A', rank: 1, via: 'kw' },
      [edge('B', 'A', 'supersedes'), edge('A', 'C', 'depends_on')],
      texts,
      ranks,
    )
    expect(chips.map((c) => [c.words, c.otherId, c.label])).toEqual([
      ['superseded by', 'B', 'The office is in Porto'],
      ['depends on', 'C', 'Parking is behind the office'],
    ])
    expect(chips.every((c) => !c.contradiction && c.pulledFrom === undefined)).toBe(true)
  })

  it('marks a contradiction at either end', () => {
    const ranks = new Map<string, Rank>()
    const fromSide = relationChips(
      { id: 'A', rank: 1, via: 'kw' },
      [edge('A', 'B', 'contradicts')],
      texts,
      ranks,
    )
    const toSide = relationChips(
      { id: 'B', rank: 2, via: 'kw' },
      [edge('A', 'B', 'contradicts')],
      texts,
      ranks,
    )
    expect(fromSide[0]).toMatchObject({ contradiction: true, words: 'contradicts', otherId: 'B' })
    expect(toSide[0]).toMatchObject({ contradiction: true, words: 'contradicts', otherId: 'A' })
  })

  it('names a memory it could not read by its id', () => {
    const [chip] = relationChips(
      { id: 'A', rank: 1, via: 'kw' },
      [edge('A', 'Z', 'related_to')],
      texts,
      new Map(),
    )
    expect(chip).toMatchObject({ label: 'Z', title: 'Z' })
  })

  it('marks on a hit pulled in by expand the edge to the best-ranked earlier hit', () => {
    const ranks = new Map<string, Rank>([
      ['A', { rank: 1, via: 'kw' }],
      ['B', { rank: 2, via: 'both' }],
      ['C', { rank: 3, via: 'rel' }],
    ])
    const chips = relationChips(
      { id: 'C', rank: 3, via: 'rel' },
      [edge('B', 'C', 'related_to'), edge('C', 'A', 'depends_on')],
      texts,
      ranks,
    )
    expect(chips.map((c) => [c.otherId, c.pulledFrom])).toEqual([
      ['B', undefined],
      ['A', 1],
    ])
  })

  it('marks nothing on a pulled-in hit whose edges lead only to other pulled-in hits', () => {
    const ranks = new Map<string, Rank>([
      ['A', { rank: 2, via: 'rel' }],
      ['C', { rank: 3, via: 'rel' }],
    ])
    const chips = relationChips(
      { id: 'C', rank: 3, via: 'rel' },
      [edge('C', 'A', 'related_to')],
      texts,
      ranks,
    )
    expect(chips[0]?.pulledFrom).toBeUndefined()
  })

  it('leaves out edges that do not touch the hit', () => {
    expect(
      relationChips(
        { id: 'A', rank: 1, via: 'kw' },
        [edge('B', 'C', 'related_to')],
        texts,
        new Map(),
      ),
    ).toEqual([])
  })
})
