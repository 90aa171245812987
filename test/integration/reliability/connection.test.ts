/**
 * The connection going away: closed underneath the engine (a tool, the browser), or upgraded or
 * deleted by another tab holding a newer schema.
 */
import { Dexie } from 'dexie'
import { afterAll, describe, expect, it } from 'vitest'
import { EngramError, MemoryClosedError } from '../../../src/core/errors.ts'
import type { MemoryEvent } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import {
  Acknowledged,
  expectVerified,
  FaultInjector,
  freshFactory,
  halfWritten,
  type Idb,
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

afterAll(() => writeTally('connection'))

const POINTS = STRESS ? 200 : 30

/** Runs every call to the end, checking that none hangs and every failure is typed. */
function everyCall(): Stepper & { errors: unknown[]; hung: number } {
  const errors: unknown[] = []
  let hung = 0
  return {
    errors,
    get hung() {
      return hung
    },
    async step(call) {
      const outcome = await settled(call(), 5000)
      if ('hung' in outcome) {
        hung++
        return undefined
      }
      if (!outcome.ok) {
        errors.push(outcome.error)
        return undefined
      }
      return outcome.value
    },
    stopped: false,
  }
}

/** The Dexie schema of version 1, then a version 2 that adds a table: an upgrade elsewhere. */
function upgrader(name: string, idb: Idb, version = 2): Dexie {
  const db = new Dexie(`engram:${name}`, idb)
  db.version(1).stores({
    memories: 'id, &[namespace+type+key], [namespace+type], namespace, *tags, pageId',
    vectors: 'id, model',
    changes: '++seq, id',
    snapshots: 'name',
    recalls: '++id, at',
    meta: 'key',
  })
  if (version >= 2) db.version(2).stores({ sessions: 'id' })
  return db
}

describe('database closed underneath', () => {
  it(`rejects calls in flight with typed errors and reopens on the next call, at ${POINTS} random points`, {
    timeout: STRESS ? 900_000 : 120_000,
  }, async () => {
    const dry = new FaultInjector()
    const dryEngine = await openEngine('closed-dry', freshFactory(), dry)
    dry.arm({})
    await mixedWorkload(dryEngine, new Acknowledged(), everyCall())
    const total = dry.operations
    await dryEngine.close()

    const rand = seeded(1729)
    const survival = new Survival()
    let acknowledged = 0
    let lost = 0
    let rejected = 0
    for (let i = 0; i < POINTS; i++) {
      const closeAt = 1 + Math.floor(rand() * total)
      const name = `closed-${i}`
      const idb = freshFactory()
      const injector = new FaultInjector()
      const e = await openEngine(name, idb, injector)
      injector.arm({ closeAt })
      const ack = new Acknowledged()
      const stepper = everyCall()
      await mixedWorkload(e, ack, stepper, i)
      if (injector.fired === 0) {
        await e.close()
        continue
      }
      rejected += stepper.errors.length
      await survival.check(async () => {
        expect(stepper.hung, `closeAt ${closeAt}`).toBe(0)
        for (const error of stepper.errors) expect(error).toBeInstanceOf(EngramError)
        // The engine reopened on its own: it answers and agrees with the tables.
        expectVerified(await e.inspect.verify())
        const after = await e.remember(`written after the close ${i}`)
        ack.wrote(after.id, `written after the close ${i}`)
        await e.close()
        const tables = await readTables(name, idb)
        const missing = ack.lost(tables)
        acknowledged += ack.size
        lost += missing.length
        expect(missing, `closeAt ${closeAt}`).toEqual([])
        expect(halfWritten(tables), `closeAt ${closeAt}`).toEqual([])
        const again = await openEngine(name, idb)
        expectVerified(await again.inspect.verify())
        await again.close()
      })
      await e.close().catch(() => {})
    }
    const { faults, survived } = survival
    expect(faults).toBeGreaterThan(POINTS * 0.8)
    tally(
      {
        id: 'closed-underneath',
        fault: 'Database closed underneath',
        injected: `db.close() from outside at a random storage operation (${POINTS} seeded points over the mixed workload)`,
        expected:
          'calls in flight reject with MemoryClosedError (none hangs); the next call reopens and catches up; verify() ok',
      },
      { faults, survived, acknowledged, lost },
    )
    console.info(`closed underneath: ${faults} closes, ${rejected} calls rejected (typed)`)
    survival.assertAll()
  })

  it('says the next call reopens, and the next call does', async () => {
    const injector = new FaultInjector()
    const e = await openEngine('closed-message', freshFactory(), injector)
    await e.remember('before the close')
    injector.arm({ closeAt: 2 })
    const outcome = await settled(e.remember('during the close'))
    if ('ok' in outcome && !outcome.ok) {
      expect(outcome.error).toBeInstanceOf(MemoryClosedError)
      expect((outcome.error as Error).message).toMatch(/next call reopens/)
    }
    expect((await e.recall('before the close')).hits[0]?.text).toBe('before the close')
    expectVerified(await e.inspect.verify())
    await e.close()
  })
})

describe('schema upgrade from another connection', () => {
  it('closes, reports closed and MemoryClosedError, never hangs, and keeps acknowledged writes', {
    timeout: STRESS ? 300_000 : 60_000,
  }, async () => {
    const survival = new Survival()
    let acknowledged = 0
    let lost = 0
    const runs = STRESS ? 40 : 8
    const outcomes = { done: 0, closed: 0 }
    for (let i = 0; i < runs; i++) {
      const idb = freshFactory()
      const name = `upgrade-${i}`
      const events: MemoryEvent[] = []
      let disposed = 0
      const embedder = Object.assign(new NgramEmbedder(), {
        dispose: async () => {
          disposed++
        },
      })
      const e = await openEngine(name, idb, undefined, {
        embedder,
        onEvent: (event) => events.push(event),
      })
      const seed = await e.remember(`seeded before the upgrade ${i}`)
      const ack = new Acknowledged()
      ack.wrote(seed.id, `seeded before the upgrade ${i}`)
      // Writes in flight, then the upgrade lands after a varying number of turns.
      const texts = Array.from({ length: 10 }, (_, j) => `in flight ${i}.${j}`)
      const calls = texts.map((text) =>
        settled(e.remember(text)).then((outcome) => {
          if ('ok' in outcome && outcome.ok) ack.wrote(outcome.value.id, text)
          return outcome
        }),
      )
      const update = settled(e.update(seed.id, { tags: ['tagged'] }))
      for (let turn = 0; turn < i; turn++) await new Promise((r) => setImmediate(r))
      const up = upgrader(name, idb)
      const opened = await settled(up.open(), 5000)
      await survival.check(async () => {
        expect(opened).toMatchObject({ ok: true })
        for (const outcome of [...(await Promise.all(calls)), await update]) {
          expect(outcome).not.toHaveProperty('hung')
          if ('ok' in outcome && !outcome.ok) {
            expect(outcome.error).toBeInstanceOf(MemoryClosedError)
            outcomes.closed++
          } else outcomes.done++
        }
        expect(events).toContainEqual({ type: 'closed', reason: 'versionchange' })
        await expect(e.remember('too late')).rejects.toBeInstanceOf(MemoryClosedError)
        await expect(e.recall('too late')).rejects.toBeInstanceOf(MemoryClosedError)
        await expect(e.inspect.verify()).rejects.toBeInstanceOf(MemoryClosedError)
        await expect(e.catchUp()).rejects.toBeInstanceOf(MemoryClosedError)
        await expect(e.close()).resolves.toBeUndefined()
        expect(disposed).toBe(1)
        const rows = await up.table('memories').toArray()
        const missing = ack.lost({ memories: rows, vectors: [], changes: [] })
        acknowledged += ack.size
        lost += missing.length
        expect(missing).toEqual([])
      })
      up.close()
    }
    console.info(`upgrade: ${outcomes.done} calls in flight finished, ${outcomes.closed} closed`)
    expect(outcomes.closed).toBeGreaterThan(0)
    expect(outcomes.done).toBeGreaterThan(0)
    tally(
      {
        id: 'versionchange',
        fault: 'Schema upgrade from another connection',
        injected:
          'plain Dexie opens the same database at version 2 on the same IDBFactory while 11 writes are in flight, after 0..N turns',
        expected:
          "old engine closes its connection (upgrade not blocked), emits { type: 'closed' }, in-flight calls settle (done or MemoryClosedError), later calls MemoryClosedError",
      },
      { faults: survival.faults, survived: survival.survived, acknowledged, lost },
    )
    survival.assertAll()
  })

  it('closes when another connection deletes the database', async () => {
    const idb = freshFactory()
    const events: MemoryEvent[] = []
    const e = await openEngine('deleted', idb, undefined, { onEvent: (ev) => events.push(ev) })
    await e.remember('soon gone')
    const deleted = await settled(new Dexie('engram:deleted', idb).delete(), 5000)
    expect(deleted).toMatchObject({ ok: true })
    expect(events).toContainEqual({ type: 'closed', reason: 'versionchange' })
    await expect(e.get('x')).rejects.toThrow(/deleted this memory/)
    await e.close()
  })

  it('an engine opened on the old schema after the upgrade still opens the data or fails typed', async () => {
    const idb = freshFactory()
    const e = await openEngine('old-code', idb)
    const { id } = await e.remember('written by the old code')
    const up = upgrader('old-code', idb)
    await up.open()
    up.close()
    await e.close()
    const outcome = await settled(openEngine('old-code', idb), 5000)
    expect(outcome).not.toHaveProperty('hung')
    if ('ok' in outcome && outcome.ok) {
      expect(await outcome.value.get(id)).toBeDefined()
      await outcome.value.close()
    } else if ('error' in outcome) expect(outcome.error).toBeInstanceOf(EngramError)
  })
})
