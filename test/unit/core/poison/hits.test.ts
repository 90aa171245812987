import { describe, expect, it } from 'vitest'
import { excerptOf, Hits, verdictOf } from '../../../../src/core/poison/hits.ts'
import {
  EXCERPT_CHARS,
  POISON_THRESHOLD,
  POISON_WINDOW,
} from '../../../../src/core/poison/rules.ts'

describe('verdictOf', () => {
  it('combines distinct cues as independent evidence (noisy-OR)', () => {
    const hits = new Hits()
    hits.add('secrecy', 'a', 0.4, 'x', 0)
    hits.add('future-behaviour', 'b', 0.2, 'y', 10)
    const verdict = verdictOf(hits.list)
    expect(verdict.score).toBeCloseTo(1 - 0.6 * 0.8, 3)
    expect(verdict.flagged).toBe(verdict.score >= POISON_THRESHOLD)
  })

  it('counts the same cue once, at its best score', () => {
    const hits = new Hits()
    hits.add('secrecy', 'a', 0.3, 'x', 0)
    hits.add('secrecy', 'a', 0.45, 'y', 5)
    const verdict = verdictOf(hits.list)
    expect(verdict.score).toBeCloseTo(0.45, 3)
    expect(verdict.findings).toEqual([{ rule: 'secrecy', excerpt: 'y', score: 0.45 }])
  })

  it('combines only signals within one window of each other', () => {
    const hits = new Hits()
    hits.add('secrecy', 'a', 0.35, 'x', 0)
    hits.add('future-behaviour', 'b', 0.35, 'y', POISON_WINDOW + 1)
    expect(verdictOf(hits.list).score).toBeCloseTo(0.35, 3)
    hits.add('ai-address', 'c', 0.35, 'z', POISON_WINDOW)
    expect(verdictOf(hits.list).score).toBeCloseTo(1 - 0.65 ** 2, 3)
  })

  it('is clean and scores 0 with no signals', () => {
    expect(verdictOf([])).toEqual({
      flagged: false,
      score: 0,
      threshold: POISON_THRESHOLD,
      findings: [],
    })
  })

  it('places a decoded layer’s signals at its offset', () => {
    const hits = new Hits()
    hits.offset = 120
    hits.add('secrecy', 'a', 0.3, 'x', 5)
    expect(hits.list[0]?.at).toBe(125)
  })
})

describe('excerptOf', () => {
  it('collapses whitespace and clips to EXCERPT_CHARS', () => {
    expect(excerptOf('a  \n b', 0, 6)).toBe('a b')
    const long = excerptOf('x'.repeat(200), 0, 200)
    expect(long.length).toBe(EXCERPT_CHARS)
    expect(long.endsWith('…')).toBe(true)
  })
})
