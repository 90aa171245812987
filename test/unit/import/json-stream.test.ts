import { describe, expect, it } from 'vitest'
import { ImportFormatError } from '../../../src/core/errors.ts'
import { streamArray } from '../../../src/import/json-stream.ts'
import { hashSeed, TEST_SEED, uniform } from '../../helpers/random.ts'

async function* pieces(text: string, cuts: number[]): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let at = 0
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(at, cut)
    at = cut
  }
}

async function all(text: string, cuts: number[] = []) {
  const out: unknown[] = []
  for await (const item of streamArray(pieces(text, cuts))) out.push(item.value)
  return out
}

describe('streamArray', () => {
  it('yields the same elements wherever the bytes are cut, inside strings and multi-byte characters too (seeded)', async () => {
    const value = [
      { a: 'é中😀 "q"', b: [1, 2, { c: null }] },
      'x',
      3.5,
      { mapping: { n: { parent: null } } },
    ]
    const text = `\uFEFF ${JSON.stringify(value, null, 1)}`
    const size = new TextEncoder().encode(text).length
    const next = uniform(hashSeed(`${TEST_SEED}:json-stream`))
    for (let i = 0; i < 50; i++) {
      const cuts = [...new Set(Array.from({ length: 6 }, () => Math.floor(next() * size)))].sort(
        (a, b) => a - b,
      )
      expect(await all(text, cuts)).toEqual(value)
    }
  })

  it('refuses a file that is not an array, an empty one, and broken JSON with the element being read', async () => {
    await expect(all('{"a":1}')).rejects.toThrow(/expected a JSON array/)
    await expect(all('   ')).rejects.toThrow(/empty file/)
    const broken = all('[{"a":1},{"b":2},{"c":')
    await expect(broken).rejects.toBeInstanceOf(ImportFormatError)
    await expect(all('[{"a":1},{"b":2},{"c":')).rejects.toThrow(/element 3/)
  })
})
