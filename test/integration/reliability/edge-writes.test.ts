/**
 * The edge writes that go through `runWrite` without a change-log entry (sync's inbound edges,
 * an import's relation lines): a fault at any of their mutations leaves every edge of the call
 * or none, a typed error, and an engine that still verifies.
 */
import { describe, expect, it } from 'vitest'
import { StorageError } from '../../../src/core/errors.ts'
import type { Relation } from '../../../src/core/types.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { expectVerified, FaultInjector, fact, freshFactory, openEngine } from './harness.ts'

let run = 0

const edgeKey = (r: Relation) => `${r.from} ${r.kind} ${r.to}`

async function edges(engine: MemoryEngine): Promise<string[]> {
  return (await engine.replica.edges()).map(edgeKey).sort()
}

/**
 * Runs `call` with the n-th relations mutation failing, for every n the clean run makes, and
 * checks each run ended with all of the call's edges (no error) or none (a StorageError).
 */
async function sweep(
  call: (engine: MemoryEngine, ids: string[]) => Promise<unknown>,
): Promise<{ runs: number; undone: number }> {
  let undone = 0
  let clean = 0
  for (let n = 0; n === 0 || n <= clean; n++) {
    const idb = freshFactory()
    const faults = new FaultInjector()
    const engine = await openEngine(`edge-writes-${++run}`, idb, faults)
    const seeded = await engine.rememberMany([0, 1, 2].map((i) => ({ text: fact(i) })))
    const ids = seeded.map((r) => r.id)
    await engine.relations.add(ids[0]!, ids[2]!, 'related_to')
    const before = await edges(engine)
    faults.arm({ failAt: n, tables: ['relations'] })
    const error = await call(engine, ids).then(
      () => undefined,
      (e: unknown) => e,
    )
    const after = await edges(engine)
    if (n === 0) clean = faults.mutations
    if (error === undefined) {
      expect(faults.fired, `fault ${n} fired and the call still succeeded`).toBe(0)
      expect(after).not.toEqual(before)
    } else {
      expect(error).toBeInstanceOf(StorageError)
      expect(after).toEqual(before)
      undone++
    }
    faults.disarm()
    expectVerified(await engine.inspect.verify())
    await engine.close()
  }
  return { runs: clean + 1, undone }
}

describe('edge writes under a failing disk', () => {
  it("stores all of sync's inbound edges or none", async () => {
    const { runs, undone } = await sweep(async (engine, ids) => {
      const puts: Relation[] = [
        { from: ids[0]!, to: ids[1]!, kind: 'depends_on', createdAt: 1 },
        { from: ids[1]!, to: ids[2]!, kind: 'related_to', createdAt: 2 },
      ]
      const removes: Relation[] = [{ from: ids[0]!, to: ids[2]!, kind: 'related_to', createdAt: 0 }]
      expect(await engine.replica.applyEdges(puts, removes)).toBe(3)
    })
    // The clean run and one per mutation (a delete, two puts), each of those undone.
    expect(runs).toBe(4)
    expect(undone).toBe(3)
  })

  it("stores all of an import's relation lines or none", async () => {
    const { runs, undone } = await sweep(async (engine, ids) => {
      // The memories restore the stored ones (nothing written); the relations land on them.
      const lines = [
        ...ids.map((id, i) => ({ id, text: fact(i) })),
        { relation: { from: ids[1]!, to: ids[2]!, kind: 'depends_on' } },
        { relation: { from: ids[2]!, to: ids[0]!, kind: 'contradicts' } },
      ]
      await engine.transfer.import(lines.map((l) => JSON.stringify(l)).join('\n'))
    })
    expect(runs).toBe(3)
    expect(undone).toBe(2)
  })
})
