/**
 * One test per engine bug the reliability work found, named after the bug. Each failed before
 * its fix (see docs/reliability.md, "Bugs found").
 */
import type { Dexie } from 'dexie'
import { afterEach, describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors.ts'
import type { Embedder, EmbedKind, MemoryEvent } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { EngineContext } from '../../../src/engine/engine-context.ts'
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
  settled,
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

/** Serialises two engines like a Web Lock would, for tests that need one. */
function sharedLock(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task, task)
    tail = run.catch(() => {})
    return run
  }
}

// biome-ignore lint/suspicious/noExplicitAny: surgery on a structured-clone blob
type AnyRow = any

async function tamperSnapshot(
  name: string,
  idb: Idb,
  change: (row: AnyRow) => void,
): Promise<void> {
  const db = new EngramDatabase(name, idb)
  await db.open()
  const row = await db.snapshots.get('indexes')
  expect(row).toBeDefined()
  change(row)
  await db.snapshots.put(row!)
  db.close()
}

describe('regressions', () => {
  it('catch-up from seq 0 skipped the memories of a change log pruned by another engine', async () => {
    const idb = freshFactory()
    const lock = sharedLock()
    const idle = await engine('pruned', idb, undefined, { writeLock: lock })
    const busy = await engine('pruned', idb, undefined, { writeLock: lock, snapshotEvery: 1000 })
    await busy.rememberMany([...Array(1100).keys()].map((i) => ({ text: fact(i) })))
    await busy.close() // snapshots and prunes the log below seq 100
    const { changes } = await readTables('pruned', idb)
    expect(Math.min(...changes.map((c) => c.seq!))).toBeGreaterThan(1)
    await idle.catchUp()
    expectVerified(await idle.inspect.verify())
    expect((await idle.inspect.stats()).memories).toBe(1100)
  })

  it('a snapshot restore renumbered namespace groups and near-deduplicated a write into another namespace', async () => {
    const idb = freshFactory()
    const first = await engine('groups', idb)
    const x = await first.remember('the x namespace came first', { namespace: 'x' })
    const y = await first.remember('Saffron tea is kept in the blue tin', { namespace: 'y' })
    await first.forget(x.id)
    await first.close()
    const second = await engine('groups', idb)
    expect((await second.inspect.stats()).open?.restored).toBe('snapshot')
    const written = await second.remember('Saffron tea is kept in the blue tin', { namespace: 'x' })
    expect(written.status).toBe('created')
    expect(written.id).not.toBe(y.id)
    expect((await second.get(written.id))?.namespace).toBe('x')
    const { hits } = await second.recall('saffron tea tin', { namespace: 'y', mode: 'semantic' })
    expect(hits[0]?.id).toBe(y.id)
  })

  it('a snapshot that could not be written (quota) failed the open', async () => {
    const idb = freshFactory()
    const writer = await openEngine('snapfail', idb)
    await writer.rememberMany([0, 1, 2].map((i) => ({ text: fact(i) })))
    // Abandoned without close(): no snapshot, so the next open rebuilds and tries to save one.
    const faults = new FaultInjector()
    faults.arm({ failAt: 1, kind: 'quota', tables: ['snapshots'] })
    const reader = await engine('snapfail', idb, faults)
    expect(faults.fired).toBe(1)
    expectVerified(await reader.inspect.verify())
    expect(await reader.count()).toBe(3)
  })

  it('close() threw when its final snapshot could not be written', async () => {
    const idb = freshFactory()
    const faults = new FaultInjector()
    const e = await openEngine('closefail', idb, faults)
    const { id } = await e.remember(fact(1))
    faults.arm({ failAt: 1, kind: 'quota', tables: ['snapshots'] })
    await expect(e.close()).resolves.toBeUndefined()
    expect(faults.fired).toBe(1)
    const again = await engine('closefail', idb)
    expect(await again.get(id)).toBeDefined()
    expectVerified(await again.inspect.verify())
  })

  it('a connection closed underneath left every later call failing, some with raw Dexie errors', async () => {
    const idb = freshFactory()
    const faults = new FaultInjector()
    const e = await engine('underneath', idb, faults)
    const { id } = await e.remember(fact(1))
    faults.db!.close()
    await expect(e.inspect.stats()).resolves.toMatchObject({ memories: 1 })
    faults.db!.close()
    await expect(e.update(id, { tags: ['after'] })).resolves.toMatchObject({ tags: ['after'] })
    faults.db!.close()
    await expect(e.inspect.recallLog()).resolves.toEqual(expect.any(Array))
    faults.db!.close()
    const other = await e.remember(fact(2))
    faults.db!.close()
    await e.forget(other.id)
    faults.db!.close()
    expect((await e.list()).items.map((m) => m.id)).toEqual([id])
    expectVerified(await e.inspect.verify())
  })

  it.each([
    ['with', true],
    ['without', false],
  ])(
    'verify() reported a mismatch while another engine was writing (%s a shared lock)',
    async (_label, locked) => {
      const idb = freshFactory()
      const options = locked ? { writeLock: sharedLock() } : {}
      const name = `verify-race-${locked}`
      const writer = await engine(name, idb, undefined, options)
      const checker = await engine(name, idb, undefined, options)
      const writes = (async () => {
        for (let i = 0; i < 30; i++) await writer.remember(fact(i))
      })()
      const reports = []
      for (let i = 0; i < 10; i++) reports.push(await checker.inspect.verify())
      await writes
      reports.push(await checker.inspect.verify())
      for (const report of reports) expectVerified(report)
    },
  )

  it('two engines without a shared lock racing on one fact gave one of them a StorageError', async () => {
    const idb = freshFactory()
    const a = await engine('nolock', idb)
    const b = await engine('nolock', idb)
    for (let i = 0; i < 5; i++) {
      const [ra, rb] = await Promise.all([a.remember(fact(i)), b.remember(fact(i))])
      expect(ra.id).toBe(rb.id)
    }
    const [many] = await Promise.all([
      a.rememberMany([5, 6, 7].map((i) => ({ text: fact(i) }))),
      b.rememberMany([7, 6, 5].map((i) => ({ text: fact(i) }))),
    ])
    expect(many).toHaveLength(3)
    await a.catchUp()
    expect(await a.count()).toBe(8)
    expectVerified(await a.inspect.verify())
    expectVerified(await b.inspect.verify())
  })

  it('rememberMany over 500 items stored the first batches and failed the rest', async () => {
    for (const failAt of [2, 4]) {
      const idb = freshFactory()
      const faults = new FaultInjector()
      const e = await engine(`many-${failAt}`, idb, faults)
      faults.arm({ failAt })
      const items = [...Array(600).keys()].map((i) => ({ text: fact(i) }))
      const outcome = await settled(e.rememberMany(items), 20_000)
      const stored = await e.count()
      if ('ok' in outcome && !outcome.ok) expect(stored).toBe(0)
      else expect(stored).toBe(600)
      expectVerified(await e.inspect.verify())
    }
  })

  it('importMemories with batchSize 0 never returned, and NaN imported nothing yet reported success', async () => {
    const e = await engine('batchsize', freshFactory())
    const jsonl = `${JSON.stringify({ text: fact(1) })}\n`
    for (const batchSize of [0, Number.NaN, -1, 1.5, '2' as never]) {
      const outcome = await settled(e.transfer.import(jsonl, { batchSize }), 2000)
      expect(outcome).toMatchObject({
        ok: false,
        error: { code: 'BAD_OPTION', field: 'batchSize' },
      })
    }
    expect(await e.count()).toBe(0)
  })

  it('writeBatch 0 left every remember call waiting forever', async () => {
    for (const writeBatch of [0, -1, 2.5]) {
      await expect(openEngine('wb', freshFactory(), undefined, { writeBatch })).rejects.toThrow(
        InvalidInputError,
      )
    }
  })

  it('an update undid the recall counters written while it was embedding', async () => {
    const slow = new SlowPassages()
    const e = await engine('counters', freshFactory(), undefined, { embedder: slow })
    const { id } = await e.remember(fact(1))
    await e.recall(fact(1), { log: false }) // counts the hit 50 ms later
    slow.delayMs = 150
    await e.update(id, { text: fact(2) })
    expect((await e.get(id))?.recallCount).toBe(1)
  })

  it('a snapshot with its postings cut short was loaded silently and recall missed memories', async () => {
    const idb = freshFactory()
    const a = await openEngine('truncated', idb)
    const texts = [...Array(20).keys()].map((i) => fact(i))
    const ids = (await a.rememberMany(texts.map((text) => ({ text })))).map((r) => r.id)
    await a.close()
    await tamperSnapshot('truncated', idb, (row) => {
      row.data.keyword.postings = row.data.keyword.postings.slice(0, 10)
    })
    const b = await engine('truncated', idb)
    expect((await b.inspect.stats()).open?.restored).toBe('rebuild')
    for (const [i, text] of texts.entries()) {
      const { hits } = await b.recall(text, { mode: 'keyword', k: 1, log: false })
      expect(hits[0]?.id).toBe(ids[i])
    }
  })

  it('a snapshot stamped past the end of the change log was loaded and hid other engines’ writes', async () => {
    const idb = freshFactory()
    const lock = sharedLock()
    const a = await openEngine('ahead', idb)
    await a.remember(fact(1))
    await a.close()
    await tamperSnapshot('ahead', idb, (row) => {
      row.seq = 10_000
    })
    const b = await engine('ahead', idb, undefined, { writeLock: lock })
    expect((await b.inspect.stats()).open?.restored).toBe('rebuild')
    const c = await engine('ahead', idb, undefined, { writeLock: lock })
    await c.remember(fact(2))
    await b.catchUp()
    expect(await b.count()).toBe(2)
    expectVerified(await b.inspect.verify())
  })
})

