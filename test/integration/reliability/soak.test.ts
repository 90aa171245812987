/**
 * A soak: three engines (three tabs) on one database, writing, updating, forgetting, recalling
 * and reloading for a bounded time, with verify() every so often. 5 s in CI; 60 s with
 * `ENGRAM_STRESS=1`; any length with `ENGRAM_SOAK_MS`.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import {
  Acknowledged,
  expectVerified,
  fact,
  freshFactory,
  halfWritten,
  openEngine,
  readTables,
  STRESS,
  seeded,
  tally,
  writeTally,
} from './harness.ts'

afterAll(() => writeTally('soak'))

const SOAK_MS = Number(process.env.ENGRAM_SOAK_MS ?? (STRESS ? 60_000 : 5_000))
const ENGINES = 3
const SHARED = 80

function sharedLock(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task, task)
    tail = run.catch(() => {})
    return run
  }
}

describe('soak', () => {
  it(`keeps ${ENGINES} engines consistent for ${SOAK_MS / 1000} s of mixed load`, {
    timeout: SOAK_MS + 60_000,
  }, async () => {
    const idb = freshFactory()
    const lock = sharedLock()
    const open = (options = {}) =>
      openEngine('soak', idb, undefined, { writeLock: lock, snapshotEvery: 200, ...options })
    const engines: MemoryEngine[] = []
    for (let k = 0; k < ENGINES; k++) engines.push(await open())
    const shared = new Acknowledged()
    const own = Array.from({ length: ENGINES }, () => new Acknowledged())
    const deadline = Date.now() + SOAK_MS
    const counts = { ops: 0, verifies: 0, reloads: 0 }

    const loop = async (k: number) => {
      const rand = seeded(k + 1)
      let next = 0
      const mine: string[] = []
      while (Date.now() < deadline) {
        const e = engines[k]!
        const roll = rand()
        counts.ops++
        if (roll < 0.3) {
          const text = fact(Math.floor(rand() * SHARED), 9000)
          const r = await e.remember(rand() < 0.5 ? text : text.toUpperCase())
          shared.wrote(r.id, text)
        } else if (roll < 0.45) {
          const texts = Array.from({ length: 1 + Math.floor(rand() * 5) }, () =>
            fact(next++, 100 + k),
          )
          const results = await e.rememberMany(
            texts.map((text) => ({ text, namespace: `tab${k}` })),
          )
          results.forEach((r, i) => {
            own[k]!.wrote(r.id, texts[i]!)
            mine.push(r.id)
          })
        } else if (roll < 0.55 && mine.length > 0) {
          const id = mine[Math.floor(rand() * mine.length)]!
          const text = fact(next++, 100 + k)
          await e.update(id, { text, tags: [`v${next}`] })
          own[k]!.wrote(id, text)
        } else if (roll < 0.62 && mine.length > 0) {
          const id = mine.splice(Math.floor(rand() * mine.length), 1)[0]!
          await e.forget(id)
          own[k]!.forgot(id)
        } else if (roll < 0.9) {
          await e.recall(fact(Math.floor(rand() * SHARED), 9000), { k: 3 })
        } else if (roll < 0.97) {
          expectVerified(await e.inspect.verify())
          counts.verifies++
        } else {
          // A reload of this tab.
          await e.close()
          engines[k] = await open()
          counts.reloads++
        }
      }
    }
    await Promise.all(engines.map((_, k) => loop(k)))

    for (const e of engines) await e.catchUp()
    for (const e of engines) expectVerified(await e.inspect.verify())
    const tables = await readTables('soak', idb)
    const lost = [...shared.lost(tables), ...own.flatMap((a) => a.lost(tables))]
    expect(lost).toEqual([])
    expect(halfWritten(tables)).toEqual([])
    const sharedRows = tables.memories.filter((m) => m.namespace === 'default')
    expect(sharedRows).toHaveLength(new Set([...shared.present.values()]).size)
    await Promise.all(engines.map((e) => e.close()))
    const reopened = await open()
    expectVerified(await reopened.inspect.verify())
    await reopened.close()
    console.info(
      `soak: ${counts.ops} operations, ${counts.verifies + ENGINES} verifies, ${counts.reloads} reloads in ${SOAK_MS} ms`,
    )
    expect(counts.verifies).toBeGreaterThan(0)
    tally(
      {
        id: 'soak',
        fault: `Soak: ${ENGINES} engines, mixed load`,
        injected: `${ENGINES} engines with a shared lock remember, rememberMany, update, forget, recall, verify and reload at random for ${SOAK_MS / 1000} s (snapshot every 200 changes)`,
        expected:
          'verify() ok every time; every acknowledged write present; shared facts stored once',
      },
      {
        faults: counts.verifies + ENGINES,
        survived: counts.verifies + ENGINES,
        acknowledged: shared.size + own.reduce((n, a) => n + a.size, 0),
        lost: lost.length,
      },
    )
  })
})
