/** Seeded fixtures for the vector index tests: unit vectors, an exact scan, index builders. */
import { VectorIndex, type VectorIndexOptions } from '../../../../src/core/vector/index.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'

/** The run's seed (test/helpers/random.ts), so a failure replays. */
export const SEED = TEST_SEED

export const rng = uniform

export function normalise(v: Float32Array): Float32Array {
  let norm = 0
  for (let i = 0; i < v.length; i++) norm += (v[i] as number) ** 2
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv
  return v
}

/** Random directions: each component a sum of three uniforms (roughly normal). */
export function unitVectors(count: number, dims: number, seed: number): Float32Array[] {
  const random = rng(seed)
  return Array.from({ length: count }, () => {
    const v = new Float32Array(dims)
    for (let i = 0; i < dims; i++) v[i] = random() + random() + random() - 1.5
    return normalise(v)
  })
}

/**
 * Anisotropic clusters, the shape of real sentence embeddings: normalise((0.8 × a shared mean +
 * a cluster centre + 0.7 × noise) × a per-dimension scale), scales log-uniform over e^±1.
 * Unrelated vectors have cosine about 0.3, neighbours in a cluster about 0.75.
 */
export function clusteredVectors(
  count: number,
  dims: number,
  clusters: number,
  seed: number,
): Float32Array[] {
  const random = rng(seed)
  const scale = Array.from({ length: dims }, () => Math.exp(2 * random() - 1))
  const [mean, ...centres] = unitVectors(clusters + 1, dims, seed + 1) as Float32Array[]
  const noise = unitVectors(count, dims, seed + 2)
  return noise.map((n) => {
    const centre = centres[Math.floor(random() * clusters)] as Float32Array
    const v = new Float32Array(dims)
    for (let i = 0; i < dims; i++) {
      const x = 0.8 * (mean as Float32Array)[i]! + (centre[i] as number) + 0.7 * (n[i] as number)
      v[i] = x * (scale[i] as number)
    }
    return normalise(v)
  })
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}

/** The exact answer: every row scored in float64, best first, ties by id. */
export function naive(
  rows: Map<string, Float32Array>,
  query: Float32Array,
  k: number,
  keep = (_id: string) => true,
): { id: string; score: number }[] {
  return [...rows]
    .filter(([id]) => keep(id))
    .map(([id, v]) => ({ id, score: dot(query, v) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, k)
}

/** An index holding `vectors` as `m0`, `m1`, …, and the same rows in a map for {@link naive}. */
export function build(
  vectors: Float32Array[],
  options: VectorIndexOptions = {},
  groupOf = (_i: number) => 0,
): { index: VectorIndex; rows: Map<string, Float32Array> } {
  const index = new VectorIndex(vectors[0]?.length ?? 8, options)
  const rows = new Map<string, Float32Array>()
  vectors.forEach((v, i) => {
    index.add(`m${i}`, v, groupOf(i))
    rows.set(`m${i}`, v)
  })
  return { index, rows }
}

export const backends: { name: string; wasm: boolean }[] = [
  { name: 'SIMD', wasm: true },
  { name: 'JS', wasm: false },
]
