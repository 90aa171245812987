import { describe, expect, it } from 'vitest'
import { BATCH_EXACT_BELOW, batchNearPairs } from '../../../../src/core/vector/batch-near.ts'
import { clusteredVectors, dot, normalise, rng, SEED, unitVectors } from './fixtures.ts'

const DIMS = 384

/** `base` moved by `eps` × a random unit direction, renormalised: cosine about 1/√(1+eps²). */
function nudge(base: Float32Array, eps: number, seed: number): Float32Array {
  const [noise] = unitVectors(1, base.length, seed) as [Float32Array]
  return normalise(base.map((x, i) => x + eps * (noise[i] as number)))
}

/** `count` rows, a tenth of them near copies of an earlier row (cosines about 0.95..0.995). */
function batch(count: number, seed: number, clustered = false): Float32Array[] {
  const random = rng(seed)
  const rows = clustered
    ? clusteredVectors(Math.ceil(count * 0.9), DIMS, 40, seed)
    : unitVectors(Math.ceil(count * 0.9), DIMS, seed)
  while (rows.length < count) {
    const base = rows[Math.floor(random() * rows.length)] as Float32Array
    rows.push(nudge(base, 0.1 + 0.2 * random(), seed + rows.length))
  }
  return rows
}

/** Every pair (i, j < i) of one group at `threshold` or more, by brute force, as "i:j". */
function exactPairs(rows: Float32Array[], groups: number[], threshold: number): string[] {
  const out: string[] = []
  for (let i = 0; i < rows.length; i++)
    for (let j = 0; j < i; j++)
      if (groups[i] === groups[j] && dot(rows[i]!, rows[j]!) >= threshold) out.push(`${i}:${j}`)
  return out.sort()
}

function pairsOf(found: Map<number, { row: number }[]>): string[] {
  return [...found].flatMap(([i, list]) => list.map((p) => `${i}:${p.row}`)).sort()
}

describe('batchNearPairs', () => {
  it('finds exactly the pairs of one group at the threshold in a small batch', () => {
    const rows = batch(300, SEED)
    const groups = rows.map((_, i) => i % 3)
    const found = batchNearPairs(rows, groups, 0.96)
    const expected = exactPairs(rows, groups, 0.96)
    expect(expected.length).toBeGreaterThan(3)
    expect(pairsOf(found)).toEqual(expected)
  })

  it('lists each row’s earlier rows best first, with their exact cosines', () => {
    const [a] = unitVectors(1, DIMS, SEED + 1) as [Float32Array]
    const closer = nudge(a, 0.1, SEED + 2)
    const farther = nudge(a, 0.2, SEED + 3)
    const found = batchNearPairs([farther, closer, a], [0, 0, 0], 0.95)
    const list = found.get(2)!
    expect(list.map((p) => p.row)).toEqual([1, 0])
    expect(list[0]!.score).toBeCloseTo(dot(a, closer), 6)
    expect(list[0]!.score).toBeGreaterThan(list[1]!.score)
  })

  it('finds the pairs a scan finds in a batch large enough for the bands', () => {
    const rows = batch(1500, SEED + 4, true)
    const groups = rows.map((_, i) => (i % 7 === 0 ? 1 : 0))
    expect(rows.length).toBeGreaterThanOrEqual(BATCH_EXACT_BELOW)
    const expected = exactPairs(rows, groups, 0.97)
    const got = new Set(pairsOf(batchNearPairs(rows, groups, 0.97)))
    expect(expected.length).toBeGreaterThan(20)
    const found = expected.filter((p) => got.has(p)).length
    // Bands miss a pair at 0.97 about once in 2,000; nothing below the threshold comes back.
    expect(found / expected.length).toBeGreaterThanOrEqual(0.99)
    expect([...got].every((p) => expected.includes(p))).toBe(true)
  })

  it('scores every pair below the band floor, however large the batch', () => {
    const rows = batch(BATCH_EXACT_BELOW + 50, SEED + 5)
    const groups = rows.map(() => 0)
    expect(pairsOf(batchNearPairs(rows, groups, 0.85))).toEqual(exactPairs(rows, groups, 0.85))
  })

  it('answers nothing for an empty or single-row batch', () => {
    expect(batchNearPairs([], [], 0.97).size).toBe(0)
    expect(batchNearPairs(unitVectors(1, DIMS, SEED), [0], 0.97).size).toBe(0)
  })
})
