/**
 * Issue 22 §13: recalls were unbounded (a thousand at once held a thousand recalls' lists in the
 * heap together). Now at most `recallQueue.concurrency` run, `maxQueued` wait, and the rest are
 * refused with `RecallBusyError`. Recalls are held in flight by a `select` hook the test releases
 * by hand, so every count below is decided by the gate, not by timing.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError, RecallBusyError } from '../../../../src/core/errors.ts'
import { DEFAULT_RECALL_QUEUE } from '../../../../src/core/options.ts'
import type { RecallResult, SelectHook } from '../../../../src/core/types.ts'
import { closingEngines } from '../../../helpers/engine.ts'

const engine = closingEngines()

const NOTES = [
  'The deploy script is scripts/ship.sh',
  'Deploys need the smoke tests to pass first',
  'The owner prefers metric units',
]

/**
 * A `select` hook that holds its first `held` calls until `releaseAll()`, answers the others at
 * once, and counts how many calls are inside it at the same moment.
 */
function holdingHook(held: number) {
  const calls: string[] = []
  const releases: (() => void)[] = []
  let inside = 0
  let mostInside = 0
  let reached: () => void = () => {}
  const heldReached = new Promise<void>((resolve) => {
    reached = resolve
  })
  const select: SelectHook = async (query, hits) => {
    calls.push(query)
    inside++
    mostInside = Math.max(mostInside, inside)
    if (releases.length < held) {
      await new Promise<void>((resolve) => {
        releases.push(resolve)
        if (releases.length === held) reached()
      })
    }
    inside--
    return hits.map((h) => h.id)
  }
  return {
    select,
    calls,
    heldReached,
    mostInside: () => mostInside,
    releaseAll: () => {
      for (const release of releases) release()
    },
  }
}

/** Starts `n` recalls in one go; each settles to its result or its error. */
function burst(
  recall: (query: string) => Promise<RecallResult>,
  n: number,
): Promise<PromiseSettledResult<RecallResult>[]> {
  return Promise.allSettled(Array.from({ length: n }, (_, i) => recall(`deploy ${i}`)))
}

describe('recall queue', () => {
  it('runs two at once, queues three and refuses the other five with RecallBusyError', async () => {
    const e = await engine({ recallQueue: { concurrency: 2, maxQueued: 3 } })
    await e.rememberMany(NOTES.map((text) => ({ text })))
    const hook = holdingHook(2)
    const settling = burst((q) => e.recall(q, { select: hook.select, k: 3 }), 10)
    await hook.heldReached
    hook.releaseAll()
    const settled = await settling
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason)
    expect(refused).toHaveLength(5)
    for (const error of refused) {
      expect(error).toBeInstanceOf(RecallBusyError)
      expect(error).toMatchObject({ code: 'RECALL_BUSY', name: 'RecallBusyError' })
    }
    // The five answered are the first five asked (two ran at once, so their order may vary).
    expect([...hook.calls].sort()).toEqual([
      'deploy 0',
      'deploy 1',
      'deploy 2',
      'deploy 3',
      'deploy 4',
    ])
    expect(hook.mostInside()).toBe(2)
    for (const s of settled.slice(0, 5)) {
      expect(s.status).toBe('fulfilled')
      expect((s as PromiseFulfilledResult<RecallResult>).value.hits.length).toBeGreaterThan(0)
    }
  })

  it('logs only the recalls it answered, none it refused', async () => {
    const e = await engine({ recallQueue: { concurrency: 1, maxQueued: 1 } })
    await e.rememberMany(NOTES.map((text) => ({ text })))
    const hook = holdingHook(1)
    const settling = burst((q) => e.recall(q, { select: hook.select }), 4)
    await hook.heldReached
    hook.releaseAll()
    const settled = await settling
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected'])
    const logged = (await e.inspect.recallLog()).map((entry) => entry.query).sort()
    expect(logged).toEqual(['deploy 0', 'deploy 1'])
  })

  it('gives the next waiting recall its turn as each one finishes, so all are answered in time', async () => {
    const e = await engine({ recallQueue: { concurrency: 1, maxQueued: 20 } })
    await e.rememberMany(NOTES.map((text) => ({ text })))
    const hook = holdingHook(1)
    const settling = burst((q) => e.recall(q, { select: hook.select }), 21)
    await hook.heldReached
    expect(hook.calls).toEqual(['deploy 0'])
    hook.releaseAll()
    const settled = await settling
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true)
    expect(hook.calls).toEqual(Array.from({ length: 21 }, (_, i) => `deploy ${i}`))
    expect(hook.mostInside()).toBe(1)
  })

  it('applies the defaults: four running, 256 waiting', async () => {
    const e = await engine()
    await e.rememberMany(NOTES.map((text) => ({ text })))
    const { concurrency, maxQueued } = DEFAULT_RECALL_QUEUE
    expect([concurrency, maxQueued]).toEqual([4, 256])
    const hook = holdingHook(concurrency)
    const settling = burst(
      (q) => e.recall(q, { select: hook.select, log: false }),
      concurrency + maxQueued + 7,
    )
    await hook.heldReached
    hook.releaseAll()
    const settled = await settling
    expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(7)
    expect(hook.mostInside()).toBe(concurrency)
  })

  it('refuses a bad recallQueue with BAD_OPTION naming the field', async () => {
    const bad: [unknown, string][] = [
      [5, 'recallQueue'],
      [{ concurrency: 0 }, 'recallQueue.concurrency'],
      [{ concurrency: 65 }, 'recallQueue.concurrency'],
      [{ concurrency: 1.5 }, 'recallQueue.concurrency'],
      [{ maxQueued: -1 }, 'recallQueue.maxQueued'],
      [{ maxQueued: '8' }, 'recallQueue.maxQueued'],
      [{ burst: 2 }, 'recallQueue.burst'],
    ]
    for (const [recallQueue, field] of bad) {
      const error = await engine({ recallQueue: recallQueue as never }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidInputError)
      expect(error).toMatchObject({ code: 'BAD_OPTION', field })
    }
  })
})