/** No cross-tab lock at all: what a tab on a plain-http origin has (`navigator.locks` is absent). */
const noLock = { writeLock: <T>(task: () => Promise<T>) => task() }

/** The stored vector of `id` and a fresh embedding of its stored text: equal when they match. */
async function vectorAndText(name: string, idb: Idb, id: string) {
  const { memories, vectors } = await readTables(name, idb)
  const text = memories.find((m) => m.id === id)!.text
  const [expected] = await new NgramEmbedder().embed([text], { kind: 'passage' })
  return {
    stored: Array.from(vectors.find((v) => v.id === id)!.vector),
    expected: Array.from(expected!),
  }
}

describe('regressions: updates across tabs without Web Locks', () => {
  it("regression: an update in another tab without Web Locks lost this tab's tags", async () => {
    const idb = freshFactory()
    const a = await engine('lost-update', idb, undefined, noLock)
    const b = await engine('lost-update', idb, undefined, noLock)
    const { id } = await a.remember(fact(0))
    await b.catchUp()
    for (let round = 1; round <= 20; round++) {
      const text = fact(round)
      const tags = [`round-${round}`]
      await Promise.all([a.update(id, { text }), b.update(id, { tags })])
      const stored = await a.get(id)
      expect(stored?.text, `round ${round}`).toBe(text)
      expect(stored?.tags, `round ${round}`).toEqual(tags)
    }
    const { stored, expected } = await vectorAndText('lost-update', idb, id)
    expect(stored).toEqual(expected)
    await Promise.all([a.catchUp(), b.catchUp()])
    expectVerified(await a.inspect.verify())
    expectVerified(await b.inspect.verify())
  })

  it('regression: an update that read a row before another tab changed its text stored the other text’s vector', async () => {
    const idb = freshFactory()
    const gate = new ReadGate()
    const a = await engine('stale-vector', idb, undefined, { ...noLock, onDatabase: gate.install })
    const b = await engine('stale-vector', idb, undefined, noLock)
    const { id } = await a.remember(fact(0))
    for (let round = 1; round <= 10; round++) {
      const kept = fact(round)
      await a.update(id, { text: kept })
      // Tab a reads the row (its text is `kept` already), tab b changes the text, then a commits.
      const held = gate.hold()
      const update = a.update(id, { text: kept, tags: [`a-${round}`] })
      await held.reached
      await b.update(id, { text: fact(round, 1) })
      held.release()
      expect((await update).text).toBe(kept)
      const { stored, expected } = await vectorAndText('stale-vector', idb, id)
      expect(stored, `round ${round}`).toEqual(expected)
    }
    await Promise.all([a.catchUp(), b.catchUp()])
    expectVerified(await a.inspect.verify())
    expectVerified(await b.inspect.verify())
  })
})

