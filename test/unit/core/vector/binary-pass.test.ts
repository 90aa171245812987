import { describe, expect, it } from 'vitest'
import { hammingModuleBytes } from '../../../../src/core/vector/hamming-module.ts'
import { VectorIndex } from '../../../../src/core/vector/index.ts'
import { SignCodes } from '../../../../src/core/vector/sign-codes.ts'
import { hamming, SimHasher } from '../../../../src/core/vector/simhash.ts'
import { clusteredVectors, dot, naive, normalise, rng, SEED, unitVectors } from './fixtures.ts'

const DIMS = 384

/** `base` moved by `eps` × a random unit direction, renormalised. */
function nudge(base: Float32Array, eps: number, seed: number): Float32Array {
  const [noise] = unitVectors(1, base.length, seed) as [Float32Array]
  return normalise(base.map((x, i) => x + eps * (noise[i] as number)))
}

/** Clustered rows with a tenth of them close copies (cosines about 0.8..0.99) of earlier ones. */
function rowsWithNeighbours(count: number, seed: number): Float32Array[] {
  const random = rng(seed)
  const rows = clusteredVectors(Math.round(count * 0.9), DIMS, 40, seed)
  while (rows.length < count) {
    const base = rows[Math.floor(random() * rows.length)] as Float32Array
    rows.push(nudge(base, 0.15 + 0.6 * random(), seed + rows.length))
  }
  return rows
}

function indexOf(rows: Float32Array[], options = {}, groupOf = (_r: number) => 0): VectorIndex {
  const index = new VectorIndex(DIMS, options)
  rows.forEach((v, r) => {
    index.add(String(r), v, groupOf(r))
  })
  return index
}

describe('hammingModuleBytes', () => {
  it('assembles a valid module exporting hamming for codes of 1 to 32 64-bit words', () => {
    for (let words = 1; words <= 32; words++) {
      const bytes = hammingModuleBytes(words)
      expect(WebAssembly.validate(bytes)).toBe(true)
      expect(bytes.length).toBeLessThan(4096)
      const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name)
      expect(names).toEqual(['hamming'])
    }
  })
})

describe('SignCodes', () => {
  for (const dims of [384, 100]) {
    it(`gives every row's Hamming distance to the query, the same with WebAssembly and without (${dims} dims)`, () => {
      const hasher = new SimHasher(dims)
      const rows = unitVectors(300, dims, SEED + dims)
      const centre = new Float32Array(dims).fill(0.01)
      const wasm = new SignCodes(hasher, centre, true)
      const js = new SignCodes(hasher, centre, false)
      expect(wasm.kind).toBe('wasm')
      expect(js.kind).toBe('js')
      // Rows added one by one, so both grow through several reserves with codes kept in place.
      rows.forEach((v, r) => {
        wasm.set(r, v, 0, 1)
        js.set(r, v, 0, 1)
      })
      const query = rows[7] as Float32Array
      const q = Uint32Array.from(wasm.hashQuery(query))
      js.hashQuery(query)
      const a = wasm.distances(rows.length).slice(0, rows.length)
      const b = js.distances(rows.length).slice(0, rows.length)
      expect(a).toEqual(b)
      expect(a[7]).toBe(0)
      for (let r = 0; r < rows.length; r += 37) {
        expect(a[r]).toBe(hamming(js.codes, r * js.stride, q, 0, js.words))
      }
      // Unrelated random directions differ in about half their bits.
      const mean = a.reduce((s, d) => s + d, 0) / a.length
      expect(mean).toBeGreaterThan(0.4 * hasher.words * 32)
    })
  }
})

