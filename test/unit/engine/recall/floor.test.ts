import { describe, expect, it } from 'vitest'
import type { ModelCalibration } from '../../../../src/core/adaptive-fusion.ts'
import { DEFAULT_FLOOR_POLICY } from '../../../../src/core/recall/floor.ts'
import type { ListEvidence, ListName, RecallHit } from '../../../../src/core/types.ts'
import { KeywordIndex } from '../../../../src/engine/index/keyword-index.ts'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import {
  explainFloor,
  type FloorInput,
  floorCandidates,
} from '../../../../src/engine/recall/floor.ts'
import type { RecallLists } from '../../../../src/engine/recall/lists.ts'
import type { Ranked } from '../../../../src/engine/recall/rank.ts'
import { row } from '../fixtures.ts'

const NGRAM: ModelCalibration = {
  unrelated: 0.05,
  spread: 0.09,
  nearDuplicate: 0.97,
  vectorShare: 1,
}
const keyword = new KeywordIndex()

/** A ranked candidate found by `lists` (a list name → its rank 1 evidence). */
function ranked(id: string, text: string, lists: ListName[] = []): Ranked {
  const evidence: Partial<Record<ListName, ListEvidence>> = {}
  for (const name of lists) evidence[name] = { rank: 1, score: 1 }
  const candidate = { id, fused: 1, lists: evidence, fusionRanks: {} }
  return { candidate, memory: row(id, text), boosts: [], score: 1 }
}

/** The floor's input for `query`, with the keyword list's matched terms and the cosines. */
function input(
  query: string,
  found: { terms?: [string, string[]][]; cosines?: [string, number][]; vector?: boolean },
  extra: Partial<FloorInput> = {},
): FloorInput {
  const cosines = new Map(found.cosines ?? [])
  const lists: Pick<RecallLists, 'terms' | 'cosines' | 'vector'> = {
    terms: new Map(found.terms ?? []),
    cosines,
  }
  if (found.vector !== false && cosines.size > 0) {
    lists.vector = { list: { name: 'vector', items: [] }, cosines }
  }
  return {
    q: analyzeQuery(query, keyword),
    found: lists,
    calibration: NGRAM,
    policy: { ...DEFAULT_FLOOR_POLICY },
    termsOf: (memory) => keyword.analyze(memory.text),
    k: 5,
    ...extra,
  }
}

