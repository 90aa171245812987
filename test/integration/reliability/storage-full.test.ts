/**
 * QuotaExceededError injected in Node: a typed StorageFullError, nothing partial, earlier data
 * intact, reads still answered, writes working again once space is freed.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { StorageFullError } from '../../../src/core/errors.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import {
  content,
  expectVerified,
  FaultInjector,
  fact,
  freshFactory,
  halfWritten,
  openEngine,
  readTables,
  Survival,
  tally,
  writeTally,
} from './harness.ts'

afterAll(() => writeTally('storage-full'))

const ROW = {
  id: 'quota',
  fault: 'QuotaExceededError',
  injected:
    'DBCore middleware rejects writes with a DOMException named QuotaExceededError, or an AbortError wrapping one: once, from the Nth write on, and inside a multi-batch import',
  expected:
    'StorageFullError; nothing partial; earlier data intact; reads and recall still answer; writes work once space is freed',
}

async function seededEngine(name: string) {
  const idb = freshFactory()
  const faults = new FaultInjector()
  const e = await openEngine(name, idb, faults)
  const seeds = await e.rememberMany([0, 1, 2, 3].map((i) => ({ text: fact(i), tags: ['seed'] })))
  return { idb, faults, e, ids: seeds.map((r) => r.id) }
}

const WRITES: [string, (e: MemoryEngine, ids: string[]) => Promise<unknown>][] = [
  ['remember', (e) => e.remember(fact(10))],
  ['remember (duplicate)', (e) => e.remember(fact(0))],
  ['rememberMany', (e) => e.rememberMany([{ text: fact(11) }, { text: fact(12) }])],
  ['update', (e, ids) => e.update(ids[0]!, { text: fact(13) })],
  ['forget', (e, ids) => e.forget(ids[1]!)],
  ['import', (e) => e.transfer.import(`{"text":${JSON.stringify(fact(14))}}\n`)],
]

describe('storage full', () => {
  it('fails every kind of write with StorageFullError while the disk stays full, and recovers', async () => {
    const survival = new Survival()
    for (const kind of ['quota', 'quota-wrapped'] as const) {
      const { idb, faults: injector, e, ids } = await seededEngine(`full-${kind}`)
      const before = content(await readTables(`full-${kind}`, idb))
      injector.arm({ failAt: 1, failOn: true, kind })
      for (const [label, write] of WRITES) {
        await survival.check(async () => {
          await expect(write(e, ids), label).rejects.toBeInstanceOf(StorageFullError)
          expect(content(await readTables(`full-${kind}`, idb)), label).toEqual(before)
          expectVerified(await e.inspect.verify())
        })
      }
      // Reads keep answering on a full disk.
      expect((await e.recall(fact(2), { k: 1 })).hits[0]?.id).toBe(ids[2])
      expect(await e.get(ids[0]!)).toMatchObject({ text: fact(0) })
      expect(await e.count()).toBe(4)
      expect((await e.transfer.export()).split('\n').filter(Boolean)).toHaveLength(5)
      // Space freed: the same writes now land.
      injector.disarm()
      for (const [label, write] of WRITES) await expect(write(e, ids), label).resolves.not.toThrow()
      expectVerified(await e.inspect.verify())
      await e.close()
      expect(halfWritten(await readTables(`full-${kind}`, idb))).toEqual([])
    }
    tally(ROW, { faults: survival.faults, survived: survival.survived })
    survival.assertAll()
  })

  it('keeps the earlier batches of an import whole when a later batch hits the quota', async () => {
    const { idb, faults: injector, e } = await seededEngine('full-import')
    const lines = [...Array(6).keys()].map((i) => JSON.stringify({ text: fact(100 + i) }))
    // Each batch writes memories, vectors and changes: the 4th write is the second batch's first.
    injector.arm({ failAt: 4, kind: 'quota' })
    await expect(e.transfer.import(lines.join('\n'), { batchSize: 2 })).rejects.toBeInstanceOf(
      StorageFullError,
    )
    const texts = (await readTables('full-import', idb)).memories.map((m) => m.text)
    expect(texts).toEqual(expect.arrayContaining([fact(100), fact(101)]))
    expect(texts).not.toContain(fact(102))
    expect(texts).not.toContain(fact(103))
    expectVerified(await e.inspect.verify())
    // Importing again once space is free stores the rest; the first batch comes back duplicate.
    const report = await e.transfer.import(lines.join('\n'), { batchSize: 2 })
    expect(report).toMatchObject({ lines: 6, created: 4, duplicates: 2 })
    expectVerified(await e.inspect.verify())
    await e.close()
    tally(ROW, { faults: 1, survived: 1, acknowledged: 2 })
  })

  it('keeps earlier data intact and the memory reopenable after a quota failure', async () => {
    const { idb, faults: injector, e, ids } = await seededEngine('full-reopen')
    injector.arm({ failAt: 2, kind: 'quota' }) // the vectors write of the next remember
    await expect(e.remember(fact(20))).rejects.toBeInstanceOf(StorageFullError)
    await e.close()
    const again = await openEngine('full-reopen', idb)
    for (const id of ids) expect(await again.get(id)).toBeDefined()
    expect(await again.count()).toBe(4)
    expectVerified(await again.inspect.verify())
    await again.close()
    tally(ROW, { faults: 1, survived: 1, acknowledged: ids.length })
  })
})
