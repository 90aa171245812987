import { describe, expect, it } from 'vitest'
import { exactDedup } from '../../../../src/engine/write/exact-dedup.ts'
import { indexed, row, write } from '../fixtures.ts'

describe('exactDedup', () => {
  it('matches a stored memory by namespace, type and key, whatever the spelling', async () => {
    const indexes = await indexed([row('m1', 'The owner prefers metric units')])
    const found = exactDedup(
      [
        write('the OWNER prefers   metric units!'),
        write('The owner prefers metric units', { namespace: 'work' }),
        write('The owner prefers metric units', { type: 'skill' }),
      ],
      indexes,
    )
    expect([...found.stored]).toEqual([[0, 'm1']])
    expect(found.candidates).toEqual([1, 2])
  })

  it('points a repeat within the batch at its first item', async () => {
    const indexes = await indexed([])
    const found = exactDedup(
      [write('alpha fact'), write('beta fact'), write('Alpha fact.'), write('ALPHA FACT')],
      indexes,
    )
    expect(found.candidates).toEqual([0, 1])
    expect([...found.repeats]).toEqual([
      [2, 0],
      [3, 0],
    ])
  })

  it('forgets a key once its memory is removed or changes its text', async () => {
    const indexes = await indexed([row('m1', 'first text'), row('m2', 'second text')])
    indexes.remove('m1')
    indexes.put(row('m2', 'changed text'))
    const found = exactDedup(
      [write('first text'), write('second text'), write('changed text')],
      indexes,
    )
    expect(found.candidates).toEqual([0, 1])
    expect([...found.stored]).toEqual([[2, 'm2']])
  })
})
