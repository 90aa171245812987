/**
 * Fault injection and checking for the reliability suite: a Dexie DBCore middleware that counts
 * operations and fails, kills or closes at the Nth one; readers that look at the tables through
 * a connection of their own; the invariants every fault test ends with; and a tally that the
 * report script (`scripts/reliability-report.ts`) turns into the matrix in docs/reliability.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { DBCore, DBCoreTable, DBCoreTransaction, Dexie } from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { expect } from 'vitest'
import { uniform } from '../../../scripts/models/rng.ts'
import { dedupKey } from '../../../src/core/text.ts'
import type { Memory, VerifyReport } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import type { EngineOptions } from '../../../src/engine/engine-options.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { type ChangeRow, EngramDatabase, type VectorRow } from '../../../src/storage/index.ts'

/** Mulberry32, seeded: the same stream on every run, so a run can be replayed by its seed. */
export const seeded = uniform

/** Full counts with `ENGRAM_STRESS=1` (`npm run test:stress`); CI-sized otherwise. */
export const STRESS = process.env.ENGRAM_STRESS === '1'

export type Idb = { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }

export function freshFactory(): Idb {
  return { indexedDB: new IDBFactory(), IDBKeyRange }
}

const WORDS = (
  'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon mango nectar ' +
  'orchid pepper quartz raven saffron tundra umber violet walnut xenon yarrow zephyr anchor ' +
  'beacon canyon dune estuary falcon glacier heron island jasper kiln lantern meadow nomad ' +
  'oasis prairie quill ridge summit thicket upland valley willow yonder zenith'
).split(' ')

/**
 * A distinct fact per index: five words drawn by a seeded source, so no two facts are exact or
 * near duplicates of each other under the n-gram embedder.
 */
export function fact(i: number, salt = 0): string {
  const rand = seeded(i * 7919 + salt * 104_729 + 1)
  const words = Array.from({ length: 5 }, () => WORDS[Math.floor(rand() * WORDS.length)]!)
  return `Fact ${i}-${salt}: the ${words.join(' ')} note`
}

/** What the injector does when its count is reached. */
export type FaultKind = 'reject' | 'throw' | 'quota' | 'quota-wrapped'

export function injectedError(kind: FaultKind): Error {
  if (kind === 'quota') {
    return new DOMException('injected: the quota is exhausted', 'QuotaExceededError')
  }
  if (kind === 'quota-wrapped') {
    // Chrome reports a quota failure at commit as an AbortError whose cause is the quota error.
    return Object.assign(new DOMException('injected: transaction aborted', 'AbortError'), {
      inner: { name: 'QuotaExceededError', message: 'injected: the quota is exhausted' },
    })
  }
  return new Error(`injected ${kind}`)
}

type AnyReq = { trans?: DBCoreTransaction }

/**
 * A DBCore middleware that sees every table operation of one Dexie instance. Counters always
 * run; faults fire once when armed:
 * - `failAt`: the Nth mutation (add/put/delete, a bulk call counting once) rejects or throws;
 * - `killAt`: at the Nth operation of any kind the "worker dies": that operation's transaction
 *   is aborted (what IndexedDB does to uncommitted work of a terminated worker) and this
 *   connection never answers again;
 * - `closeAt`: at the Nth operation, `db.close()` is called from outside.
 */
export class FaultInjector {
  db: Dexie | undefined
  mutations = 0
  operations = 0
  /** Read-write transactions that include `memories`. */
  writeTransactions = 0
  failAt = 0
  /** Keep failing every mutation from `failAt` on (a disk that stays full). */
  failOn = false
  /** How a quota failure is dressed: as IndexedDB raises it, or wrapped as Dexie may pass it on. */
  failKind: FaultKind = 'reject'
  /** Only mutations of these tables count toward `failAt`; all when unset. */
  failTables: Set<string> | undefined
  killAt = 0
  closeAt = 0
  fired = 0
  dead = false
  readonly #onDead: (() => void)[] = []

