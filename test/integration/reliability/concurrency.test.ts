/**
 * Concurrency and load: a burst of 1,000 concurrent writes, and two engines on one database (two
 * tabs), with and without a shared write lock.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { dedupKey } from '../../../src/core/text.ts'
import type { RememberResult } from '../../../src/core/types.ts'
import {
  expectVerified,
  FaultInjector,
  fact,
  freshFactory,
  openEngine,
  readTables,
  tally,
  writeTally,
} from './harness.ts'

afterAll(() => writeTally('concurrency'))

/** Serialises engines like a per-database Web Lock would. */
function sharedLock(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task, task)
    tail = run.catch(() => {})
    return run
  }
}

/** The same fact spelt differently: case, spacing, punctuation. All share one dedup key. */
function variant(text: string, n: number): string {
  switch (n % 4) {
    case 0:
      return text
    case 1:
      return text.toUpperCase()
    case 2:
      return `  ${text.replace(/ /g, '   ')}  `
    default:
      return `${text}!`
  }
}

describe('concurrency and load', () => {
  it('coalesces 1,000 concurrent remember calls into few transactions, storing each fact once', async () => {
    const idb = freshFactory()
    const faults = new FaultInjector()
    const e = await openEngine('burst', idb, faults)
    const distinct = 200
    const texts = Array.from({ length: 1000 }, (_, i) => variant(fact(i % distinct), i))
    faults.arm({})
    const results = await Promise.all(texts.map((text) => e.remember(text)))
    expect(faults.writeTransactions).toBeLessThanOrEqual(3)
    const { memories } = await readTables('burst', idb)
    expect(memories).toHaveLength(distinct)
    const byId = new Map(memories.map((m) => [m.id, m]))
    const calls = new Map<string, number>()
    results.forEach((r: RememberResult, i) => {
      const stored = byId.get(r.id)
      expect(stored?.key, `call ${i}`).toBe(dedupKey(texts[i]!))
      calls.set(r.id, (calls.get(r.id) ?? 0) + 1)
    })
    for (const m of memories) expect(m.confirmations).toBe(calls.get(m.id))
    expect(results.filter((r) => r.status === 'created')).toHaveLength(distinct)
    expectVerified(await e.inspect.verify())
    await e.close()
    tally(
      {
        id: 'burst',
        fault: '1,000 concurrent remember calls',
        injected: `1,000 calls at once over ${distinct} facts in 4 spellings; transactions counted by DBCore middleware`,
        expected: `≤ 3 write transactions; each fact stored once; every caller gets its fact's id; confirmations = calls`,
      },
      { faults: 1, survived: 1, acknowledged: results.length },
    )
  })

  it('stores the same facts once when two engines with a shared lock write them at once', async () => {
    const idb = freshFactory()
    const lock = sharedLock()
    const a = await openEngine('two-tabs', idb, undefined, { writeLock: lock })
    const b = await openEngine('two-tabs', idb, undefined, { writeLock: lock })
    const texts = Array.from({ length: 100 }, (_, i) => fact(i))
    const [ra, rb] = await Promise.all([
      Promise.all(texts.map((t) => a.remember(t))),
      Promise.all(texts.map((t, i) => b.remember(variant(t, i)))),
    ])
    expect(ra.map((r) => r.id)).toEqual(rb.map((r) => r.id))
    await Promise.all([a.catchUp(), b.catchUp()])
    expect(await a.count()).toBe(100)
    for (const [engine, other] of [
      [a, rb],
      [b, ra],
    ] as const) {
      for (const [i, text] of texts.entries()) {
        if (other[i]!.status !== 'created') continue
        const { hits } = await engine.recall(text, { k: 1, log: false })
        expect(hits[0]?.id).toBe(other[i]!.id)
      }
      expectVerified(await engine.inspect.verify())
    }
    const { memories } = await readTables('two-tabs', idb)
    for (const m of memories) expect(m.confirmations).toBe(2)
    await Promise.all([a.close(), b.close()])
    tally(
      {
        id: 'two-engines',
        fault: 'Two engines on one database',
        injected:
          '100 facts written at once by each of two engines (two tabs), with a shared in-process write lock, and again with none',
        expected:
          'each fact stored once; both callers get the same id; each recalls the other’s writes after catchUp(); verify() ok on both',
      },
      { faults: 1, survived: 1, acknowledged: ra.length + rb.length },
    )
  })

  it('stores the same facts once when two engines with no lock at all race', async () => {
    const idb = freshFactory()
    const a = await openEngine('no-lock', idb)
    const b = await openEngine('no-lock', idb)
    const texts = Array.from({ length: 60 }, (_, i) => fact(i))
    const [ra, rb] = await Promise.all([
      Promise.all(texts.map((t) => a.remember(t))),
      Promise.all(texts.map((t) => b.remember(t))),
    ])
    expect(ra.map((r) => r.id)).toEqual(rb.map((r) => r.id))
    await Promise.all([a.catchUp(), b.catchUp()])
    expect(await a.count()).toBe(60)
    expectVerified(await a.inspect.verify())
    expectVerified(await b.inspect.verify())
    await Promise.all([a.close(), b.close()])
    tally(
      {
        id: 'two-engines',
        fault: 'Two engines on one database',
        injected: '',
        expected: '',
      },
      { faults: 1, survived: 1, acknowledged: ra.length + rb.length },
    )
  })
})