describe('VectorIndex.search through the binary first pass', () => {
  it('finds the exact top 10 about as often as the int8 scan does', () => {
    const rows = clusteredVectors(4000, DIMS, 40, SEED + 11)
    const queries = clusteredVectors(4030, DIMS, 40, SEED + 11).slice(4000)
    const scan = indexOf(rows, { binaryAbove: Number.POSITIVE_INFINITY })
    const binary = VectorIndex.deserialize(scan.serialize(), { binaryAbove: 0, binaryPool: 500 })
    const truth = new Map(rows.map((v, r) => [String(r), v]))
    let scanFound = 0
    let binaryFound = 0
    for (const query of queries) {
      const exact = new Set(naive(truth, query, 10).map((h) => h.id))
      for (const h of scan.search(query, 10)) if (exact.has(h.id)) scanFound++
      for (const h of binary.search(query, 10)) if (exact.has(h.id)) binaryFound++
    }
    expect(binaryFound / (10 * queries.length)).toBeGreaterThanOrEqual(0.97)
    expect(binaryFound).toBeGreaterThanOrEqual(scanFound - 3)
  }, 120_000)

  it('honours the group filter and accept, widening until k hits are found', () => {
    const rows = clusteredVectors(3000, DIMS, 30, SEED + 12)
    const index = indexOf(rows, { binaryAbove: 0, binaryPool: 200 }, (r) => r % 3)
    const query = rows[5] as Float32Array
    const accept = (id: string) => Number(id) % 2 === 0
    const hits = index.search(query, 20, { groups: [2], accept })
    expect(hits).toHaveLength(20)
    for (const h of hits) {
      expect(Number(h.id) % 3).toBe(2)
      expect(Number(h.id) % 2).toBe(0)
    }
    const truth = new Map(rows.map((v, r) => [String(r), v]))
    const keep = (id: string) => Number(id) % 3 === 2 && accept(id)
    const exact = naive(truth, query, 20, keep).map((h) => h.id)
    expect(hits.filter((h) => exact.includes(h.id)).length).toBeGreaterThanOrEqual(18)
  })

  it('keeps its codes in step with add, replace and remove', () => {
    const rows = clusteredVectors(2000, DIMS, 20, SEED + 13)
    const index = indexOf(rows, { binaryAbove: 0 })
    expect(index.search(rows[0]!, 1)[0]!.id).toBe('0')
    index.remove('0')
    expect(index.search(rows[0]!, 5).map((h) => h.id)).not.toContain('0')
    // Row 1999 moved into row 0's place: it must still be found under its id.
    expect(index.search(rows[1999]!, 1)[0]!.id).toBe('1999')
    const [fresh] = unitVectors(1, DIMS, SEED + 98) as [Float32Array]
    index.add('5', fresh)
    expect(index.search(fresh, 1)[0]).toEqual({ id: '5', score: expect.closeTo(1, 3) })
    expect(index.search(rows[5]!, 3).map((h) => h.id)).not.toContain('5')
  })
})

describe('VectorIndex.searchNear below the bands’ floor', () => {
  it('finds the rows an exact scan finds at a cosine of 0.8 or more, through the binary pass', () => {
    const rows = rowsWithNeighbours(4000, SEED + 14)
    const index = indexOf(rows)
    let wanted = 0
    let found = 0
    for (let q = 3600; q < 4000; q += 2) {
      const query = rows[q] as Float32Array
      const exact = rows
        .map((v, r) => ({ id: String(r), score: dot(v, query) }))
        .filter((h) => h.score >= 0.8 && h.id !== String(q))
        .sort((a, b) => b.score - a.score)
        .slice(0, 3)
      const near = index.searchNear(query, 4, { minScore: 0.8, scanBelow: 0 })
      for (const h of near) expect(h.score).toBeGreaterThanOrEqual(0.8)
      const got = new Set(near.map((h) => h.id))
      wanted += exact.length
      found += exact.filter((h) => got.has(h.id)).length
    }
    expect(wanted).toBeGreaterThan(150)
    expect(found / wanted).toBeGreaterThanOrEqual(0.99)
  }, 120_000)

  it('applies the group filter to the binary pass', () => {
    const rows = rowsWithNeighbours(3000, SEED + 15)
    const index = indexOf(rows, {}, (r) => r % 2)
    const hits = index.searchNear(rows[10]!, 5, { minScore: 0.5, groups: [1], scanBelow: 0 })
    expect(hits.map((h) => h.id)).not.toContain('10')
    for (const h of hits) expect(Number(h.id) % 2).toBe(1)
    expect(
      index.searchNear(rows[10]!, 5, { minScore: 0.5, groups: [0], scanBelow: 0 })[0]!.id,
    ).toBe('10')
  })
})