/** A point one side waits at (`pass`) until the test, told it got there (`reached`), releases it. */
interface Gate {
  reached: Promise<void>
  release: () => void
  pass: () => Promise<void>
}

function newGate(): Gate {
  let arrive!: () => void
  let release!: () => void
  const reached = new Promise<void>((resolve) => {
    arrive = resolve
  })
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  return {
    reached,
    release,
    pass: () => {
      arrive()
      return released
    },
  }
}

/**
 * Holds the next read of a memory made outside a write transaction (an update's first read)
 * until released: the moment another tab gets in between a read and the write built on it.
 */
class ReadGate {
  #next: Gate | undefined

  readonly install = (db: Dexie): void => {
    db.use({
      stack: 'dbcore',
      name: 'read-gate',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name)
          if (name !== 'memories') return table
          return {
            ...table,
            get: async (req) => {
              const row = await table.get(req)
              const next = this.#next
              if (next && (req.trans as unknown as IDBTransaction).mode === 'readonly') {
                this.#next = undefined
                await next.pass()
              }
              return row
            },
          }
        },
      }),
    })
  }

  hold(): Gate {
    const gate = newGate()
    this.#next = gate
    return gate
  }
}

describe('regressions: write batches', () => {
  it('regression: a write matched to a memory another tab changed meanwhile was acknowledged as its duplicate and lost', async () => {
    const idb = freshFactory()
    const held = new HeldPassages()
    const a = await engine('changed-match', idb, undefined, { ...noLock, embedder: held })
    const b = await engine('changed-match', idb, undefined, noLock)
    const { id } = await a.remember(fact(1))
    // Tab a matches fact 1 to the stored memory, then embeds fact 2; tab b rewrites the memory.
    const gate = held.hold()
    const writing = a.rememberMany([{ text: fact(1) }, { text: fact(2) }])
    await gate.reached
    await b.update(id, { text: fact(3) })
    gate.release()
    const [again, other] = await writing
    expect(again).toMatchObject({ status: 'created' })
    expect(again!.id).not.toBe(id)
    expect(other).toMatchObject({ status: 'created' })
    const { memories } = await readTables('changed-match', idb)
    expect(memories.map((m) => m.text).sort()).toEqual([fact(1), fact(2), fact(3)].sort())
    expectVerified(await a.inspect.verify())
  })

  it('regression: importing 100k memories threw StorageError: Maximum call stack size exceeded', async () => {
    // The seqs of one batch went to Math.max(...seqs) as call arguments; Node takes about 130k,
    // a worker fewer. 200k seqs, one batch's worth for a large rememberMany, are past both.
    const idb = freshFactory()
    const events: MemoryEvent[] = []
    const db = new EngramDatabase('spread', idb)
    const ctx = new EngineContext({ name: 'spread', ...idb, onEvent: (e) => events.push(e) }, db)
    const seqs = Array.from({ length: 200_000 }, (_, i) => i + 1)
    expect(() => ctx.upkeep.recordWrites(seqs)).not.toThrow()
    expect(ctx.upkeep.lastSeq).toBe(200_000)
    expect(events).toEqual([{ type: 'change', seq: 200_000 }])
    await ctx.settled()
    db.close()
  })

  it('regression: a batch repeating the text of a near duplicate of an earlier item threw StorageError', async () => {
    const e = await engine('near-repeat', freshFactory())
    const a =
      'The owner prefers metric units for every measurement in recipes, travel plans and the weekly shopping list'
    const b = a.replace('prefers metric', 'prefers the metric')
    const results = await e.rememberMany([{ text: a }, { text: b }, { text: b.toUpperCase() }])
    expect(results.map((r) => [r.status, r.match])).toEqual([
      ['created', undefined],
      ['duplicate', 'near'],
      ['duplicate', 'exact'],
    ])
    expect(new Set(results.map((r) => r.id)).size).toBe(1)
    expect(await e.count()).toBe(1)
    expect((await e.get(results[0]!.id))?.confirmations).toBe(3)
    expectVerified(await e.inspect.verify())
  })
})

