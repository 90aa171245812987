import {
  DEFAULT_LIMITS,
  type LifecycleOptions,
  type LimitOptions,
  type RecallDefaults,
  type RecallQueueOptions,
  type RetrievalOptions,
} from '../core/options.ts'
import type { AtRestSecret, Embedder, MemoryEventListener } from '../core/types.ts'
import {
  badOption,
  expectFunction,
  expectOptions,
  integerIn,
  numberIn,
  oneOf,
} from '../core/validate.ts'
import { TIERS } from '../core/vocabulary.ts'
import { checkAtRestSecret, type EngramDatabase } from '../storage/index.ts'
import type { KeywordIndexOptions } from './index/keyword-index.ts'
import { checkRecallDefaults } from './recall/options.ts'

/** When the engine reviews itself (`EngineOptions.autoReview`). */
export interface AutoReviewOptions {
  /** Quiet time (no queued writes) before a due review starts, ms. @default 30000 */
  idleMs?: number
}

/** How to open a {@link MemoryEngine}. Only `name` is required. */
export interface EngineOptions {
  /** Database name; one IndexedDB database per memory name. */
  name: string
  /** IndexedDB factory. @default globalThis.indexedDB (pass fake-indexeddb's in Node) */
  indexedDB?: IDBFactory
  /** Matching key-range constructor. @default globalThis.IDBKeyRange */
  IDBKeyRange?: typeof IDBKeyRange
  /** Turns text into vectors. Without one, recall is keyword-only (`degraded: 'no-embedder'`). */
  embedder?: Embedder
  /**
   * The engine-only tuning of retrieval and dedup (see {@link RetrievalOptions}): list depth,
   * fusion, near-duplicate and related cosines. Each field over its default.
   */
  retrieval?: Partial<RetrievalOptions>
  /**
   * Defaults of every recall's options, of the recall options' own type (less the `select`
   * hook), merged under each call's options: the call's value wins, and `weights`,
   * `selectOptions` and the objects of `floor` and `boosts` merge field by field
   * (`mergeRecallOptions`). Checked at open like a recall's options. @default {} (the recall
   * options' own defaults)
   *
   * @example
   * const memory = await MemoryEngine.open({ name: 'm', recallDefaults: { k: 8, floor: { minCosine: 0.3 } } })
   * await memory.recall('units', { k: 3 }) // => at most 3 hits, under the engine's floor
   */
  recallDefaults?: RecallDefaults
  limits?: Partial<LimitOptions>
  /**
   * Tiers, TTLs and confidence (see {@link LifecycleOptions}); `ttlDays`, `tierByType` and
   * `sourceConfidence` merge over their defaults field by field.
   *
   * @example
   * await MemoryEngine.open({ name: 'm', lifecycle: { ttlDays: { working: 0.5 } } })
   * // working memories now expire 12 h after their last use
   */
  /**
   * Run `review()` by itself: when writes have been quiet for `idleMs` and no review completed
   * in the last day (per database, whichever tab ran it), or one was cut short. One tab at a
   * time. `false` turns it off.
   * @default {} (on, at every door: `DOOR_DEFAULTS.autoReview`)
   */
  autoReview?: AutoReviewOptions | false
  lifecycle?: Partial<Omit<LifecycleOptions, 'ttlDays'>> & {
    ttlDays?: Partial<LifecycleOptions['ttlDays']>
  }
  /** Milliseconds since epoch. Injected so tests can move time. @default Date.now */
  clock?: () => number
  /**
   * Ids of new memories and pages, each distinct from every id it made before. Injected so tests
   * can fix them. @default a monotonic ULID factory (ids made in one millisecond still sort in
   * the order they were made)
   */
  newId?: () => string
  /**
   * The least number of changes after the last snapshot before a new one is due: the engine
   * snapshots after max(snapshotEvery, a quarter of the store) changes (a snapshot costs time in
   * proportion to the store), also once writes pause for 3 s (`IDLE_SNAPSHOT_MS`) and on
   * `close()`. A positive integer. @default 1000
   */
  snapshotEvery?: number
  /** Recall-log entries kept, 1..1000000. @default 200 */
  recallLogSize?: number
  /** Progress and change notices. */
  onEvent?: MemoryEventListener
  /** BM25 tuning (field boosts, prefix/fuzzy, BM25 parameters). */
  keyword?: Partial<KeywordIndexOptions>
  /**
   * Serialises writers across tabs: runs `task` while holding an exclusive lock for this
   * database. @default a Web Lock (`navigator.locks`) where available, else none
   */
  writeLock?: <T>(task: () => Promise<T>) => Promise<T>
  /**
   * Most `remember` calls coalesced into one transaction, and import lines per transaction when
   * `transfer.import` is not told. Range 1..10000. @default 500
   */
  writeBatch?: number
  /**
   * How many recalls run at once (`concurrency`, 1..64) and how many more may wait for a turn
   * (`maxQueued`, 0..100000); a recall beyond both is refused with `RecallBusyError`
   * (`RECALL_BUSY`) before it reads anything. Each field merges over its default.
   * @default { concurrency: 4, maxQueued: 256 } (`DEFAULT_RECALL_QUEUE`)
   *
   * @example
   * const memory = await MemoryEngine.open({ name: 'm', recallQueue: { maxQueued: 0 } })
   * await Promise.allSettled([1, 2, 3, 4, 5].map(() => memory.recall('units')))
   * // => four answered, the fifth rejected with RecallBusyError
   */
  recallQueue?: Partial<RecallQueueOptions>
  /**
   * For tests and instrumentation only: called once with the Dexie database before it first
   * opens, so a test can install DBCore middleware (`db.use({ stack: 'dbcore', ... })`) to count
   * transactions or inject faults, or keep the handle to close the connection underneath the
   * engine. The engine reuses this same instance when it reopens. Leave it out in products.
   *
   * @example
   * let writes = 0
   * const onDatabase = (db) => db.use({ stack: 'dbcore', name: 'count', create: (down) => ({
   *   ...down,
   *   table: (name) => {
   *     const table = down.table(name)
   *     return { ...table, mutate: (req) => (writes++, table.mutate(req)) }
   *   },
   * }) })
   * await (await MemoryEngine.open({ name: 'm', onDatabase })).remember('hello')
   * writes // => 3 (memories, vectors, changes)
   */
  onDatabase?: (db: EngramDatabase) => void
  /**
   * Encryption at rest: texts, summaries, meta, aliases, tags, sources, vectors, index
   * snapshots and recall-log queries are stored sealed (XChaCha20-Poly1305) under a key from this
   * secret; the exact-dedup key and tags as keyed hashes. Turns encryption on for a memory with
   * no rows yet (`EncryptionError` `NOT_EMPTY` otherwise) and is required to open an encrypted
   * one (`KEY_REQUIRED`); a wrong secret is `WRONG_KEY`, with nothing changed. Then
   * `atRest.lock()` / `atRest.unlock(secret)`. @default none (rows stored as they are)
   *
   * @example
   * await MemoryEngine.open({ name: 'm', encryption: { passphrase: 'correct horse' } })
   * // => the rows in IndexedDB hold `sealed` bytes instead of the texts
   */
  encryption?: AtRestSecret
}