describe('floorCandidates', () => {
  it('drops every candidate of a query nothing matched and no cosine lifts', () => {
    const all = [ranked('a', 'Priya is my sister-in-law', ['vector']), ranked('b', 'Metric units')]
    const out = floorCandidates(
      all,
      input('banana spaceship', {
        cosines: [
          ['a', 0.1],
          ['b', 0.06],
        ],
      }),
    )
    expect(out).toMatchObject({ kept: [], filtered: 2 })
  })

  it('keeps the keyword match and drops a vector-only hit at the unrelated level', () => {
    const priya = ranked('p', 'Priya is my sister-in-law', ['keyword', 'vector'])
    const units = ranked('u', 'The owner prefers metric units', ['vector'])
    const out = floorCandidates(
      [priya, units],
      input('Who is Priya?', {
        terms: [['p', ['priya']]],
        cosines: [
          ['p', 0.46],
          ['u', 0.0],
        ],
      }),
    )
    expect(out.kept).toEqual([priya])
    expect(out.filtered).toBe(1)
  })

  it('counts only dropped candidates that ranked within k', () => {
    const hit = ranked('p', 'Priya is my sister-in-law', ['keyword'])
    const noise = [1, 2, 3].map((i) => ranked(`n${i}`, `noise ${i}`, ['vector']))
    const out = floorCandidates(
      [hit, ...noise],
      input(
        'Who is Priya?',
        {
          terms: [['p', ['priya']]],
          cosines: [
            ['p', 0.5],
            ['n1', 0],
            ['n2', 0],
            ['n3', 0],
          ],
        },
        { k: 2 },
      ),
    )
    expect(out.kept).toEqual([hit])
    expect(out.filtered).toBe(1)
  })

  it('counts a query word in the text of a candidate BM25 did not return (semantic mode)', () => {
    const fact = ranked('f', 'The deploy script lives in tools/', ['vector'])
    const out = floorCandidates(
      [fact],
      input('where is the deploy script', { cosines: [['f', 0.1]] }),
    )
    expect(out.kept).toEqual([fact])
    expect(out.cosineOnly.size).toBe(0)
  })

  it('keeps alias and tag hits and, with quoted phrases, every keyword hit', () => {
    const alias = ranked('a', 'Unrelated words entirely', ['alias'])
    const tag = ranked('t', 'Other unrelated words', ['tag'])
    const phrase = ranked('q', 'to be or not to be', ['keyword'])
    const cosines: [string, number][] = [
      ['a', 0],
      ['t', 0],
      ['q', 0],
    ]
    expect(floorCandidates([alias, tag], input('zebra', { cosines })).kept).toEqual([alias, tag])
    expect(floorCandidates([phrase], input('"to be or not to be"', { cosines })).kept).toEqual([
      phrase,
    ])
  })

  it('keeps everything when switched off, or when an uncalibrated model’s vector list ran', () => {
    const noise = [ranked('n', 'noise', ['vector'])]
    const found = { cosines: [['n', 0]] as [string, number][] }
    expect(floorCandidates(noise, input('banana', found, { policy: null }))).toMatchObject({
      kept: noise,
      filtered: 0,
    })
    expect(
      floorCandidates(noise, input('banana', found, { calibration: undefined })),
    ).toMatchObject({ kept: noise, filtered: 0 })
  })

  it('drops a term-less hit under minCosine also for a model nobody calibrated', () => {
    const priya = ranked('p', 'Priya is my sister-in-law', ['keyword', 'vector'])
    const units = ranked('u', 'The owner prefers metric units', ['vector'])
    const near = ranked('n', 'My brother-in-law is Ravi', ['vector'])
    const found = {
      terms: [['p', ['priya']]] as [string, string[]][],
      cosines: [
        ['p', 0.3],
        ['u', 0.45],
        ['n', 0.62],
      ] as [string, number][],
    }
    const policy = { ...DEFAULT_FLOOR_POLICY, minCosine: 0.5 }
    const out = floorCandidates(
      [priya, units, near],
      input('Who is Priya?', found, { calibration: undefined, policy }),
    )
    expect(out).toMatchObject({ kept: [priya, near], filtered: 1 })
    // The default bar (-1) keeps everything, as before.
    expect(
      floorCandidates(
        [priya, units, near],
        input('Who is Priya?', found, { calibration: undefined }),
      ),
    ).toMatchObject({ kept: [priya, units, near], filtered: 0 })
  })

  it('floors keyword-only recall without a calibration, keeping every BM25 match', () => {
    const match = ranked('m', 'banana bread recipe', ['keyword'])
    const out = floorCandidates(
      [match],
      input('banana spaceship', { terms: [['m', ['banana']]] }, { calibration: undefined }),
    )
    expect(out).toMatchObject({ kept: [match], filtered: 0 })
  })

  it('gives a hybrid candidate beyond the deep read the read’s last cosine', () => {
    const far = ranked('far', 'nothing in common', ['keyword'])
    const found = input('Who is Priya?', { cosines: [['x', 0.9]] })
    found.found.vector = { list: { name: 'vector', items: [] }, cosines: new Map(), cosineBound: 0 }
    // Matched no term (terms empty) and the bound is at noise: dropped, though the query is on
    // topic (another candidate's cosine lifts it).
    const x = ranked('x', 'Priyanka', ['vector'])
    expect(floorCandidates([x, far], found).kept).toEqual([x])
  })

  it('says in the explanation when a hit stayed on its cosine alone', () => {
    const para = ranked('s', 'My sister lives in Oslo', ['vector'])
    const floored = floorCandidates(
      [para],
      input('whereabouts of my sibling', { cosines: [['s', 0.5]] }),
    )
    expect(floored.kept).toEqual([para])
    const hit = { id: 's', explanation: 'semantic 0.50 (#1) -> fused 1.0000' } as RecallHit
    explainFloor([hit], floored)
    expect(hit.explanation).toBe(
      'semantic 0.50 (#1) -> fused 1.0000; floor: no term matched, cosine 5.0 spreads above unrelated',
    )
  })

  it('judges a query in a store smaller than one read by what its unrelated cosines reach', () => {
    // NGRAM: lift 2.0 is below the 2.5 bar, above the expected best of 5 (1.18), 12 (1.63) and
    // 24 (1.95) unrelated cosines; lift 1.5 is below the 12's.
    const at = (lift: number) => 0.05 + lift * 0.09
    const noise = (n: number): [string, number][] =>
      Array.from({ length: n - 1 }, (_, i) => [`n${i}`, 0.05] as [string, number])
    const answer = ranked('a', 'I prefer metric units', ['vector'])
    const ask = (lift: number, n: number) =>
      floorCandidates(
        [answer],
        input('what measurement system do I like?', { cosines: [['a', at(lift)], ...noise(n)] }),
      ).kept
    expect(ask(2.0, 5)).toEqual([answer])
    expect(ask(2.0, 12)).toEqual([answer])
    expect(ask(2.0, 24)).toEqual([answer])
    expect(ask(1.5, 12)).toEqual([])
    // A read of listDepth (30) cosines may have been cut there: the store is judged as large.
    expect(ask(2.0, 30)).toEqual([])
    // Hybrid's deep read came back full: the store is larger than the read, the bar stays.
    const cut = input('what measurement system do I like?', { cosines: [['a', at(2.0)]] })
    cut.found.vector = { ...cut.found.vector!, cosineBound: 0.05 }
    expect(floorCandidates([answer], cut).kept).toEqual([])
  })
})
