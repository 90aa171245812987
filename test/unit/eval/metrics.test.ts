import { describe, expect, it } from 'vitest'
import { mean, scoreQuestion, summarize } from '../../../scripts/eval/metrics.ts'

const ranked = (...keys: (string | string[])[]) => keys.map((k) => (Array.isArray(k) ? k : [k]))

describe('scoreQuestion', () => {
  it('scores a first-place hit as a hit everywhere with reciprocal rank 1', () => {
    expect(scoreQuestion(ranked('a', 'b', 'c'), new Set(['a']))).toEqual({
      'hit@1': 1,
      'hit@3': 1,
      'hit@5': 1,
      'hit@10': 1,
      mrr: 1,
      'p@3': 1 / 3,
    })
  })

  it('uses the first relevant rank for hits and MRR', () => {
    const s = scoreQuestion(ranked('x', 'y', 'z', 'a', 'b'), new Set(['a', 'b']))
    expect(s['hit@1']).toBe(0)
    expect(s['hit@3']).toBe(0)
    expect(s['hit@5']).toBe(1)
    expect(s.mrr).toBeCloseTo(1 / 4)
    expect(s['p@3']).toBe(0)
  })

  it('counts a memory with several keys once, if any key is relevant', () => {
    const s = scoreQuestion(ranked(['D1:1', 'D1:2'], 'D2:1', ['D3:3', 'D1:2']), new Set(['D1:2']))
    expect(s['hit@1']).toBe(1)
    expect(s['p@3']).toBeCloseTo(2 / 3)
  })

  it('scores nothing past rank 10 (MRR@10) and nothing for an empty ranking', () => {
    const eleven = ranked(...'abcdefghij'.split(''), 'k')
    expect(scoreQuestion(eleven, new Set(['k']))).toMatchObject({ 'hit@10': 0, mrr: 0 })
    expect(scoreQuestion(eleven, new Set(['j']))).toMatchObject({ 'hit@10': 1, mrr: 0.1 })
    expect(scoreQuestion([], new Set(['a'])).mrr).toBe(0)
  })
})

describe('summarize', () => {
  const hit = scoreQuestion(ranked('a'), new Set(['a']))
  const miss = scoreQuestion(ranked('b'), new Set(['a']))

  it('averages each metric over questions', () => {
    expect(mean([hit, miss])['hit@1']).toBe(0.5)
    expect(mean([])['hit@1']).toBe(0)
  })

  it('keeps kinds reported apart out of overall but lists them by kind', () => {
    const report = summarize(
      [
        { kind: '1', scores: hit },
        { kind: '2', scores: miss },
        { kind: '5', scores: miss },
        { kind: '5', scores: miss },
      ],
      ['5'],
    )
    expect(report.overall['hit@1']).toBe(0.5)
    expect(Object.keys(report.byKind)).toEqual(['1', '2', '5'])
    expect(report.byKind['5']!['hit@1']).toBe(0)
  })

  it('orders kinds numerically', () => {
    const rows = ['10', '2', '1'].map((kind) => ({ kind, scores: hit }))
    expect(Object.keys(summarize(rows).byKind)).toEqual(['1', '2', '10'])
  })
})
