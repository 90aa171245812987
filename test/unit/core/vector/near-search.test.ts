import { describe, expect, it } from 'vitest'
import { VectorIndex } from '../../../../src/core/vector/index.ts'
import { hamming, hammingBound, SimHasher } from '../../../../src/core/vector/simhash.ts'
import { clusteredVectors, normalise, rng, SEED, unitVectors } from './fixtures.ts'

const DIMS = 384

/** `base` moved by `eps` × a random unit direction, renormalised: cosine about 1/√(1+eps²). */
function nudge(base: Float32Array, eps: number, seed: number): Float32Array {
  const [noise] = unitVectors(1, base.length, seed) as [Float32Array]
  return normalise(base.map((x, i) => x + eps * (noise[i] as number)))
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number)
  return s
}

/** 2,000 random rows, 200 of them near copies of earlier rows (cosines about 0.95..0.995). */
function store(seed: number): Float32Array[] {
  const random = rng(seed)
  const rows = unitVectors(1800, DIMS, seed)
  for (let i = 0; i < 200; i++) {
    const base = rows[Math.floor(random() * rows.length)] as Float32Array
    rows.push(nudge(base, 0.1 + 0.2 * random(), seed + 10 + i))
  }
  return rows
}

/** Every row at `minScore` or more from `query`, by brute force, as ids. */
function exactNear(rows: Float32Array[], query: Float32Array, minScore: number): string[] {
  return rows.flatMap((v, r) => (cosine(v, query) >= minScore ? [String(r)] : []))
}

describe('SimHash codes', () => {
  it('differ in about acos(cos) / π of their bits', () => {
    const hasher = new SimHasher(DIMS)
    const [a] = unitVectors(1, DIMS, SEED) as [Float32Array]
    const b = nudge(a, 0.75, SEED + 1)
    const codes = new Uint32Array(2 * hasher.words)
    hasher.hash(a, 0, codes, 0)
    hasher.hash(b, 0, codes, hasher.words)
    const expected = (DIMS * Math.acos(cosine(a, b))) / Math.PI
    const got = hamming(codes, 0, codes, hasher.words, hasher.words)
    expect(Math.abs(got - expected)).toBeLessThan(5 * Math.sqrt(DIMS * 0.25))
    expect(got).toBeGreaterThan(0)
    expect(got).toBeLessThanOrEqual(hammingBound(cosine(a, b), DIMS))
  })

  it('are the same for a vector and its int8 codes scaled', () => {
    const hasher = new SimHasher(DIMS)
    const [a] = unitVectors(1, DIMS, SEED + 2) as [Float32Array]
    const scaled = a.map((x) => x * 3)
    const codes = new Uint32Array(2 * hasher.words)
    hasher.hash(a, 0, codes, 0)
    hasher.hash(scaled, 0, codes, hasher.words)
    expect(hamming(codes, 0, codes, hasher.words, hasher.words)).toBe(0)
  })
})

