/**
 * The worker terminated mid-write, simulated in Node: at the Nth storage operation the
 * connection "dies" (the operation's transaction is aborted, as IndexedDB aborts the
 * uncommitted work of a terminated worker, and the connection never answers again). The engine
 * is abandoned without close(); a fresh engine opens the same database and must find every
 * acknowledged write, nothing half-written, and indexes that agree with the tables.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { EngramError } from '../../../src/core/errors.ts'
import {
  Acknowledged,
  expectVerified,
  FaultInjector,
  freshFactory,
  halfWritten,
  openEngine,
  readTables,
  STRESS,
  Survival,
  seeded,
  settled,
  tally,
  writeTally,
} from './harness.ts'
import { mixedWorkload, type Stepper } from './workload.ts'

afterAll(() => writeTally('crash'))

const POINTS = STRESS ? 400 : 50

let run = 0

/** Runs the workload until the connection dies; calls that answered before are acknowledged. */
function untilDead(faults: FaultInjector): Stepper {
  const dead = faults.whenDead().then(() => undefined)
  return {
    async step(call) {
      if (faults.dead) return undefined
      try {
        return await Promise.race([call(), dead])
      } catch {
        // The aborted transaction's call may reject before the engine is abandoned.
        return undefined
      }
    },
    get stopped() {
      return faults.dead
    },
  }
}

describe('worker terminated mid-write', () => {
  it(`keeps every acknowledged write through ${POINTS} random termination points`, {
    timeout: STRESS ? 900_000 : 120_000,
  }, async () => {
    // A dry run counts the storage operations of the workload.
    const dry = new FaultInjector()
    const dryEngine = await openEngine('crash-dry', freshFactory(), dry)
    dry.arm({})
    await mixedWorkload(dryEngine, new Acknowledged(), untilDead(dry))
    const total = dry.operations
    await dryEngine.close()
    expect(total).toBeGreaterThan(40)

    const rand = seeded(2291)
    const survival = new Survival()
    let acknowledged = 0
    let lost = 0
    for (let i = 0; i < POINTS; i++) {
      const killAt = 1 + Math.floor(rand() * total)
      const name = `crash-${++run}`
      const idb = freshFactory()
      const injector = new FaultInjector()
      const doomed = await openEngine(name, idb, injector)
      injector.arm({ killAt })
      const ack = new Acknowledged()
      await mixedWorkload(doomed, ack, untilDead(injector), i)
      if (!injector.dead) continue // the workload finished first (background work varies)
      // `doomed` is abandoned: no close(), its connection stays as the dead worker left it.
      const revived = await openEngine(name, idb)
      await survival.check(async () => {
        const report = await revived.inspect.verify()
        const tables = await readTables(name, idb)
        const missing = ack.lost(tables)
        const half = halfWritten(tables)
        acknowledged += ack.size
        lost += missing.length
        expect(missing, `killAt ${killAt}`).toEqual([])
        expect(half, `killAt ${killAt}`).toEqual([])
        expectVerified(report)
        // The revived memory is fully usable.
        const next = await settled(revived.remember(`after the crash ${i}`))
        expect(next).toMatchObject({ ok: true })
        expectVerified(await revived.inspect.verify())
      })
      await revived.close().catch(() => {})
    }
    const { faults, survived } = survival
    expect(faults).toBeGreaterThan(POINTS * 0.8)
    tally(
      {
        id: 'worker-terminated',
        fault: 'Worker terminated mid-write',
        injected: `at a random storage operation (${POINTS} seeded points over a mixed workload of remember ×10 coalesced, rememberMany, update, forget, import, recall) the transaction is aborted and the connection never answers; the engine is abandoned without close()`,
        expected:
          'a fresh engine finds every acknowledged write, nothing half-written; verify() ok',
      },
      { faults, survived, acknowledged, lost },
    )
    survival.assertAll()
  })

  it('a call whose transaction the termination aborted rejects with a typed error or never answers', async () => {
    const idb = freshFactory()
    const injector = new FaultInjector()
    const e = await openEngine('crash-typed', idb, injector)
    injector.arm({ killAt: 3 })
    const outcome = await settled(e.remember('the last words'), 500)
    if ('ok' in outcome && !outcome.ok) expect(outcome.error).toBeInstanceOf(EngramError)
    else expect(outcome).toEqual({ hung: true })
  })
})
