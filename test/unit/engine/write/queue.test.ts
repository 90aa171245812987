import { describe, expect, it } from 'vitest'
import { WriteQueue } from '../../../../src/engine/write/queue.ts'

describe('WriteQueue', () => {
  it('runs tasks one after another, in the order they were queued', async () => {
    const queue = new WriteQueue()
    const order: string[] = []
    let release!: () => void
    const first = queue.run(async () => {
      order.push('first starts')
      await new Promise<void>((resolve) => {
        release = resolve
      })
      order.push('first ends')
    })
    const second = queue.run(async () => {
      order.push('second')
    })
    await Promise.resolve()
    expect(queue.pending).toBe(2)
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['first starts', 'first ends', 'second'])
    expect(queue.pending).toBe(0)
  })

  it('settles its demand when a task is queued behind, so a waiting task can give way', async () => {
    const queue = new WriteQueue()
    const seen: string[] = []
    const waiting = queue.run(async () => {
      await queue.demand
      seen.push('gave way')
    })
    await Promise.resolve()
    expect(seen).toEqual([])
    await queue.run(async () => {
      seen.push('behind')
    })
    await waiting
    expect(seen).toEqual(['gave way', 'behind'])
  })

  it('settles its demand when drained', async () => {
    const queue = new WriteQueue()
    let gaveWay = false
    void queue.run(async () => {
      await queue.demand
      gaveWay = true
    })
    await Promise.resolve()
    await queue.drain()
    expect(gaveWay).toBe(true)
  })
})