describe('VectorIndex.searchNear', () => {
  it('finds the near duplicates an exact scan finds, through the buckets', () => {
    const rows = store(SEED)
    const index = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      index.add(String(r), v)
    })
    let wanted = 0
    let found = 0
    for (let q = 1800; q < 2000; q++) {
      const query = rows[q] as Float32Array
      const exact = exactNear(rows, query, 0.95)
      const near = new Set(
        index.searchNear(query, 50, { minScore: 0.95, scanBelow: 0 }).map((h) => h.id),
      )
      wanted += exact.length
      found += exact.filter((id) => near.has(id)).length
      for (const id of near) expect(cosine(rows[Number(id)]!, query)).toBeGreaterThan(0.94)
    }
    expect(wanted).toBeGreaterThan(400)
    expect(found / wanted).toBeGreaterThanOrEqual(0.99)
  })

  it('finds the near duplicates among vectors sharing one direction, as sentence embeddings do', () => {
    const random = rng(SEED + 7)
    const rows = clusteredVectors(1800, DIMS, 20, SEED + 7)
    for (let i = 0; i < 200; i++) {
      const base = rows[Math.floor(random() * rows.length)] as Float32Array
      rows.push(nudge(base, 0.1 + 0.15 * random(), SEED + 500 + i))
    }
    const index = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      index.add(String(r), v)
    })
    let wanted = 0
    let found = 0
    for (let q = 1800; q < 2000; q++) {
      const query = rows[q] as Float32Array
      const exact = exactNear(rows, query, 0.97)
      const near = new Set(
        index.searchNear(query, 50, { minScore: 0.97, scanBelow: 0 }).map((h) => h.id),
      )
      wanted += exact.length
      found += exact.filter((id) => near.has(id)).length
    }
    expect(wanted).toBeGreaterThan(300)
    expect(found / wanted).toBeGreaterThanOrEqual(0.99)
  })

  it('returns only hits at minScore or more, best first, at most k', () => {
    const rows = store(SEED + 3)
    const index = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      index.add(String(r), v)
    })
    for (const scanBelow of [0, 1_000_000]) {
      const hits = index.searchNear(rows[1900]!, 2, { minScore: 0.9, scanBelow })
      expect(hits.length).toBeGreaterThan(0)
      expect(hits.length).toBeLessThanOrEqual(2)
      expect(hits[0]!.id).toBe('1900')
      for (const h of hits) expect(h.score).toBeGreaterThanOrEqual(0.9)
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a))
    }
  })

  it('keeps its buckets in step with add, replace and remove', () => {
    const rows = store(SEED + 4)
    const index = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      index.add(String(r), v)
    })
    const near = (q: Float32Array) =>
      index.searchNear(q, 5, { minScore: 0.97, scanBelow: 0 }).map((h) => h.id)
    // Builds the buckets, then every later change must reach them.
    expect(near(rows[0]!)).toContain('0')
    index.remove('0')
    expect(near(rows[0]!)).not.toContain('0')
    // Row 1999 moved into row 0's place: it must still be found under its id.
    expect(near(rows[1999]!)[0]).toBe('1999')
    const [fresh] = unitVectors(1, DIMS, SEED + 99) as [Float32Array]
    index.add('5', fresh)
    expect(near(rows[5]!)).not.toContain('5')
    expect(near(fresh)).toEqual(['5'])
    index.add('new', rows[7]!)
    expect(near(rows[7]!)).toEqual(expect.arrayContaining(['7', 'new']))
  })

  it('rebuilds its buckets from a snapshot’s rows', () => {
    const rows = store(SEED + 5)
    const index = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      index.add(String(r), v)
    })
    const restored = VectorIndex.deserialize(index.serialize())
    for (const q of [3, 1850, 1999]) {
      const query = rows[q] as Float32Array
      const options = { minScore: 0.95, scanBelow: 0 }
      expect(restored.searchNear(query, 10, options)).toEqual(index.searchNear(query, 10, options))
      expect(restored.searchNear(query, 10, options)[0]!.id).toBe(String(q))
    }
  })

  it('applies the group filter to bucket candidates', () => {
    const rows = store(SEED + 6)
    const index = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      index.add(String(r), v, r % 2)
    })
    const hits = index.searchNear(rows[10]!, 5, { minScore: 0.5, groups: [1], scanBelow: 0 })
    expect(hits.map((h) => h.id)).not.toContain('10')
    expect(
      index.searchNear(rows[10]!, 5, { minScore: 0.5, groups: [0], scanBelow: 0 })[0]!.id,
    ).toBe('10')
  })

  it('builds its codes and buckets up front when asked, answering as a lazy build does', () => {
    const rows = store(SEED + 7)
    const eager = new VectorIndex(DIMS)
    const lazy = new VectorIndex(DIMS)
    rows.forEach((v, r) => {
      eager.add(String(r), v)
      lazy.add(String(r), v)
    })
    const before = eager.memoryBytes()
    eager.prepareNear(1_000_000)
    expect(eager.memoryBytes()).toBe(before)
    eager.prepareNear(0)
    expect(eager.memoryBytes()).toBeGreaterThan(before)
    // Rows added after the build are filed as they come.
    const late = nudge(rows[42] as Float32Array, 0.1, SEED + 8)
    eager.add('late', late)
    lazy.add('late', late)
    for (const q of [late, rows[7] as Float32Array, rows[1990] as Float32Array]) {
      const options = { minScore: 0.95, scanBelow: 0 }
      expect(eager.searchNear(q, 10, options)).toEqual(lazy.searchNear(q, 10, options))
    }
    expect(eager.searchNear(late, 2, { minScore: 0.95, scanBelow: 0 }).map((h) => h.id)).toContain(
      'late',
    )
  })
})