const ENGINE_OPTIONS: Record<keyof EngineOptions, true> = {
  name: true,
  indexedDB: true,
  IDBKeyRange: true,
  embedder: true,
  retrieval: true,
  recallDefaults: true,
  limits: true,
  lifecycle: true,
  autoReview: true,
  clock: true,
  newId: true,
  snapshotEvery: true,
  recallLogSize: true,
  onEvent: true,
  keyword: true,
  writeLock: true,
  writeBatch: true,
  recallQueue: true,
  onDatabase: true,
  encryption: true,
}

/**
 * Checks the options whose wrong type would otherwise surface late, as a hang or a loop
 * (`writeBatch: 0` never drains the write queue), or as every write refused (`limits.maxTags:
 * '32'`). Unknown option names are rejected, like a misspelt `writeBatch`.
 *
 * @throws InvalidInputError `BAD_OPTION`.
 */
export function checkEngineOptions(options: EngineOptions): void {
  const o = expectOptions(options, 'name', Object.keys(ENGINE_OPTIONS), '', true)
  if (typeof o.name !== 'string' || o.name === '') {
    throw badOption('name', 'a non-empty memory name', o.name)
  }
  const counts = {
    writeBatch: 10_000,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    recallLogSize: 1_000_000,
  }
  for (const [name, max] of Object.entries(counts)) {
    if (o[name] !== undefined) integerIn(o[name], name, 1, max)
  }
  for (const name of ['clock', 'newId', 'onEvent', 'writeLock', 'onDatabase'] as const) {
    if (o[name] !== undefined) expectFunction(o[name], name)
  }
  if (o.limits !== undefined) {
    // Every limit is a count; its name is the engine's business (options.ts), its type is not.
    for (const [name, value] of Object.entries(
      expectOptions(o.limits, 'limits', ownKeys(o.limits), 'limits.'),
    )) {
      if (value !== undefined) integerIn(value, `limits.${name}`, 1, Number.MAX_SAFE_INTEGER)
    }
  }
  if (o.recallQueue !== undefined) checkRecallQueue(o.recallQueue)
  if (o.encryption !== undefined) checkAtRestSecret(o.encryption, 'encryption')
  if (o.retrieval !== undefined) checkRetrieval(o.retrieval)
  if (o.recallDefaults !== undefined) {
    checkRecallDefaults(o.recallDefaults, { ...DEFAULT_LIMITS, ...(o.limits as object) })
  }
  if (o.lifecycle !== undefined) checkLifecycle(o.lifecycle)
  if (o.autoReview !== undefined && o.autoReview !== false) {
    const a = expectOptions(o.autoReview, 'autoReview', ['idleMs'], 'autoReview.')
    if (a.idleMs !== undefined) integerIn(a.idleMs, 'autoReview.idleMs', 1, 86_400_000)
  }
}