  /** Pass as `EngineOptions.onDatabase`. */
  readonly install = (db: Dexie): void => {
    this.db = db
    db.use({ stack: 'dbcore', name: 'fault-injector', create: (down) => this.#wrap(down) })
  }

  /** Starts counting afresh and arms the given fault. */
  arm(fault: {
    failAt?: number
    failOn?: boolean
    kind?: FaultKind
    tables?: string[]
    killAt?: number
    closeAt?: number
  }): void {
    this.mutations = 0
    this.operations = 0
    this.writeTransactions = 0
    this.fired = 0
    this.failAt = fault.failAt ?? 0
    this.failOn = fault.failOn ?? false
    this.failKind = fault.kind ?? 'reject'
    this.failTables = fault.tables ? new Set(fault.tables) : undefined
    this.killAt = fault.killAt ?? 0
    this.closeAt = fault.closeAt ?? 0
  }

  disarm(): void {
    this.failAt = 0
    this.failOn = false
    this.killAt = 0
    this.closeAt = 0
  }

  /** Resolves when the kill fires. */
  whenDead(): Promise<void> {
    if (this.dead) return Promise.resolve()
    return new Promise((resolve) => this.#onDead.push(resolve))
  }

  #wrap(down: DBCore): DBCore {
    const self = this
    return {
      ...down,
      transaction(stores, mode, options) {
        // Not InvalidStateError: Dexie answers that one by reopening the connection.
        if (self.dead) throw Object.assign(new Error('the worker is gone'), { name: 'WorkerGone' })
        if (mode === 'readwrite' && stores.includes('memories')) self.writeTransactions++
        return down.transaction(stores, mode, options)
      },
      table(name) {
        return self.#wrapTable(name, down.table(name))
      },
    }
  }

  #wrapTable(name: string, table: DBCoreTable): DBCoreTable {
    const read =
      <R extends AnyReq, T>(call: (req: R) => Promise<T>) =>
      (req: R): Promise<T> =>
        this.#before(req) ?? call(req)
    return {
      ...table,
      get: read((req) => table.get(req)),
      getMany: read((req) => table.getMany(req)),
      query: read((req) => table.query(req)),
      openCursor: read((req) => table.openCursor(req)),
      count: read((req) => table.count(req)),
      mutate: (req) => {
        const stop = this.#before(req)
        if (stop) return stop
        if (this.failTables && !this.failTables.has(name)) return table.mutate(req)
        this.mutations++
        const failing = this.failOn ? this.mutations >= this.failAt : this.mutations === this.failAt
        if (this.failAt > 0 && failing) {
          this.fired++
          const error = injectedError(this.failKind)
          if (this.failKind === 'throw') throw error
          return Promise.reject(error)
        }
        return table.mutate(req)
      },
    }
  }

  /** A never-settling promise when the connection is dead, else undefined (go on). */
  #before(req: AnyReq): Promise<never> | undefined {
    if (this.dead) return this.#hang(req)
    this.operations++
    if (this.killAt > 0 && this.operations === this.killAt) {
      this.fired++
      this.dead = true
      for (const resolve of this.#onDead.splice(0)) resolve()
      return this.#hang(req)
    }
    if (this.closeAt > 0 && this.operations === this.closeAt) {
      this.fired++
      this.db?.close()
    }
    return undefined
  }

  #hang(req: AnyReq): Promise<never> {
    try {
      req.trans?.abort()
    } catch {
      // Already finished or aborted.
    }
    return new Promise<never>(() => {})
  }
}

/** Opens an engine over `idb` with the n-gram embedder, a fixed clock and the injector. */
export async function openEngine(
  name: string,
  idb: Idb,
  faults?: FaultInjector,
  options: Partial<EngineOptions> = {},
): Promise<MemoryEngine> {
  return MemoryEngine.open({
    name,
    ...idb,
    embedder: new NgramEmbedder(),
    clock: () => Date.UTC(2026, 0, 1),
    snapshotEvery: 1_000_000,
    ...(faults ? { onDatabase: faults.install } : {}),
    ...options,
  })
}

export interface Tables {
  memories: Memory[]
  vectors: VectorRow[]
  changes: ChangeRow[]
}

/** Reads the tables through a connection of its own, in one transaction. */
export async function readTables(name: string, idb: Idb): Promise<Tables> {
  const db = new EngramDatabase(name, idb)
  try {
    await db.open()
    return await db.transaction('r', db.memories, db.vectors, db.changes, async () => ({
      memories: await db.memories.toArray(),
      vectors: await db.vectors.toArray(),
      changes: await db.changes.toArray(),
    }))
  } finally {
    db.close()
  }
}

/** The stored content, independent of ids and timestamps: comparable across runs. */
export function content(tables: Tables): string[] {
  const vectors = new Set(tables.vectors.map((v) => v.id))
  return tables.memories
    .map((m) =>
      JSON.stringify([
        m.namespace,
        m.type,
        m.key,
        m.text,
        m.tags,
        m.aliases,
        m.source,
        m.trust,
        m.confidence,
        m.flags,
        m.confirmations,
        m.expiresAt ?? null,
        m.meta ?? null,
        vectors.has(m.id),
      ]),
    )
    .sort()
}

const embedder = new NgramEmbedder()

/**
 * What "nothing half-present" means at the row level: every memory has a vector of the current
 * model that is the embedding of its current text, a `put` in the change log (unless a snapshot
 * pruned it), and a key that matches its text; no vector lacks its memory.
 */
