/**
 * Regression (issue 23 §2): `remember(text, { supersedes })` stored the new memory in one
 * transaction and its `supersedes` edge in a second, so a fault or a crash between the two left
 * a half-applied supersede: the new memory without the edge that says what it replaces. Now the
 * edge goes in the memory's transaction: a fault leaves neither or both.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { StorageError } from '../../../src/core/errors.ts'
import type { Relation } from '../../../src/core/types.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { EngramDatabase } from '../../../src/storage/index.ts'
import {
  expectVerified,
  FaultInjector,
  fact,
  freshFactory,
  type Idb,
  openEngine,
  readTables,
} from './harness.ts'

const open: MemoryEngine[] = []
async function engine(...args: Parameters<typeof openEngine>): Promise<MemoryEngine> {
  const e = await openEngine(...args)
  open.push(e)
  return e
}
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((e) => e.close()))
})

async function relations(name: string, idb: Idb): Promise<Relation[]> {
  const db = new EngramDatabase(name, idb)
  try {
    await db.open()
    return await db.relations.toArray()
  } finally {
    db.close()
  }
}

/** The supersede as the tables hold it: the new memory (by text) and the edges stored. */
async function supersedeState(name: string, idb: Idb, text: string) {
  const tables = await readTables(name, idb)
  const stored = tables.memories.find((m) => m.text === text)
  return { stored, edges: await relations(name, idb) }
}

describe('regression: a supersede written in two transactions', () => {
  it('a fault on the supersedes edge left the new memory stored without it', async () => {
    const idb = freshFactory()
    const faults = new FaultInjector()
    const e = await engine('supersede-fault', idb, faults)
    const old = await e.remember(fact(1))
    // Only relation writes count: the first one, the edge, fails.
    faults.arm({ failAt: 1, tables: ['relations'] })
    await expect(e.remember(fact(2), { supersedes: old.id })).rejects.toBeInstanceOf(StorageError)
    expect(faults.fired).toBe(1)
    const after = await supersedeState('supersede-fault', idb, fact(2))
    expect(after.stored).toBeUndefined()
    expect(after.edges).toEqual([])
    expect(await e.count()).toBe(1)
    expectVerified(await e.inspect.verify())

    faults.disarm()
    const next = await e.remember(fact(2), { supersedes: old.id })
    expect(next.status).toBe('created')
    const done = await supersedeState('supersede-fault', idb, fact(2))
    expect(done.stored?.id).toBe(next.id)
    expect(done.edges.map(({ from, to, kind }) => ({ from, to, kind }))).toEqual([
      { from: next.id, to: old.id, kind: 'supersedes' },
    ])
    expectVerified(await e.inspect.verify())
  })

  it('a worker terminated at any storage operation of the supersede leaves neither or both', async () => {
    // A dry run counts the operations of the supersede.
    const dry = new FaultInjector()
    const dryEngine = await engine('supersede-dry', freshFactory(), dry)
    const seed = await dryEngine.remember(fact(1))
    dry.arm({})
    await dryEngine.remember(fact(2), { supersedes: seed.id })
    const total = dry.operations
    expect(total).toBeGreaterThan(2)

    let both = 0
    let neither = 0
    let killed = 0
    for (let killAt = 1; killAt <= total; killAt++) {
      const name = `supersede-crash-${killAt}`
      const idb = freshFactory()
      const faults = new FaultInjector()
      const doomed = await openEngine(name, idb, faults)
      const old = await doomed.remember(fact(1))
      faults.arm({ killAt })
      // A call cut off never answers once the connection dies: it is abandoned, as the worker was.
      const call = doomed.remember(fact(2), { supersedes: old.id }).then(
        () => 'answered',
        () => 'failed',
      )
      if ((await Promise.race([call, faults.whenDead().then(() => 'dead')])) !== 'dead') {
        faults.disarm()
        continue
      }
      killed++
      const { stored, edges } = await supersedeState(name, idb, fact(2))
      const edge = edges.find((r) => r.kind === 'supersedes')
      if (stored) {
        expect(edge, `killAt ${killAt}`).toMatchObject({ from: stored.id, to: old.id })
        both++
      } else {
        expect(edge, `killAt ${killAt}`).toBeUndefined()
        neither++
      }
      const revived = await engine(name, idb)
      expectVerified(await revived.inspect.verify())
    }
    // The sweep reached both sides of the commit.
    expect(neither).toBeGreaterThan(0)
    expect(killed).toBeGreaterThan(total / 2)
    expect(both + neither).toBe(killed)
  })
})
