import { describe, expect, it } from 'vitest'
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
})
