import { describe, expect, it } from 'vitest'
import { EmbedderUnavailableError } from '../../../src/core/errors.ts'
import { LoadOnce } from '../../../src/embedder/load-once.ts'

/** A model stand-in that counts its loads and releases; the lifecycle is what is under test. */
function counted(failures = 0) {
  const counts = { opened: 0, closed: 0 }
  let left = failures
  const once = new LoadOnce<{ id: number }>(
    'test-model',
    async () => {
      counts.opened++
      await new Promise((r) => setTimeout(r, 5))
      if (left-- > 0) throw new Error('disk unplugged')
      return { id: counts.opened }
    },
    () => {
      counts.closed++
    },
  )
  return { once, counts }
}

describe('LoadOnce', () => {
  it('shares one load between concurrent callers and runs work after it', async () => {
    const { once, counts } = counted()
    expect(once.state).toBe('idle')
    const a = once.load()
    const b = once.load()
    expect(b).toBe(a)
    expect(once.state).toBe('loading')
    const id = await once.run(async (model) => model.id)
    await Promise.all([a, b])
    expect(id).toBe(1)
    expect(counts.opened).toBe(1)
    expect(once.state).toBe('ready')
    expect(once.loadMs).toBeGreaterThan(0)
  })

  it('forgets a failed load: run() rejects at once, and load() tries again', async () => {
    const { once, counts } = counted(1)
    await expect(once.load()).rejects.toThrow(EmbedderUnavailableError)
    expect(once.state).toBe('failed')
    expect(once.error).toBe('disk unplugged')
    await expect(once.run(async () => 0)).rejects.toThrow(
      /test-model failed to load: disk unplugged/,
    )
    expect(counts.opened).toBe(1)
    await once.load()
    expect(once.state).toBe('ready')
    expect(once.error).toBeUndefined()
    expect(counts.opened).toBe(2)
  })

  it('names the model in the error that wraps a load failure, keeping the cause', async () => {
    const { once } = counted(1)
    const error = await once.load().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    expect((error as Error).message).toBe('could not load test-model: disk unplugged')
    expect(((error as Error).cause as Error).message).toBe('disk unplugged')
  })

  it('runs one piece of work at a time, in call order, and a failure does not block the next', async () => {
    const { once } = counted()
    const log: string[] = []
    const work = (name: string, ms: number, fail = false) =>
      once.run(async () => {
        log.push(`start ${name}`)
        await new Promise((r) => setTimeout(r, ms))
        log.push(`end ${name}`)
        if (fail) throw new Error(name)
        return name
      })
    const results = await Promise.allSettled([work('a', 20, true), work('b', 1), work('c', 1)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled'])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
  })

  it('waits for work in flight on dispose, releases once, and loads again after', async () => {
    const { once, counts } = counted()
    let finished = false
    const running = once.run(async () => {
      await new Promise((r) => setTimeout(r, 10))
      finished = true
    })
    await once.load()
    await once.dispose()
    expect(finished).toBe(true)
    await running
    expect(counts.closed).toBe(1)
    expect(once.state).toBe('idle')
    expect(once.value).toBeUndefined()
    expect(await once.run(async (model) => model.id)).toBe(2)
  })
})