export function halfWritten(tables: Tables): string[] {
  const problems: string[] = []
  const vectors = new Map(tables.vectors.map((v) => [v.id, v]))
  const logged = new Set(tables.changes.filter((c) => c.op === 'put').map((c) => c.id))
  // A snapshot prunes the log's head; only an unpruned log must name every memory.
  const pruned = tables.changes.length > 0 && Math.min(...tables.changes.map((c) => c.seq!)) > 1
  const ids = new Set(tables.memories.map((m) => m.id))
  for (const m of tables.memories) {
    if (m.key !== dedupKey(m.text)) problems.push(`${m.id}: key does not match text`)
    if (!pruned && !logged.has(m.id)) problems.push(`${m.id}: no change-log entry`)
    const v = vectors.get(m.id)
    if (!v) {
      problems.push(`${m.id}: no vector`)
      continue
    }
    const expected = embedder.embedOne(m.text)
    let dot = 0
    for (let i = 0; i < expected.length; i++) dot += expected[i]! * v.vector[i]!
    if (dot < 0.999) problems.push(`${m.id}: vector is not the embedding of its text (${dot})`)
  }
  for (const v of tables.vectors) if (!ids.has(v.id)) problems.push(`${v.id}: orphan vector`)
  return problems
}

/** Expects a clean verify report, printing what disagreed when it is not. */
export function expectVerified(report: VerifyReport): void {
  expect(
    report.ok,
    `verify() failed: ${JSON.stringify({ ...report, ok: undefined }, null, 0)}`,
  ).toBe(true)
}

/** What a caller was told, to be checked against the tables after a fault. */
export class Acknowledged {
  /** id → key of the text it must hold. */
  readonly present = new Map<string, string>()
  readonly absent = new Set<string>()

  wrote(id: string, text: string): void {
    this.absent.delete(id)
    this.present.set(id, dedupKey(text))
  }

  forgot(id: string): void {
    this.present.delete(id)
    this.absent.add(id)
  }

  /** Acknowledged writes missing (or changed) in the tables, and forgotten ids still there. */
  lost(tables: Tables): string[] {
    const rows = new Map(tables.memories.map((m) => [m.id, m]))
    const lost: string[] = []
    for (const [id, key] of this.present) {
      const row = rows.get(id)
      if (!row) lost.push(`${id}: acknowledged write missing`)
      else if (row.key !== key) lost.push(`${id}: holds "${row.text}", acknowledged otherwise`)
    }
    for (const id of this.absent) if (rows.has(id)) lost.push(`${id}: forgotten but present`)
    return lost
  }

  get size(): number {
    return this.present.size + this.absent.size
  }
}

/** One row of the reliability matrix, summed over the runs of a test. */
export interface MatrixRow {
  id: string
  fault: string
  injected: string
  expected: string
  /** Runs in which the fault actually fired. */
  faults: number
  /** Of those, runs after which every invariant held. */
  survived: number
  /** Acknowledged writes checked after the faults. */
  acknowledged: number
  /** Acknowledged writes missing or wrong after the faults: must be 0. */
  lost: number
}

const rows = new Map<string, MatrixRow>()

/** Adds runs to a matrix row. */
export function tally(
  row: Omit<MatrixRow, 'faults' | 'survived' | 'acknowledged' | 'lost'>,
  counts: Partial<Pick<MatrixRow, 'faults' | 'survived' | 'acknowledged' | 'lost'>>,
): void {
  const current = rows.get(row.id) ?? { ...row, faults: 0, survived: 0, acknowledged: 0, lost: 0 }
  current.faults += counts.faults ?? 0
  current.survived += counts.survived ?? 0
  current.acknowledged += counts.acknowledged ?? 0
  current.lost += counts.lost ?? 0
  rows.set(row.id, current)
}

/** Writes this file's rows to `test-results/reliability/<file>.json` (call in `afterAll`). */
export function writeTally(file: string): void {
  if (rows.size === 0) return
  const path = join('test-results', 'reliability', `${file}.json`)
  mkdirSync(dirname(path), { recursive: true })
  const summary = { file, stress: STRESS, at: new Date().toISOString(), rows: [...rows.values()] }
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`)
}

/**
 * A sweep's faults and how many of them were survived, counted from the checks themselves: each
 * faulted run's checks go through {@link check}, which keeps a failure instead of throwing it, so
 * `survived` falls short when a check fails and the tally says so before the test fails on it
 * ({@link assertAll}, called after `tally`).
 *
 * @example
 * const survival = new Survival()
 * await survival.check(() => expect(missing).toEqual([]))
 * tally(row, { faults: survival.faults, survived: survival.survived })
 * survival.assertAll() // => throws the first failed check, if any
 */
export class Survival {
  faults = 0
  survived = 0
  readonly #failures: unknown[] = []

  /** Counts one faulted run, survived when every check in `checks` holds. */
  async check(checks: () => void | Promise<void>): Promise<boolean> {
    this.faults++
    try {
      await checks()
      this.survived++
      return true
    } catch (error) {
      this.#failures.push(error)
      return false
    }
  }

  /** Fails with the first check that failed, if one did. */
  assertAll(): void {
    if (this.#failures.length > 0) throw this.#failures[0]
  }
}

/** Settles within `ms` or says it hung: a fault must never leave a caller waiting forever. */
export async function settled<T>(
  promise: Promise<T>,
  ms = 5000,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown } | { hung: true }> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<{ hung: true }>((resolve) => {
    timer = setTimeout(() => resolve({ hung: true }), ms)
  })
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}