/** Most recalls that may run at once, and wait for a turn (see `RecallQueueOptions`). */
const RECALL_QUEUE_LIMITS = { concurrency: [1, 64], maxQueued: [0, 100_000] } as const

function checkRecallQueue(value: unknown): void {
  const q = expectOptions(value, 'recallQueue', Object.keys(RECALL_QUEUE_LIMITS), 'recallQueue.')
  for (const [name, [min, max]] of Object.entries(RECALL_QUEUE_LIMITS)) {
    if (q[name] !== undefined) integerIn(q[name], `recallQueue.${name}`, min, max)
  }
}

/** Lifecycle tuning: TTLs must be positive, shares and confidences 0..1. */
function checkLifecycle(value: unknown): void {
  const l = expectOptions(value, 'lifecycle', ownKeys(value), 'lifecycle.')
  const fraction = ['otherSourceConfidence', 'untrustedCeiling', 'reinforcement', 'reviewBelow']
  for (const name of fraction) {
    if (l[name] !== undefined) numberIn(l[name], `lifecycle.${name}`, 0, 1)
  }
  if (l.graceDays !== undefined)
    numberIn(l.graceDays, 'lifecycle.graceDays', 0, Number.POSITIVE_INFINITY)
  if (l.defaultTier !== undefined) oneOf(l.defaultTier, TIERS, 'lifecycle.defaultTier')
  if (l.ttlDays !== undefined) {
    const ttl = expectOptions(l.ttlDays, 'lifecycle.ttlDays', [...TIERS], 'lifecycle.ttlDays.')
    for (const [tier, days] of Object.entries(ttl)) {
      // Range '≥ 5e-324' reads oddly, but a TTL of 0 would expire every memory at birth.
      if (days !== undefined)
        numberIn(days, `lifecycle.ttlDays.${tier}`, Number.MIN_VALUE, Infinity)
    }
  }
  if (l.tierByType !== undefined)
    eachEntry(l.tierByType, 'lifecycle.tierByType', (tier, at) => oneOf(tier, TIERS, at))
  if (l.sourceConfidence !== undefined)
    eachEntry(l.sourceConfidence, 'lifecycle.sourceConfidence', (c, at) => numberIn(c, at, 0, 1))
}

const RETRIEVAL_OPTIONS: Record<keyof RetrievalOptions, true> = {
  rrfK: true,
  listDepth: true,
  nearDuplicate: true,
  relatedFloor: true,
  fusion: true,
  tieEpsilon: true,
}

/**
 * The retrieval tuning whose wrong type would break every recall. An unknown name is rejected:
 * `retrieval.k` and `retrieval.boosts` moved to `recallDefaults`, `retrieval.candidates` is
 * `retrieval.listDepth`.
 */
function checkRetrieval(value: unknown): void {
  const r = expectOptions(value, 'retrieval', Object.keys(RETRIEVAL_OPTIONS), 'retrieval.')
  if (r.rrfK !== undefined) numberIn(r.rrfK, 'retrieval.rrfK', 0, Number.POSITIVE_INFINITY)
  if (r.listDepth !== undefined) integerIn(r.listDepth, 'retrieval.listDepth', 1, 100_000)
  if (r.nearDuplicate !== undefined) numberIn(r.nearDuplicate, 'retrieval.nearDuplicate', 0, 1)
  if (r.relatedFloor !== undefined) numberIn(r.relatedFloor, 'retrieval.relatedFloor', 0, 1)
  if (r.tieEpsilon !== undefined)
    numberIn(r.tieEpsilon, 'retrieval.tieEpsilon', 0, Number.POSITIVE_INFINITY)
  if (r.fusion !== undefined) oneOf(r.fusion, ['score', 'rrf'], 'retrieval.fusion')
}

/** Checks each value of a record whose names belong elsewhere (types, sources, boost names). */
function eachEntry(
  value: unknown,
  field: string,
  check: (value: unknown, field: string) => unknown,
): void {
  const record = expectOptions(value, field, ownKeys(value), `${field}.`)
  for (const [name, item] of Object.entries(record)) check(item, `${field}.${name}`)
}

/** The keys an object has, to check the values of a record whose names belong elsewhere. */
function ownKeys(value: unknown): string[] {
  return value !== null && typeof value === 'object' ? Object.keys(value) : []
}
