/**
 * Engram itself: the real {@link MemoryEngine} with default options, over whatever IndexedDB the
 * environment gives (fake-indexeddb in Node, the browser's own in a Chromium worker). Query
 * vectors are precomputed and served from a map, so timings exclude query embedding.
 */

import { monotonicFactory } from 'ulidx'
import { DEFAULT_LIMITS } from '../../../src/core/options.ts'
import { parseQuery } from '../../../src/core/query.ts'
import type {
  Embedder,
  EmbedderStats,
  EmbedKind,
  Memory,
  RecallOptions,
} from '../../../src/core/types.ts'
import { VectorIndex, type VectorIndexSnapshot } from '../../../src/core/vector/index.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { KeywordIndex } from '../../../src/engine/keyword-index.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { prepareWrite } from '../../../src/engine/prepare.ts'
import { toMemory } from '../../../src/engine/write-batch.ts'
import { EngramDatabase } from '../../../src/storage/index.ts'
import { databaseBytes, request } from '../idb.ts'
import { approxBytes } from '../measure.ts'
import type { BenchSystem, Doc, ImportNote, Mode, Query, SystemEnv } from '../types.ts'

/** Serves known vectors by text; anything else is embedded by the n-gram embedder. */
class PrecomputedEmbedder implements Embedder {
  readonly #fallback = new NgramEmbedder()
  readonly #known = new Map<string, Float32Array>()
  readonly model = this.#fallback.model
  readonly dims = this.#fallback.dims
  readonly state = 'ready' as const

  async load(): Promise<void> {}

  /** Serves `vector` for `query`, under the text recall embeds (quotes and spacing removed). */
  know(query: string, vector: Float32Array): void {
    this.#known.set(query, vector)
    this.#known.set(parseQuery(query).text, vector)
  }

  async embed(texts: string[], _options: { kind: EmbedKind }): Promise<Float32Array[]> {
    return texts.map((t) => this.#known.get(t) ?? this.#fallback.embedOne(t))
  }

  stats(): EmbedderStats {
    return this.#fallback.stats()
  }
}

const ENGINE_MODE: Record<Mode, RecallOptions['mode']> = {
  keyword: 'keyword',
  vector: 'semantic',
  hybrid: 'hybrid',
}

export interface EngramBenchOptions {
  /**
   * Largest store imported through `rememberMany` from empty. Past it, all but the last
   * `marginal` docs are seeded (rows written straight to IndexedDB, then the engine opens and
   * rebuilds its indexes, as after a crash), and the last `marginal` go through `rememberMany`:
   * the write rate at that store size. Today every write scans the whole vector index for a
   * near duplicate, so a full import grows with the square of the store.
   * @default Infinity
   */
  importCap?: number
  /** @default 500 */
  marginal?: number
}

export class EngramSystem implements BenchSystem {
  readonly key = 'engram'
  readonly modes: readonly Mode[] = ['keyword', 'vector', 'hybrid']
  readonly #env: SystemEnv
  readonly #name: string
  readonly #options: EngramBenchOptions
  readonly #embedder = new PrecomputedEmbedder()
  readonly #ids = new Map<string, number>()
  #engine: MemoryEngine | undefined

  constructor(env: SystemEnv, name: string, options: EngramBenchOptions = {}) {
    this.#env = env
    this.#name = name
    this.#options = options
  }

  async create(): Promise<void> {
    await this.open()
  }

