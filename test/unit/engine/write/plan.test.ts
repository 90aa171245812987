import { describe, expect, it } from 'vitest'
import { exactDedup } from '../../../../src/engine/write/exact-dedup.ts'
import { nearDedup } from '../../../../src/engine/write/near-dedup.ts'
import { planBatch, toMemory } from '../../../../src/engine/write/plan.ts'
import { embedder, indexed, NEAR_A, NEAR_B, row, write } from '../fixtures.ts'

async function plan(items: ReturnType<typeof write>[], stored: ReturnType<typeof row>[] = []) {
  const indexes = await indexed(stored)
  const exact = exactDedup(items, indexes)
  const embedded = await embedder.embed(
    exact.candidates.map((i) => items[i]!.text),
    { kind: 'passage' },
  )
  const vectors = new Map(exact.candidates.map((i, j) => [i, embedded[j]!]))
  const near = nearDedup(items, exact.candidates, vectors, indexes, 0.97)
  let n = 0
  return planBatch(items, exact, near, vectors, { indexes, newId: () => `new${++n}`, now: 7 })
}

describe('planBatch', () => {
  it('gives each new item a row and each repeat the id of what it repeats', async () => {
    const p = await plan([write('alpha fact'), write('Alpha fact!'), write('beta fact')])
    expect(p.results).toEqual([
      { id: 'new1', status: 'created' },
      { id: 'new1', status: 'duplicate', match: 'exact' },
      { id: 'new2', status: 'created' },
    ])
    expect(p.fresh.map((f) => [f.memory.id, f.memory.confirmations, f.vector?.length])).toEqual([
      ['new1', 2, 384],
      ['new2', 1, 384],
    ])
    expect(p.confirmations.size).toBe(0)
  })

  it('confirms stored memories, saying what each was matched on', async () => {
    const p = await plan(
      [write('stored fact'), write(NEAR_B), write('STORED FACT')],
      [row('s1', 'stored fact'), row('s2', NEAR_A)],
    )
    expect(p.results.map((r) => [r.id, r.match])).toEqual([
      ['s1', 'exact'],
      ['s2', 'near'],
      ['s1', 'exact'],
    ])
    expect(p.fresh).toEqual([])
    expect([...p.confirmations]).toEqual([
      ['s1', { count: 2, namespace: 'default', type: 'fact', key: 'stored fact' }],
      ['s2', { count: 1, namespace: 'default', type: 'fact' }],
    ])
  })

  it('resolves an exact repeat of an item that is itself a near repeat', async () => {
    const p = await plan([write(NEAR_A), write(NEAR_B), write(NEAR_B.toUpperCase())])
    expect(p.results.map((r) => [r.id, r.status, r.match])).toEqual([
      ['new1', 'created', undefined],
      ['new1', 'duplicate', 'near'],
      ['new1', 'duplicate', 'exact'],
    ])
    expect(p.fresh[0]!.memory.confirmations).toBe(3)
  })

  it('keeps an id an import asks for unless a memory or an earlier item has it', async () => {
    const p = await plan(
      [write('one', { id: 'kept' }), write('two', { id: 'taken' }), write('three', { id: 'kept' })],
      [row('taken', 'something stored')],
    )
    expect(p.results.map((r) => r.id)).toEqual(['kept', 'new1', 'new2'])
  })

  it('reports the flags of a memory stored flagged', async () => {
    const p = await plan([write('flagged text', { flags: ['override'] })])
    expect(p.results[0]).toEqual({ id: 'new1', status: 'created', flags: ['override'] })
  })
})

describe('toMemory', () => {
  it('builds a fresh row, then lays an import’s restored history over it', () => {
    const fresh = toMemory('m1', write('a fact', { createdAt: 3, expiresAt: 99 }), 7)
    expect(fresh).toMatchObject({
      id: 'm1',
      createdAt: 3,
      updatedAt: 7,
      confirmedAt: 7,
      confirmations: 1,
      recallCount: 0,
      expiresAt: 99,
    })
    const restored = toMemory(
      'm2',
      write('a fact', { restored: { confirmations: 4, recallCount: 9 } }),
      7,
    )
    expect(restored).toMatchObject({ confirmations: 4, recallCount: 9, updatedAt: 7 })
  })
})
