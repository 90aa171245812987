import { afterAll, describe, expect, it } from 'vitest'
import { type EngramError, StorageError, StorageFullError } from '../../../src/core/errors.ts'
import type { Embedder, EmbedderState, EmbedKind } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { eventually } from '../../helpers/eventually.ts'
import {
  content,
  expectVerified,
  FaultInjector,
  type FaultKind,
  fact,
  freshFactory,
  halfWritten,
  openEngine,
  readTables,
  Survival,
  tally,
  writeTally,
} from './harness.ts'

afterAll(() => writeTally('fail-nth-write'))

const SEEDS = 4

/** One write call of each kind, against a memory seeded with {@link SEEDS} facts. */
const OPERATIONS: Record<string, (e: MemoryEngine, ids: string[]) => Promise<unknown>> = {
  remember: (e) => e.remember(fact(100), { tags: ['new'] }),
  'remember (duplicate, confirms)': (e) => e.remember(fact(0).toUpperCase()),
  'remember (8 concurrent, coalesced)': (e) =>
    Promise.all([...Array(8).keys()].map((i) => e.remember(fact(200 + (i % 5))))),
  rememberMany: (e) =>
    e.rememberMany([
      { text: fact(300) },
      { text: fact(301), tags: ['batch'] },
      { text: fact(1) },
      { text: fact(300).toLowerCase() },
    ]),
  'remember (supersedes)': (e, ids) => e.remember(fact(600), { supersedes: ids[0]! }),
  update: (e, ids) => e.update(ids[1]!, { text: fact(400), tags: ['changed'] }),
  'update (tags only)': (e, ids) => e.update(ids[2]!, { tags: ['relabelled'] }),
  forget: (e, ids) => e.forget(ids[3]!),
  import: (e) =>
    e.transfer.import(
      [fact(500), fact(501), fact(2)].map((text) => JSON.stringify({ text })).join('\n'),
    ),
}

const EXPECTED_ERROR: Record<FaultKind, abstract new (...args: never[]) => EngramError> = {
  'quota-wrapped': StorageFullError,
  reject: StorageError,
  throw: StorageError,
  quota: StorageFullError,
}

let run = 0

/**
 * One run: seed, arm the fault at mutation `n`, call, then check that the call either fully
 * happened (the same content a fault-free run produced) or fully did not (the content before),
 * that a failure is typed, that the engine stays usable, and that a reopen agrees.
 */
async function sweepOnce(
  op: (e: MemoryEngine, ids: string[]) => Promise<unknown>,
  n: number,
  kind: FaultKind,
): Promise<{
  fired: boolean
  mutations: number
  outcome: 'done' | 'undone'
  after: string[]
  acknowledged: number
  /** The first check that failed, kept so the sweep counts this run as not survived. */
  failure?: unknown
}> {
  const idb = freshFactory()
  const name = `sweep-${++run}`
  const faults = new FaultInjector()
  const engine = await openEngine(name, idb, faults)
  const seeded = await engine.rememberMany([...Array(SEEDS).keys()].map((i) => ({ text: fact(i) })))
  const ids = seeded.map((r) => r.id)
  const before = content(await readTables(name, idb))
  faults.arm({ failAt: n, kind })
  let error: unknown
  await op(engine, ids).catch((e: unknown) => {
    error = e
  })
  const firedInCall = faults.fired > 0
  const duringOp = faults.mutations
  const after = content(await readTables(name, idb))
  const outcome = error === undefined ? 'done' : 'undone'
  // The acknowledged seeds and follow-up writes; the content checks below find them.
  const acknowledged = SEEDS + (firedInCall ? 2 : 1)
  try {
    await checkRun()
  } catch (failure) {
    await engine.close().catch(() => {})
    return { fired: faults.fired > 0, mutations: duringOp, outcome, after, acknowledged, failure }
  }
  return { fired: faults.fired > 0, mutations: duringOp, outcome, after, acknowledged }

  async function checkRun(): Promise<void> {
    if (error !== undefined) {
      expect(firedInCall, `the call failed without a fault: ${String(error)}`).toBe(true)
      expect(error).toBeInstanceOf(EXPECTED_ERROR[kind])
      expect(after).toEqual(before)
    }
    expectVerified(await engine.inspect.verify())
    if (firedInCall) {
      // Still usable after the fault: a new write lands and agrees.
      faults.disarm()
      const follow = await engine.remember(fact(900))
      expectVerified(await engine.inspect.verify())
      expect(await engine.get(follow.id)).toBeDefined()
    }
    // A fault not spent on the call hits close() (its snapshot): close still resolves.
    await engine.close()
    const tables = await readTables(name, idb)
    expect(halfWritten(tables)).toEqual([])
    // Everything there after the call (seeds included) is still there after close().
    expect(content(tables)).toEqual(expect.arrayContaining(after))
    const reopened = await openEngine(name, idb)
    expectVerified(await reopened.inspect.verify())
    expect(await reopened.count()).toBe(tables.memories.length)
    const again = await reopened.remember(fact(901))
    expectVerified(await reopened.inspect.verify())
    expect(await reopened.get(again.id)).toBeDefined()
    await reopened.close()
  }
}