  async importAll(docs: Doc[]): Promise<ImportNote | undefined> {
    for (const d of docs) this.#ids.set(d.text, d.id)
    const cap = this.#options.importCap ?? Number.POSITIVE_INFINITY
    if (docs.length <= cap) {
      await this.#rememberMany(docs)
      return undefined
    }
    const marginal = Math.min(this.#options.marginal ?? 500, docs.length)
    const seedStarted = performance.now()
    await this.#seed(docs.slice(0, docs.length - marginal))
    const seedMs = performance.now() - seedStarted
    const started = performance.now()
    await this.#rememberMany(docs.slice(docs.length - marginal))
    const ms = performance.now() - started
    return {
      timedDocs: marginal,
      timedMs: ms,
      seededMs: seedMs,
      note: `first ${docs.length - marginal} seeded in ${(seedMs / 1000).toFixed(1)} s (rows written straight to IndexedDB, then the engine rebuilds); rate of the last ${marginal} rememberMany writes, total at that rate`,
    }
  }

  async remember(doc: Doc): Promise<void> {
    this.#ids.set(doc.text, doc.id)
    await this.#open().remember(doc.text, { vector: doc.vector.slice(), poison: 'flag' })
  }

  async recall(query: Query, mode: Mode): Promise<number[]> {
    this.#embedder.know(query.text, query.vector)
    const { hits } = await this.#open().recall(query.text, { mode: ENGINE_MODE[mode], k: 10 })
    return hits.map((h) => this.#ids.get(h.text) ?? -1)
  }

  async vectorTop10(query: Query): Promise<number[]> {
    // Quoted text is an exact-phrase filter in Engram; the vector leg alone is compared here.
    const text = query.text.replace(/["\u201c\u201d]/g, '')
    this.#embedder.know(text, query.vector)
    const { hits } = await this.#open().recall(text, {
      mode: 'semantic',
      k: 10,
      boosts: false,
      explain: false,
      log: false,
    })
    return hits.map((h) => this.#ids.get(h.text) ?? -1)
  }

  async close(): Promise<void> {
    await this.#engine?.close()
    this.#engine = undefined
  }

  async open(): Promise<void> {
    this.#engine = await MemoryEngine.open({
      name: this.#name,
      indexedDB: this.#env.indexedDB,
      IDBKeyRange: this.#env.IDBKeyRange,
      embedder: this.#embedder,
    })
  }

  async storage() {
    const dbName = `engram:${this.#name}`
    const storedBytes = await databaseBytes(this.#env.indexedDB, dbName)
    const db = await request(this.#env.indexedDB.open(dbName))
    try {
      const row = await request(db.transaction('snapshots').objectStore('snapshots').get('indexes'))
      return { storedBytes, snapshotBytes: row ? approxBytes(row) : 0 }
    } finally {
      db.close()
    }
  }

  async destroy(): Promise<void> {
    await this.close().catch(() => {})
    await request(this.#env.indexedDB.deleteDatabase(`engram:${this.#name}`)).catch(() => {})
  }

  async #rememberMany(docs: Doc[]): Promise<void> {
    // 'flag' still runs the poison screen (a real cost) but never rejects a persona fact.
    await this.#open().rememberMany(
      docs.map((d) => ({ text: d.text, vector: d.vector.slice(), poison: 'flag' as const })),
    )
  }

  /** Writes the rows `rememberMany` would write, then reopens: the engine rebuilds. */
  async #seed(docs: Doc[]): Promise<void> {
    await this.close()
    const db = new EngramDatabase(this.#name, {
      indexedDB: this.#env.indexedDB,
      IDBKeyRange: this.#env.IDBKeyRange,
    })
    await db.open()
    try {
      const newId = monotonicFactory()
      const now = Date.now()
      for (let start = 0; start < docs.length; start += 5000) {
        const memories: Memory[] = []
        for (const d of docs.slice(start, start + 5000)) {
          const w = prepareWrite(d.text, { poison: 'flag' }, DEFAULT_LIMITS)
          memories.push(toMemory(newId(), w, now))
        }
        const vectors = memories.map((m, i) => ({
          id: m.id,
          model: this.#embedder.model,
          dims: this.#embedder.dims,
          vector: (docs[start + i] as Doc).vector.slice(),
        }))
        await db.transaction('rw', db.memories, db.vectors, db.changes, async () => {
          await db.memories.bulkAdd(memories)
          await db.vectors.bulkAdd(vectors)
          await db.changes.bulkAdd(memories.map((m) => ({ op: 'put' as const, id: m.id, at: now })))
        })
      }
    } finally {
      db.close()
    }
    await this.open()
  }

  /**
   * Where a cold start goes, read apart with raw IndexedDB calls: the snapshot row, each index
   * rebuilt from it, and the `memories` rows the catalogue is made of; `open` is the engine's
   * own figure for its whole restore.
   */
  async coldStartParts(): Promise<Record<string, number>> {
    await this.close()
    const parts: Record<string, number> = {}
    const db = await request(this.#env.indexedDB.open(`engram:${this.#name}`))
    try {
      let t = performance.now()
      const row = (await request(
        db.transaction('snapshots').objectStore('snapshots').get('indexes'),
      )) as { data?: { keyword?: unknown; vector?: VectorIndexSnapshot | null } } | undefined
      parts.readSnapshot = performance.now() - t
      if (row?.data?.keyword) {
        t = performance.now()
        new KeywordIndex({}, row.data.keyword as ConstructorParameters<typeof KeywordIndex>[1])
        parts.loadKeywordIndex = performance.now() - t
      }
      if (row?.data?.vector) {
        t = performance.now()
        VectorIndex.deserialize(row.data.vector)
        parts.loadVectorIndex = performance.now() - t
      }
      t = performance.now()
      await request(db.transaction('memories').objectStore('memories').getAll())
      parts.readMemories = performance.now() - t
    } finally {
      db.close()
    }
    await this.open()
    const open = (await this.#open().stats()).open
    if (open) parts.open = open.ms
    return parts
  }

  /** The engine itself, for profiling scripts. */
  engineForBench(): MemoryEngine {
    return this.#open()
  }

  #open(): MemoryEngine {
    if (!this.#engine) throw new Error('engram: not open')
    return this.#engine
  }
}
