import { describe, expect, it } from 'vitest'
import { DEFAULT_SELECT } from '../../../../src/core/options.ts'
import type { RecallHit, SelectHook } from '../../../../src/core/types.ts'
import { selectHits } from '../../../../src/engine/recall/select.ts'
import { row } from '../fixtures.ts'

const hits: RecallHit[] = ['a', 'b', 'c', 'd'].map((id, i) => ({
  id,
  text: id,
  memory: row(id, id),
  rank: i + 1,
  score: 1 - i / 10,
  fused: 1 - i / 10,
  via: 'kw',
  lists: { keyword: { rank: i + 1, score: 1 } },
  terms: [],
  boosts: [],
  flagged: false,
  explanation: `hit ${id} -> #${i + 1}`,
}))

const options = (select?: SelectHook, k = 2) => ({
  k,
  explain: true,
  selectOptions: { ...DEFAULT_SELECT, timeoutMs: 50 },
  ...(select ? { select } : {}),
})

describe('selectHits', () => {
  it('returns the first k hits without a hook', async () => {
    const selected = await selectHits(hits, 'q', options())
    expect(selected.hits.map((h) => h.id)).toEqual(['a', 'b'])
    expect(selected.selection).toBeUndefined()
  })

  it('keeps the ids the hook names, in its order, renumbered', async () => {
    const selected = await selectHits(
      hits,
      'q',
      options(() => ['c', 'nope', 'a', 'c']),
    )
    expect(selected.selection).toBe('applied')
    expect(selected.hits.map((h) => [h.id, h.rank, h.explanation])).toEqual([
      ['c', 1, 'hit c -> #3; selected -> #1'],
      ['a', 2, 'hit a -> #1; selected -> #2'],
    ])
  })

  it('lets the fused ranking stand when the hook fails, times out or names nothing', async () => {
    const cases: [SelectHook, string][] = [
      [
        () => {
          throw new Error('judge down')
        },
        'failed',
      ],
      [() => Promise.reject(new Error('judge down')), 'failed'],
      [() => 'a' as never, 'failed'],
      [() => new Promise(() => {}), 'timeout'],
      [() => ['nope'], 'empty'],
    ]
    for (const [hook, selection] of cases) {
      const selected = await selectHits(hits, 'q', options(hook))
      expect(selected.selection, selection).toBe(selection)
      expect(selected.hits.map((h) => h.id)).toEqual(['a', 'b'])
    }
  })
})
