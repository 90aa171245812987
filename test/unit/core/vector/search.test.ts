import { describe, expect, it } from 'vitest'
import { rowLayout } from '../../../../src/core/vector/quantise.ts'
import { RowStore } from '../../../../src/core/vector/row-store.ts'
import {
  fillGroupMask,
  GROUP_MASK_WORDS,
  selectCandidates,
} from '../../../../src/core/vector/search.ts'
import { backends, unitVectors } from './fixtures.ts'

/** The reference: eligible rows by estimate, best first, ties to the lower row. */
function reference(estimates: Float32Array, eligible: (row: number) => boolean, want: number) {
  const rows = [...estimates.keys()].filter(eligible)
  rows.sort((a, b) => (estimates[b] as number) - (estimates[a] as number) || a - b)
  return { rows: rows.slice(0, want), exhausted: want >= rows.length }
}

describe('selectCandidates', () => {
  for (const { name, wasm } of backends) {
    it(`picks the best estimates, ties to the lower row, sampled or not (${name})`, () => {
      // 30k rows, a third of them copies of others: many exact ties among the estimates.
      const base = unitVectors(20_000, 16, 1)
      const vectors = [...base, ...base.slice(0, 10_000)]
      const store = new RowStore(rowLayout(16, 0), { wasm, exact: false })
      vectors.forEach((v, i) => {
        store.put(String(i), v, i % 7)
      })
      store.kernel.prepare(unitVectors(1, 16, 2)[0] as Float32Array)
      const { estimates } = store.kernel.scan(store.size)
      const all = estimates.subarray(0, store.size)
      const mask = fillGroupMask(new Uint32Array(GROUP_MASK_WORDS), [2, 5])
      const inMask = (row: number) => row % 7 === 2 || row % 7 === 5
      for (const want of [1, 10, 200, 937, 938, 5000, 40_000]) {
        const plain = selectCandidates(store, all, undefined, want)
        const expected = reference(all, () => true, want)
        expect(plain.rows).toEqual(expected.rows)
        // The sampled path cannot know it saw every row; it only ever claims less.
        if (plain.exhausted) expect(expected.exhausted).toBe(true)
        const masked = selectCandidates(store, all, mask, want)
        expect(masked.rows).toEqual(reference(all, inMask, want).rows)
      }
      expect(selectCandidates(store, all, undefined, 40_000).exhausted).toBe(true)
      const none = fillGroupMask(new Uint32Array(GROUP_MASK_WORDS), [6000])
      expect(selectCandidates(store, all, none, 10)).toEqual({ rows: [], exhausted: true })
    })
  }
})
