import { describe, expect, it } from 'vitest'
import { explainHits } from '../../../../src/engine/recall/explain.ts'
import type { Ranked } from '../../../../src/engine/recall/rank.ts'
import { row } from '../fixtures.ts'

const ranked: Ranked[] = [
  {
    candidate: {
      id: 'a',
      fused: 1.4,
      lists: { keyword: { rank: 1, score: 6.35 }, vector: { rank: 2, score: 0.21 } },
      fusionRanks: {},
    },
    memory: row('a', 'Deploys go out through scripts/ship.sh', { flags: ['override'] }),
    boosts: [{ name: 'recency', factor: 1.2 }],
    score: 1.68,
  },
  {
    candidate: { id: 'b', fused: 0.5, lists: { tag: { rank: 1, score: 1 } }, fusionRanks: {} },
    memory: row('b', 'Water the ficus'),
    boosts: [],
    score: 0.5,
  },
]
const evidence = {
  terms: new Map([['a', ['ship']]]),
  cosines: new Map([
    ['a', 0.21],
    ['b', 0.05],
  ]),
}

describe('explainHits', () => {
  it('turns ranked candidates into explained hits, rank 1 first', () => {
    const [a, b] = explainHits(ranked, evidence, 'score', true)
    expect(a).toMatchObject({
      id: 'a',
      rank: 1,
      score: 1.68,
      fused: 1.4,
      via: 'both',
      terms: ['ship'],
      cosine: 0.21,
      flagged: true,
    })
    expect(a!.explanation).toBe(
      'matched [ship] (bm25 6.35 #1) + semantic 0.21 (#2) -> fused 1.4000; boosts: recency x1.2 -> #1',
    )
    expect(b).toMatchObject({ id: 'b', rank: 2, via: 'tag', terms: [], flagged: false })
    expect(b!.explanation).toBe(
      'cosine 0.05 (unranked) + tag (#1) -> fused 0.5000; no boosts -> #2',
    )
  })

  it('names the fusion method, and leaves explanations empty when not asked', () => {
    expect(explainHits(ranked, evidence, 'rrf', true)[0]!.explanation).toMatch(/-> rrf 1\.4000/)
    expect(explainHits(ranked, evidence, 'score', false).map((h) => h.explanation)).toEqual([
      '',
      '',
    ])
  })

  it('shows matched terms as the memory writes them, not their stems (issue 26)', () => {
    const hit: Ranked = {
      candidate: { id: 'c', fused: 1, lists: { keyword: { rank: 1, score: 3 } }, fusionRanks: {} },
      memory: row('c', 'My Birthday is in March; the family keeps it in two databases', {
        tags: ['Anniversaries'],
      }),
      boosts: [],
      score: 1,
    }
    const stems = {
      terms: new Map([['c', ['birthdai', 'famili', 'databas', 'anniversari']]]),
      cosines: new Map(),
    }
    const [c] = explainHits([hit], stems, 'score', true)
    expect(c!.terms).toEqual(['birthday', 'family', 'databases', 'anniversaries'])
    expect(c!.explanation).toBe(
      'matched [birthday, family, databases, anniversaries] (bm25 3.00 #1) -> fused 1.0000; no boosts -> #1',
    )
  })
})
