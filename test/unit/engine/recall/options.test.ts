import { describe, expect, it } from 'vitest'
import { DEFAULT_BOOSTS, DEFAULT_LIMITS } from '../../../../src/core/options.ts'
import { DEFAULT_FLOOR_POLICY } from '../../../../src/core/recall/floor.ts'
import { checkRecallOptions, mergeRecallOptions } from '../../../../src/engine/recall/options.ts'

describe('mergeRecallOptions', () => {
  it('lets a call’s value win and leaves the others to the defaults', () => {
    expect(mergeRecallOptions({ k: 8, mode: 'keyword' }, { k: 3 })).toEqual({
      k: 3,
      mode: 'keyword',
    })
    expect(mergeRecallOptions({ tags: ['a', 'b'] }, { tags: ['c'] })).toEqual({ tags: ['c'] })
    expect(mergeRecallOptions({ k: 8 }, { k: undefined })).toEqual({ k: 8 })
  })

  it('merges weights and selectOptions field by field', () => {
    expect(
      mergeRecallOptions(
        { weights: { vector: 2 }, selectOptions: { keep: 1 } },
        { weights: { keyword: 0.5 }, selectOptions: { timeoutMs: 10 } },
      ),
    ).toEqual({ weights: { vector: 2, keyword: 0.5 }, selectOptions: { keep: 1, timeoutMs: 10 } })
  })

  it('reads floor and boosts as off, on with the engine’s settings, or settings over them', () => {
    const defaults = { floor: { hitLift: 1 }, boosts: { recency: 1.5 } }
    expect(mergeRecallOptions(defaults, { floor: true, boosts: true })).toEqual(defaults)
    expect(mergeRecallOptions(defaults, { floor: false, boosts: false })).toEqual({
      floor: false,
      boosts: false,
    })
    expect(
      mergeRecallOptions(defaults, { floor: { minCosine: 0.5 }, boosts: { recencyDays: 7 } }),
    ).toEqual({ floor: { hitLift: 1, minCosine: 0.5 }, boosts: { recency: 1.5, recencyDays: 7 } })
    expect(mergeRecallOptions({ floor: false }, { floor: { minCosine: 0.5 } })).toEqual({
      floor: { minCosine: 0.5 },
    })
  })
})

describe('checkRecallOptions', () => {
  it('fills the built-in defaults, the engine’s under the call’s', () => {
    const plain = checkRecallOptions('units', {}, {}, DEFAULT_LIMITS)
    expect(plain).toMatchObject({ k: 5, mode: 'hybrid', boosts: DEFAULT_BOOSTS })
    expect(plain.floor).toEqual(DEFAULT_FLOOR_POLICY)
    const merged = checkRecallOptions(
      'units',
      { boosts: { recency: 2 }, floor: { minCosine: 0.4 } },
      { k: 7, boosts: { lowConfidence: 0.5 }, floor: { hitLift: 1 } },
      DEFAULT_LIMITS,
    )
    expect(merged.k).toBe(7)
    expect(merged.boosts).toEqual({ ...DEFAULT_BOOSTS, recency: 2, lowConfidence: 0.5 })
    expect(merged.floor).toEqual({ ...DEFAULT_FLOOR_POLICY, hitLift: 1, minCosine: 0.4 })
    expect(checkRecallOptions('units', { boosts: false }, {}, DEFAULT_LIMITS).boosts).toBeNull()
  })

  it('names a bad value the call gave by the call’s field', () => {
    expect(() =>
      checkRecallOptions('units', { weights: { vector: -1 } }, { weights: {} }, DEFAULT_LIMITS),
    ).toThrow(expect.objectContaining({ code: 'BAD_OPTION', field: 'weights.vector' }))
    expect(() =>
      checkRecallOptions('units', { boosts: 'on' as never }, {}, DEFAULT_LIMITS),
    ).toThrow(expect.objectContaining({ code: 'BAD_OPTION', field: 'boosts' }))
  })
})
