import { describe, expect, it } from 'vitest'
import type { JudgeCase, ReviewReport } from '../../../../src/core/types.ts'
import { decide, judged } from '../../../../src/engine/review/judge.ts'
import { row } from '../fixtures.ts'

const a = row('01A', 'The owner prefers metric units')
const b = row('01B', 'The owner prefers the metric units')
const c = row('01C', 'The owner likes tea')

function dup(older = a, newer = b): JudgeCase {
  return { kind: 'duplicate', older, newer, similarity: 0.97 }
}

function report(): ReviewReport {
  return {
    scanned: 0,
    archived: [],
    removed: [],
    flagged: [],
    merged: [],
    related: [],
    promoted: [],
    resumed: false,
    tookMs: 0,
  }
}

describe('decide', () => {
  it('merges a duplicate into the older memory when no judge spoke', () => {
    expect(decide([dup()], [])).toEqual({
      merges: [{ into: '01A', from: '01B', similarity: 0.97 }],
      edges: [],
    })
  })

  it('leaves a related pair alone unless the judge says otherwise', () => {
    const related: JudgeCase = { kind: 'related', older: a, newer: c, similarity: 0.6 }
    expect(decide([related], [])).toEqual({ merges: [], edges: [] })
    expect(decide([related], ['contradicts'])).toEqual({
      merges: [],
      edges: [{ from: '01C', to: '01A', kind: 'contradicts' }],
    })
  })

  it('folds a memory into one other at most, and drops edges of a memory folded away', () => {
    const twice = [dup(a, b), dup(c, b), { ...dup(b, c), kind: 'related' as const }]
    const { merges, edges } = decide(twice, [undefined, undefined, 'supersedes'])
    expect(merges).toEqual([{ into: '01A', from: '01B', similarity: 0.97 }])
    expect(edges).toEqual([])
  })
})

describe('judged', () => {
  it('reports a judge that runs out of time and keeps the rules', async () => {
    const r = report()
    const never = () => new Promise<never>(() => {})
    expect(await judged([dup()], { judge: never, judgeTimeoutMs: 5 }, r)).toEqual([])
    expect(r.judge).toBe('timeout')
  })

  it('reads an unknown verdict as none, and a reply that is no array as a failed judge', async () => {
    const r = report()
    const odd = () => ['merge', 'maybe'] as never
    expect(await judged([dup(), dup()], { judge: odd, judgeTimeoutMs: 1000 }, r)).toEqual([
      'merge',
      undefined,
    ])
    expect(r.judge).toBe('applied')
    const bad = () => 'merge' as never
    expect(await judged([dup()], { judge: bad, judgeTimeoutMs: 1000 }, r)).toEqual([])
    expect(r.judge).toBe('failed')
  })
})