/** The n-gram embedder, with passage embedding slowed down on demand. */
class SlowPassages implements Embedder {
  readonly #inner = new NgramEmbedder()
  readonly model = this.#inner.model
  readonly dims = this.#inner.dims
  readonly state = 'ready' as const
  delayMs = 0
  async load(): Promise<void> {}
  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    if (options.kind === 'passage' && this.delayMs > 0) {
      await new Promise((r) => setTimeout(r, this.delayMs))
    }
    return this.#inner.embed(texts, options)
  }
  stats() {
    return this.#inner.stats()
  }
}

/** The n-gram embedder, whose next passage embedding can be held until released. */
class HeldPassages implements Embedder {
  readonly #inner = new NgramEmbedder()
  readonly model = this.#inner.model
  readonly dims = this.#inner.dims
  readonly state = 'ready' as const
  #next: Gate | undefined
  async load(): Promise<void> {}
  hold(): Gate {
    const gate = newGate()
    this.#next = gate
    return gate
  }
  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    const next = this.#next
    if (options.kind === 'passage' && next) {
      this.#next = undefined
      await next.pass()
    }
    return this.#inner.embed(texts, options)
  }
  stats() {
    return this.#inner.stats()
  }
}

describe('regressions: storage cleared underneath', () => {
  it('a database deleted and recreated while the connection was down kept serving its old memories', async () => {
    const idb = freshFactory()
    const faults = new FaultInjector()
    const e = await engine('cleared', idb, faults)
    const old = (await e.rememberMany([0, 1, 2].map((i) => ({ text: fact(i) })))).map((r) => r.id)
    faults.db!.close()
    await new EngramDatabase('cleared', idb).delete()
    const fresh = await e.remember(fact(9))
    expect(await e.count()).toBe(1)
    expectVerified(await e.inspect.verify())
    const { hits } = await e.recall(fact(1), { k: 10 })
    for (const id of old) expect(hits.map((h) => h.id)).not.toContain(id)
    expect((await e.recall(fact(9), { k: 1 })).hits[0]?.id).toBe(fresh.id)
  })
})
