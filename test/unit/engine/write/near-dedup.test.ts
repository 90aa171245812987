import { describe, expect, it } from 'vitest'
import { BATCH_EXACT_BELOW } from '../../../../src/core/vector/batch-near.ts'
import { nearDedup } from '../../../../src/engine/write/near-dedup.ts'
import { embedder, indexed, NEAR_A, NEAR_B, row, write } from '../fixtures.ts'

async function vectorsOf(texts: string[]): Promise<Map<number, Float32Array>> {
  const vectors = await embedder.embed(texts, { kind: 'passage' })
  return new Map(vectors.map((v, i) => [i, v]))
}

describe('nearDedup', () => {
  it('matches a stored near duplicate of the same namespace and type only', async () => {
    const indexes = await indexed([row('m1', NEAR_A)])
    const items = [write(NEAR_B), write(NEAR_B, { namespace: 'work' })]
    const found = nearDedup(items, [0, 1], await vectorsOf([NEAR_B, NEAR_B]), indexes, 0.97)
    expect([...found.stored.keys()]).toEqual([0])
    expect(found.stored.get(0)?.id).toBe('m1')
    expect(found.stored.get(0)?.similarity).toBeGreaterThanOrEqual(0.97)
    expect(found.fresh).toEqual([1])
  })

  it('matches an earlier new item of the batch', async () => {
    const indexes = await indexed([])
    const found = nearDedup(
      [write(NEAR_A), write(NEAR_B)],
      [0, 1],
      await vectorsOf([NEAR_A, NEAR_B]),
      indexes,
      0.97,
    )
    expect(found.fresh).toEqual([0])
    expect(found.repeats.get(1)?.first).toBe(0)
  })

  it('keeps items below the threshold, and items without a vector, as new', async () => {
    const indexes = await indexed([row('m1', NEAR_A)])
    const items = [write(NEAR_B), write('something else entirely')]
    const vectors = await vectorsOf([NEAR_B])
    expect(nearDedup(items, [0, 1], vectors, indexes, 0.999).fresh).toEqual([0, 1])
  })

  it('compares an item only with earlier items kept as new, not with repeats', async () => {
    const indexes = await indexed([])
    const dims = embedder.dims
    // b repeats a (cosine 0.98); c is at 0.98 from b but about 0.92 from a: b is not stored,
    // so c is new.
    const a = new Float32Array(dims)
    a[0] = 1
    const b = new Float32Array(dims)
    b[0] = 0.98
    b[1] = Math.sqrt(1 - 0.98 ** 2)
    const c = new Float32Array(dims)
    const angle = 2 * Math.acos(0.98)
    c[0] = Math.cos(angle)
    c[1] = Math.sin(angle)
    const items = [write('alpha note'), write('alpha note again'), write('alpha note again twice')]
    const found = nearDedup(
      items,
      [0, 1, 2],
      new Map([
        [0, a],
        [1, b],
        [2, c],
      ]),
      indexes,
      0.97,
    )
    expect(found.repeats.get(1)?.first).toBe(0)
    expect(found.fresh).toEqual([0, 2])
  })

  it('finds repeats inside a batch too large to compare pair by pair', async () => {
    const indexes = await indexed([])
    const texts = Array.from(
      { length: BATCH_EXACT_BELOW + 100 },
      (_, i) => `note number ${i}: the ${['red', 'green', 'blue'][i % 3]} box ${i * 7919}`,
    )
    // Every tenth text again, reworded so exact dedup does not catch it.
    const repeated = texts.filter((_, i) => i % 10 === 0).map((t) => `${t} .`)
    const all = [...texts, ...repeated]
    const found = nearDedup(
      all.map((t) => write(t)),
      all.map((_, i) => i),
      await vectorsOf(all),
      indexes,
      0.97,
    )
    for (const [k, i] of repeated.map((_, k) => [k, texts.length + k] as const)) {
      expect(found.repeats.get(i)?.first).toBe(k * 10)
    }
    expect(found.fresh.length).toBe(texts.length)
  })
})
