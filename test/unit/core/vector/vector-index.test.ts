import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import {
  DEFAULT_VECTOR_INDEX_OPTIONS,
  VECTOR_SNAPSHOT_VERSION,
  VectorIndex,
} from '../../../../src/core/vector/index.ts'
import {
  backends,
  build,
  clusteredVectors,
  dot,
  naive,
  rng,
  SEED,
  unitVectors,
} from './fixtures.ts'

describe('VectorIndex', () => {
  it('scans with WebAssembly SIMD in Node', () => {
    expect(new VectorIndex(384).backend).toBe('wasm')
    expect(new VectorIndex(384, { wasm: false }).backend).toBe('js')
  })

  for (const { name, wasm } of backends) {
    describe(`with the ${name} scan`, () => {
      it('returns exactly the naive top-k when every row is re-scored exactly', () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 1, max: 60 }),
            fc.integer({ min: 1, max: 40 }),
            fc.integer({ min: 1, max: 12 }),
            fc.integer(),
            (count, dims, k, seed) => {
              const vectors = unitVectors(count + 1, dims, seed)
              const query = vectors.pop() as Float32Array
              const { index, rows } = build(vectors, { exact: 'memory', wasm, rescore: 64 })
              expect(index.search(query, k)).toEqual(naive(rows, query, k))
            },
          ),
          { seed: SEED, numRuns: 150 },
        )
      })

      it('returns near-exact scores and the naive top-k up to near-ties without a float copy', () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 1, max: 80 }),
            fc.integer({ min: 2, max: 48 }),
            fc.integer({ min: 1, max: 10 }),
            fc.integer(),
            (count, dims, k, seed) => {
              const vectors = unitVectors(count + 1, dims, seed)
              const query = vectors.pop() as Float32Array
              const { index, rows } = build(vectors, { wasm })
              // Reconstruction error is at most a quarter step per component, plus float32
              // rounding of the sums (a regression: 1e-6 was exceeded by 2.4e-6 at seed 1290383929).
              const l1 = query.reduce((s, x) => s + Math.abs(x), 0)
              const bound = (v: Float32Array) =>
                (l1 * 0.25 * Math.max(...v.map(Math.abs))) / 127 + 1e-5
              const hits = index.search(query, k)
              const exact = naive(rows, query, k)
              expect(hits.map((h) => h.id).length).toBe(exact.length)
              const kth = exact[exact.length - 1]?.score ?? 0
              for (const hit of hits) {
                const v = rows.get(hit.id) as Float32Array
                expect(Math.abs(hit.score - dot(query, v))).toBeLessThanOrEqual(bound(v))
                expect(dot(query, v)).toBeGreaterThanOrEqual(kth - 2 * bound(v) - 2e-3)
              }
            },
          ),
          { seed: SEED, numRuns: 150 },
        )
      })

      it('finds the nearest neighbour of a stored vector first, with a score near 1', () => {
        const vectors = unitVectors(500, 384, 7)
        const { index } = build(vectors, { wasm })
        const [hit] = index.search(vectors[123] as Float32Array, 1)
        expect(hit?.id).toBe('m123')
        expect(hit?.score).toBeCloseTo(1, 3)
      })
    })
  }

  it('keeps every score within half a residual bin per component, for 0..8 refine bits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 2, max: 48 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer(),
        (count, dims, refineBits, seed) => {
          const vectors = unitVectors(count + 1, dims, seed)
          const query = vectors.pop() as Float32Array
          const { index, rows } = build(vectors, { refineBits })
          const l1 = (v: Float32Array) => v.reduce((s, x) => s + Math.abs(x), 0)
          const maxAbs = (v: Float32Array) => Math.max(...v.map(Math.abs))
          // Rows: step / 2^(bits+1) per component. Query: int16 codes, half of max / 32767 each.
          const bound = (v: Float32Array) =>
            (l1(query) * maxAbs(v)) / 127 / 2 ** (refineBits + 1) +
            (l1(v) * maxAbs(query)) / (2 * 32_767) +
            1e-6
          for (const hit of index.search(query, count)) {
            const v = rows.get(hit.id) as Float32Array
            expect(Math.abs(hit.score - dot(query, v))).toBeLessThanOrEqual(bound(v))
          }
        },
      ),
      { seed: SEED, numRuns: 200 },
    )
  })

  it('finds at least 99% of the exact float32 top 10 on a crowded clustered set (5k × 384)', () => {
    const vectors = clusteredVectors(5100, 384, 50, 1)
    const queries = vectors.splice(5000)
    const rows = new Map(vectors.map((v, i) => [`m${i}`, v]))
    const exact = queries.map((q) => new Set(naive(rows, q, 10).map((h) => h.id)))
    const recall = (index: VectorIndex) => {
      let found = 0
      queries.forEach((q, i) => {
        for (const hit of index.search(q, 10)) if (exact[i]?.has(hit.id)) found++
      })
      return found / (10 * queries.length)
    }
    const byDefault = recall(build(vectors).index)
    expect(byDefault).toBeGreaterThanOrEqual(0.99)
    // The set is crowded enough to tell: one residual bit (the layout of version 1) misses more.
    expect(recall(build(vectors, { refineBits: 1 }).index)).toBeLessThan(byDefault)
  })

  it('gives the same results from the SIMD and the JS scan, for odd and large dims', () => {
    for (const dims of [7, 100, 384, 1000]) {
      const vectors = unitVectors(300, dims, dims)
      const query = unitVectors(1, dims, 99)[0] as Float32Array
      const a = build(vectors, { wasm: true }).index.search(query, 20)
      const b = build(vectors, { wasm: false }).index.search(query, 20)
      expect(a).toEqual(b)
    }
  })

  it('keeps size, ids and results consistent through adds, replacements and removals', () => {
    const vectors = unitVectors(200, 32, 3)
    const { index, rows } = build(vectors, { exact: 'memory', rescore: 500 })
    const random = rng(5)
    for (let step = 0; step < 300; step++) {
      const id = `m${Math.floor(random() * 260)}`
      if (random() < 0.4) {
        expect(index.remove(id)).toBe(rows.delete(id))
      } else {
        const v = unitVectors(1, 32, step + 1000)[0] as Float32Array
        index.add(id, v)
        rows.set(id, v)
      }
      expect(index.size).toBe(rows.size)
    }
    expect(index.ids().sort()).toEqual([...rows.keys()].sort())
    for (const id of rows.keys()) expect(index.has(id)).toBe(true)
    const query = unitVectors(1, 32, 77)[0] as Float32Array
    expect(index.search(query, 15)).toEqual(naive(rows, query, 15))
  })

  it('replaces an existing id in place, group included', () => {
    const [a, b] = unitVectors(2, 16, 11) as [Float32Array, Float32Array]
    const index = new VectorIndex(16)
    index.add('x', a, 1)
    index.add('x', b, 2)
    expect(index.size).toBe(1)
    expect(index.search(b, 1)[0]?.score).toBeCloseTo(1, 2)
    expect(index.search(b, 1, { groups: [1] })).toEqual([])
    expect(index.search(b, 1, { groups: [2] }).map((h) => h.id)).toEqual(['x'])
  })

  it('returns false when removing an unknown id', () => {
    expect(new VectorIndex(4).remove('nope')).toBe(false)
  })

  it('filters by group inside the scan, from a set or an array', () => {
    const vectors = unitVectors(300, 24, 21)
    const { index, rows } = build(vectors, { exact: 'memory' }, (i) => i % 5)
    const query = unitVectors(1, 24, 22)[0] as Float32Array
    const inGroups = (id: string) => [1, 3].includes(Number(id.slice(1)) % 5)
    const expected = naive(rows, query, 10, inGroups)
    expect(index.search(query, 10, { groups: new Set([1, 3]) })).toEqual(expected)
    expect(index.search(query, 10, { groups: [3, 1] })).toEqual(expected)
    expect(index.search(query, 10, { groups: [] })).toEqual([])
  })

  it('over-fetches to fill k when accept rejects most candidates', () => {
    const vectors = unitVectors(2000, 16, 31)
    const { index, rows } = build(vectors, { exact: 'memory', rescore: 10 })
    const query = unitVectors(1, 16, 32)[0] as Float32Array
    const keep = (id: string) => id.endsWith('7')
    const asked: string[] = []
    const hits = index.search(query, 10, {
      accept: (id) => {
        asked.push(id)
        return keep(id)
      },
    })
    expect(hits).toEqual(naive(rows, query, 10, keep))
    expect(new Set(asked).size).toBe(asked.length)
    expect(asked.length).toBeLessThan(2000)
  })

  for (const { name, wasm } of backends) {
    it(`selects candidates through a sampled threshold as a full pass would (${name})`, () => {
      // 20k rows against a pool of 10..640: the sampled selection, widening, then a full pass.
      const vectors = unitVectors(20_000, 16, 33)
      const { index, rows } = build(vectors, { exact: 'memory', rescore: 10, wasm }, (i) => i % 50)
      const query = unitVectors(1, 16, 34)[0] as Float32Array
      const keep = (id: string) => id.endsWith('7')
      expect(index.search(query, 2)).toEqual(naive(rows, query, 2))
      expect(index.search(query, 10, { accept: keep })).toEqual(naive(rows, query, 10, keep))
      const inGroup3 = (id: string) => Number(id.slice(1)) % 50 === 3
      expect(index.search(query, 3, { groups: [3] })).toEqual(naive(rows, query, 3, inGroup3))
    })
  }

  it('combines the group filter with accept', () => {
    const vectors = unitVectors(400, 16, 41)
    const { index, rows } = build(vectors, { exact: 'memory' }, (i) => i % 2)
    const query = unitVectors(1, 16, 42)[0] as Float32Array
    const keep = (id: string) => Number(id.slice(1)) % 2 === 1 && Number(id.slice(1)) % 3 === 0
    const hits = index.search(query, 5, {
      groups: [1],
      accept: (id) => Number(id.slice(1)) % 3 === 0,
    })
    expect(hits).toEqual(naive(rows, query, 5, keep))
  })

  it('returns nothing for k = 0 or an empty index', () => {
    const index = new VectorIndex(4)
    const q = Float32Array.of(1, 0, 0, 0)
    expect(index.search(q, 5)).toEqual([])
    index.add('a', q)
    expect(index.search(q, 0)).toEqual([])
  })

  it('returns every row when k exceeds the size', () => {
    const { index } = build(unitVectors(3, 8, 51))
    expect(index.search(unitVectors(1, 8, 52)[0] as Float32Array, 10)).toHaveLength(3)
  })

  for (const exact of ['none', 'memory'] as const) {
    it(`round-trips through a structured clone of its snapshot (exact: ${exact})`, () => {
      const vectors = unitVectors(500, 48, 61)
      const { index } = build(vectors, { exact, rescore: 50 }, (i) => i % 3)
      index.remove('m10')
      index.add('m20', unitVectors(1, 48, 62)[0] as Float32Array, 2)
      const snapshot = structuredClone(index.serialize())
      expect(snapshot.version).toBe(VECTOR_SNAPSHOT_VERSION)
      expect(snapshot.codes).toBeInstanceOf(Int8Array)
      const restored = VectorIndex.deserialize(snapshot)
      expect(restored.size).toBe(index.size)
      expect(restored.ids()).toEqual(index.ids())
      for (const query of unitVectors(20, 48, 63)) {
        expect(restored.search(query, 10)).toEqual(index.search(query, 10))
        expect(restored.search(query, 5, { groups: [2] })).toEqual(
          index.search(query, 5, { groups: [2] }),
        )
      }
    })
  }

  it('loads a snapshot sized exactly, and keeps accepting adds', () => {
    const { index } = build(unitVectors(1000, 64, 71))
    const restored = VectorIndex.deserialize(index.serialize())
    expect(restored.memoryBytes()).toBeLessThanOrEqual(index.memoryBytes())
    restored.add('new', unitVectors(1, 64, 72)[0] as Float32Array)
    expect(restored.size).toBe(1001)
    expect(restored.has('new')).toBe(true)
  })

  it('refuses a snapshot of another version, a broken one, or one without the vectors it needs', () => {
    const { index } = build(unitVectors(10, 8, 81))
    const snapshot = index.serialize()
    expect(() => VectorIndex.deserialize({ ...snapshot, version: 99 })).toThrow(InvalidInputError)
    expect(() => VectorIndex.deserialize({ ...snapshot, scales: new Float32Array(3) })).toThrow(
      /lengths/,
    )
    expect(() => VectorIndex.deserialize({ ...snapshot, stride: 32 })).toThrow(/stride/)
    expect(() =>
      VectorIndex.deserialize({ ...snapshot, ids: snapshot.ids.map(() => 'same') }),
    ).toThrow(/unique/)
    expect(() => VectorIndex.deserialize(snapshot, { exact: 'memory' })).toThrow(/memory/)
    expect(() => VectorIndex.deserialize(snapshot, { refineBits: 1 })).toThrow(/refineBits/)
    expect(() => VectorIndex.deserialize({ ...snapshot, refineBits: 2 })).toThrow(/lengths/)
  })

  it('throws BAD_VECTOR for a vector or query of the wrong dims or with NaN', () => {
    const index = new VectorIndex(4)
    const expectBadVector = (fn: () => unknown, field: string) => {
      try {
        fn()
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInputError)
        expect((error as InvalidInputError).code).toBe('BAD_VECTOR')
        expect((error as InvalidInputError).field).toBe(field)
      }
    }
    expectBadVector(() => index.add('a', new Float32Array(3)), 'vector')
    expectBadVector(() => index.add('a', Float32Array.of(1, 0, Number.NaN, 0)), 'vector')
    expectBadVector(() => index.search(new Float32Array(5), 1), 'query')
    expectBadVector(() => index.add('a', [1, 0, 0, 0] as unknown as Float32Array), 'vector')
    expect(index.size).toBe(0)
  })

  it('throws BAD_OPTION for bad dims, group, k or options', () => {
    expect(() => new VectorIndex(0)).toThrow(/dims/)
    expect(() => new VectorIndex(4, { rescore: 0 })).toThrow(/rescore/)
    expect(() => new VectorIndex(4, { exact: 'disk' as 'none' })).toThrow(/exact/)
    expect(() => new VectorIndex(4, { refineBits: 9 })).toThrow(/refineBits/)
    expect(() => new VectorIndex(4, { refineBits: 1.5 })).toThrow(/refineBits/)
    expect(new VectorIndex(4, { refineBits: undefined }).refineBits).toBe(
      DEFAULT_VECTOR_INDEX_OPTIONS.refineBits,
    )
    const index = new VectorIndex(4)
    expect(() => index.add('a', new Float32Array(4), 70_000)).toThrow(/group/)
    expect(() => index.add('a', new Float32Array(4), -1)).toThrow(/group/)
    expect(() => index.search(new Float32Array(4), -1)).toThrow(/k/)
  })

  it('stores a zero vector and scores it 0', () => {
    const index = new VectorIndex(4)
    index.add('zero', new Float32Array(4))
    expect(index.search(Float32Array.of(1, 0, 0, 0), 1)).toEqual([{ id: 'zero', score: 0 }])
  })

  it('holds 384 code bytes, 48 per refine bit and 18 more per 384-dim vector without a float copy', () => {
    const vectors = unitVectors(20_000, 384, 91)
    for (const refineBits of [0, 1, 3]) {
      const index = new VectorIndex(384, { refineBits })
      index.reserve(vectors.length)
      for (const [i, v] of vectors.entries()) index.add(String(i), v)
      index.search(vectors[0] as Float32Array, 10)
      // 18: the step, the group and the scan's three scratch words; then the refiner's table
      // and WebAssembly's 64 KiB pages, under 10 bytes a row at 20k rows.
      const perRow = index.memoryBytes() / vectors.length
      expect(perRow).toBeGreaterThan(384 + 48 * refineBits + 18)
      expect(perRow).toBeLessThan(384 + 48 * refineBits + 18 + 10)
    }
  })

  it('empties on clear and can be filled again', () => {
    const { index } = build(unitVectors(50, 8, 95))
    index.clear()
    expect(index.size).toBe(0)
    expect(index.ids()).toEqual([])
    index.add('a', Float32Array.of(1, 0, 0, 0, 0, 0, 0, 0))
    expect(index.search(Float32Array.of(1, 0, 0, 0, 0, 0, 0, 0), 3).map((h) => h.id)).toEqual(['a'])
  })

  it('scores just the ids asked with the precision of search, best first, without unknown ids', () => {
    for (const exact of ['none', 'memory'] as const) {
      const vectors = unitVectors(300, 384, 97)
      const index = new VectorIndex(384, { exact })
      for (const [i, v] of vectors.entries()) index.add(String(i), v)
      const query = unitVectors(1, 384, 98)[0] as Float32Array
      const everything = new Map(index.search(query, 300).map((h) => [h.id, h.score]))
      const asked = ['7', '250', '3', 'nope', '120']
      const scored = index.scoreIds(query, asked)
      expect(scored.map((h) => h.id).sort()).toEqual(['120', '250', '3', '7'])
      for (const hit of scored) expect(hit.score).toBe(everything.get(hit.id))
      for (let i = 1; i < scored.length; i++) {
        expect(scored[i - 1]!.score).toBeGreaterThanOrEqual(scored[i]!.score)
      }
      expect(index.scoreIds(query, [])).toEqual([])
    }
  })
})
