import { describe, expect, it } from 'vitest'
import type { ModelCalibration } from '../../../../src/core/adaptive-fusion'
import {
  applyCosineBar,
  applyFloor,
  DEFAULT_FLOOR_POLICY,
  expectedMaximum,
  hitHasEvidence,
  liftOf,
  normalQuantile,
  queryLiftBar,
  queryOnTopic,
} from '../../../../src/core/recall/floor'

// USE-lite's calibration, as the model table holds it.
const USE: ModelCalibration = { unrelated: 0.14, spread: 0.1, nearDuplicate: 0.95, vectorShare: 3 }
const same = <T>(h: T) => h

describe('relevance floor', () => {
  it('reads cosines as spreads above the unrelated level, 0 below it', () => {
    expect(liftOf(0.34, USE)).toBeCloseTo(2, 12)
    expect(liftOf(0.1, USE)).toBe(0)
  })

  it('drops every hit of a query nothing in the store is about', () => {
    const banana = [
      { coverage: 0, cosine: 0.31 },
      { coverage: 0, cosine: 0.2 },
    ]
    expect(applyFloor(banana, same, USE)).toEqual({ kept: [], dropped: 2 })
  })

  it('keeps an on-topic query by coverage or by one clearly lifted cosine', () => {
    expect(queryOnTopic([{ coverage: 0.25, cosine: 0 }], USE)).toBe(true)
    expect(queryOnTopic([{ coverage: 0.2, cosine: 0.2 }], USE)).toBe(false)
    expect(queryOnTopic([{ coverage: 0, cosine: 0.14 + 2.5 * 0.1 }], USE)).toBe(true)
    expect(queryOnTopic([{ coverage: 0, cosine: 0.14 + 2.4 * 0.1 }], USE)).toBe(false)
  })

  it('drops, from an on-topic query, a hit that matched no term at a cosine near noise', () => {
    const hits = [
      { coverage: 0, cosine: 0.52 },
      { coverage: 0.5, cosine: 0.1 },
      { coverage: 0, cosine: 0.16 },
    ]
    expect(applyFloor(hits, same, USE)).toEqual({ kept: hits.slice(0, 2), dropped: 1 })
  })

  it('keeps exact alias hits and, without cosines, every BM25 match', () => {
    expect(hitHasEvidence({ coverage: 0, cosine: -0.5, exact: true }, USE)).toBe(true)
    expect(queryOnTopic([{ coverage: 0, exact: true }], USE)).toBe(true)
    const keywordOnly = [{ coverage: 0.1 }, { coverage: 0.05 }]
    expect(applyFloor(keywordOnly, same, USE)).toEqual({ kept: keywordOnly, dropped: 0 })
    expect(applyFloor([{ coverage: 0 }], same, USE)).toEqual({ kept: [], dropped: 1 })
  })

  it('keeps order and accepts stricter bars', () => {
    const hits = ['a', 'b', 'c'].map((id, i) => ({ id, coverage: 1 - i * 0.4 }))
    const strict = { ...DEFAULT_FLOOR_POLICY, queryCoverage: 1 }
    expect(
      applyFloor(hits, (h) => ({ coverage: h.coverage, cosine: 0 }), USE, strict).kept,
    ).toEqual(hits)
    expect(applyFloor([], same, USE)).toEqual({ kept: [], dropped: 0 })
  })

  describe('in a small store (issue 26)', () => {
    it('asks the best cosine only for the lift the best of n unrelated ones reaches on average', () => {
      expect(queryLiftBar(2.5, 5)).toBeCloseTo(expectedMaximum(5), 12)
      expect(queryLiftBar(2.5, 24)).toBeCloseTo(1.947, 3)
      expect(queryLiftBar(2.5, 45)).toBeCloseTo(2.203, 3)
      expect(queryLiftBar(2.5, 150)).toBe(2.5)
      expect(queryLiftBar(2.5, Number.POSITIVE_INFINITY)).toBe(2.5)
      expect(queryLiftBar(1, 5)).toBe(1)
      expect(queryLiftBar(2.5, 1)).toBe(0)
    })

    it('puts the expected maximum of n normals within 0.02 of its exact value', () => {
      // Exact E[max] of n standard normals (Harter's tables).
      const exact: [number, number][] = [
        [5, 1.163],
        [10, 1.5388],
        [25, 1.9653],
        [100, 2.5076],
      ]
      for (const [n, value] of exact)
        expect(Math.abs(expectedMaximum(n) - value)).toBeLessThan(0.02)
      expect(expectedMaximum(1)).toBe(0)
    })

    it('inverts the normal distribution in the body and both tails', () => {
      expect(normalQuantile(0.5)).toBeCloseTo(0, 9)
      expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5)
      expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5)
      expect(normalQuantile(0.999)).toBeCloseTo(3.090232, 5)
    })

    it('keeps a paraphrase answer of a five-fact store that a large store would drop', () => {
      // "what measurement system do I like?" against "I prefer metric units…": no shared term,
      // the answer at lift 2.0, the other four facts near noise.
      const hits = [
        { coverage: 0, cosine: 0.14 + 2.0 * 0.1 },
        { coverage: 0, cosine: 0.16 },
        { coverage: 0, cosine: 0.12 },
      ]
      expect(applyFloor(hits, same, USE, DEFAULT_FLOOR_POLICY, { memories: 5 }).kept).toEqual([
        hits[0],
      ])
      expect(applyFloor(hits, same, USE, DEFAULT_FLOOR_POLICY, { memories: 45 }).kept).toEqual([])
      expect(applyFloor(hits, same, USE).kept).toEqual([])
    })

    it('still empties an off-topic query of a five-fact store whose best cosine is noise', () => {
      // "quantum lobster parliament" against five personal facts: best lift 0.8, under the 1.18
      // the best of five unrelated cosines reaches on average.
      const lobster = [
        { coverage: 0, cosine: 0.14 + 0.8 * 0.1 },
        { coverage: 0, cosine: 0.15 },
      ]
      expect(applyFloor(lobster, same, USE, DEFAULT_FLOOR_POLICY, { memories: 5 })).toEqual({
        kept: [],
        dropped: 2,
      })
    })

    it('keeps a 24-fact store’s paraphrase answer at lift 2.0, which the old bar of 2.5 emptied', () => {
      // "when do we ship releases?" against a team's 24 facts (small-stores.json, store e).
      const hits = [
        { coverage: 0, cosine: 0.14 + 2.0 * 0.1 },
        { coverage: 0, cosine: 0.18 },
      ]
      expect(applyFloor(hits, same, USE, DEFAULT_FLOOR_POLICY, { memories: 24 }).kept).toEqual([
        hits[0],
      ])
      expect(applyFloor(hits, same, USE, DEFAULT_FLOOR_POLICY, { memories: 100 }).kept).toEqual([])
    })
  })

  describe('a small store held against the open world (issue 26)', () => {
    // Figures from small-stores.json under USE-lite: the store's best cosine and the query's best
    // cosine to the open world (src/core/recall/open-world.ts).
    it('keeps a paraphrase whose best hit stands near or above the open world’s best', () => {
      // "which city do we live in?" → "Our flat is in Leeds…": lift 1.7, 0.4 spreads under the world.
      const city = [{ coverage: 0, cosine: 0.31 }]
      expect(queryOnTopic(city, USE, undefined, { memories: 8, openWorld: 0.35 })).toBe(true)
      // The old expected-maximum bar of an 8-fact store (1.42) kept it too; at 16 facts (1.77) not.
      expect(queryOnTopic(city, USE, undefined, { memories: 16 })).toBe(false)
      expect(queryOnTopic(city, USE, undefined, { memories: 16, openWorld: 0.35 })).toBe(true)
    })

    it('empties a trivia question the open world matches better, whatever its lift', () => {
      // "what is the boiling point of tungsten" → "…teaches chemistry…": lift 2.3, world 0.50.
      const tungsten = [{ coverage: 0, cosine: 0.37 }]
      expect(queryOnTopic(tungsten, USE, undefined, { memories: 8 })).toBe(true)
      expect(queryOnTopic(tungsten, USE, undefined, { memories: 8, openWorld: 0.5 })).toBe(false)
    })

    it('empties word salad that no text is near, by the absolute lift bar', () => {
      const salad = [{ coverage: 0, cosine: 0.22 }]
      expect(queryOnTopic(salad, USE, undefined, { memories: 5, openWorld: 0.1 })).toBe(false)
    })

    it('lets keyword evidence stand whatever the open world says', () => {
      const named = [{ coverage: 0.5, cosine: 0.15 }]
      expect(queryOnTopic(named, USE, undefined, { memories: 5, openWorld: 0.9 })).toBe(true)
    })

    it('scales both bars with queryLift: 0 keeps everything, a higher lift is stricter', () => {
      const hit = [{ coverage: 0, cosine: 0.37 }]
      const read = { memories: 8, openWorld: 0.5 }
      expect(queryOnTopic(hit, USE, { ...DEFAULT_FLOOR_POLICY, queryLift: 0 }, read)).toBe(true)
      const near = { memories: 8, openWorld: 0.4 }
      expect(queryOnTopic(hit, USE, DEFAULT_FLOOR_POLICY, near)).toBe(true)
      expect(queryOnTopic(hit, USE, { ...DEFAULT_FLOOR_POLICY, queryLift: 7.5 }, near)).toBe(false)
    })

    it('keeps a query whose hits carry no cosine under queryLift 0 (the margin was NaN)', () => {
      const uncosined = [{ coverage: 0 }]
      const read = { memories: 8, openWorld: 0.5 }
      expect(queryOnTopic(uncosined, USE, { ...DEFAULT_FLOOR_POLICY, queryLift: 0 }, read)).toBe(
        true,
      )
      expect(queryOnTopic(uncosined, USE, DEFAULT_FLOOR_POLICY, read)).toBe(false)
    })
  })

  it('holds a hit that matched no term to the raw minCosine bar, with or without a calibration', () => {
    const strict = { ...DEFAULT_FLOOR_POLICY, minCosine: 0.5 }
    // Lifted far above USE-lite's noise, yet under the raw bar: dropped.
    expect(hitHasEvidence({ coverage: 0, cosine: 0.45 }, USE, strict)).toBe(false)
    expect(hitHasEvidence({ coverage: 0, cosine: 0.55 }, USE, strict)).toBe(true)
    expect(hitHasEvidence({ coverage: 0, cosine: 0.45 }, undefined, strict)).toBe(false)
    expect(hitHasEvidence({ coverage: 0, cosine: 0.55 }, undefined, strict)).toBe(true)
    // A term or an exact list always counts; -1 is no bar.
    expect(hitHasEvidence({ coverage: 0.5, cosine: 0 }, undefined, strict)).toBe(true)
    expect(hitHasEvidence({ coverage: 0, cosine: 0, exact: true }, undefined, strict)).toBe(true)
    expect(hitHasEvidence({ coverage: 0, cosine: -0.9 }, undefined, DEFAULT_FLOOR_POLICY)).toBe(
      true,
    )
  })

  it('applies the raw cosine bar alone where no calibration reads the cosines', () => {
    const hits = [
      { coverage: 0, cosine: 0.2 },
      { coverage: 0.5, cosine: 0.1 },
      { coverage: 0, cosine: 0.7 },
      { coverage: 0 },
    ]
    expect(applyCosineBar(hits, same, 0.5)).toEqual({
      kept: [hits[1], hits[2], hits[3]],
      dropped: 1,
    })
  })
})