describe('fail the Nth write', () => {
  for (const kind of ['reject', 'throw', 'quota'] as const) {
    for (const [label, op] of Object.entries(OPERATIONS)) {
      it(`${label}: every injected ${kind} leaves the call whole or absent, typed, and the engine usable`, async () => {
        // The fault-free run says what "fully happened" looks like.
        const clean = await sweepOnce(op, 0, kind)
        if (clean.failure) throw clean.failure
        expect(clean.fired).toBe(false)
        const survival = new Survival()
        let acknowledged = 0
        const outcomes = { done: 0, undone: 0 }
        for (let n = 1; ; n++) {
          const result = await sweepOnce(op, n, kind)
          if (!result.fired) {
            if (result.failure) throw result.failure
            break
          }
          await survival.check(() => {
            if (result.failure) throw result.failure
            if (result.outcome === 'done') expect(result.after).toEqual(clean.after)
          })
          outcomes[result.outcome]++
          acknowledged += result.acknowledged
        }
        const { faults, survived } = survival
        // Every write of the call itself was a fault point, and each one undid the call.
        expect(outcomes.undone).toBeGreaterThanOrEqual(1)
        tally(
          {
            id: `fail-nth-${kind}`,
            fault: `Fail the Nth write (${kind === 'quota' ? 'QuotaExceededError' : kind === 'throw' ? 'synchronous throw' : 'rejected promise'})`,
            injected:
              'DBCore middleware fails the Nth mutate, N swept over every write of remember, remember ×8, rememberMany, update, forget, import and the close() after' +
              (kind === 'reject' ? ', and of the background backfill' : ''),
            expected: `call whole or absent; ${EXPECTED_ERROR[kind].name}; verify() ok; engine usable; reopen agrees`,
          },
          { faults, survived, acknowledged },
        )
        survival.assertAll()
      })
    }
  }
})

/** The n-gram embedder, loading until `ready()` is called: writes land without vectors first. */
class LateEmbedder implements Embedder {
  readonly #inner = new NgramEmbedder()
  readonly model = this.#inner.model
  readonly dims = this.#inner.dims
  state: EmbedderState = 'loading'
  #resolve!: () => void
  readonly #loaded = new Promise<void>((resolve) => {
    this.#resolve = resolve
  })
  ready(): void {
    this.state = 'ready'
    this.#resolve()
  }
  load(): Promise<void> {
    return this.#loaded
  }
  embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    return this.#inner.embed(texts, options)
  }
  stats() {
    return { ...this.#inner.stats(), state: this.state }
  }
}

/** Resolves once every memory has its vector. */
function embedded(e: MemoryEngine): Promise<void> {
  return eventually(
    async () => (await e.inspect.stats()).pendingVectors === 0,
    'the backfill ended',
  )
}

describe('fail the Nth write of the background backfill', () => {
  it('regression: a failed backfill batch left memories unembedded for the rest of the session', async () => {
    const survival = new Survival()
    for (let n = 1; ; n++) {
      const idb = freshFactory()
      const name = `backfill-${n}`
      const late = new LateEmbedder()
      const injector = new FaultInjector()
      const e = await openEngine(name, idb, injector, { embedder: late })
      const texts = [...Array(40).keys()].map((i) => fact(i))
      const results = await e.rememberMany(texts.map((text) => ({ text })))
      expect((await e.inspect.stats()).pendingVectors).toBe(40)
      injector.arm({ failAt: n })
      late.ready()
      let failure: unknown
      try {
        // The backfill runs a batch at a time; a fault stops it where it strikes, and it is
        // tried again after a back-off, on the same engine.
        await embedded(e)
        expectVerified(await e.inspect.verify())
        await e.close()
        const tables = await readTables(name, idb)
        expect(tables.memories).toHaveLength(40)
        for (const r of results) expect(tables.memories.map((m) => m.id)).toContain(r.id)
        const reopened = await openEngine(name, idb)
        await embedded(reopened)
        expectVerified(await reopened.inspect.verify())
        expect(halfWritten(await readTables(name, idb))).toEqual([])
        await reopened.close()
      } catch (error) {
        failure = error
        await e.close().catch(() => {})
      }
      if (injector.fired === 0) {
        if (failure) throw failure
        break
      }
      await survival.check(() => {
        if (failure) throw failure
      })
    }
    const { faults, survived } = survival
    expect(faults).toBeGreaterThan(2)
    tally(
      {
        id: 'fail-nth-reject',
        fault: '',
        injected: '',
        expected: '',
      },
      { faults, survived },
    )
    survival.assertAll()
  })
})
