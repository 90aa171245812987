/**
 * Engram itself: the real {@link MemoryEngine} with default options, over whatever IndexedDB the
 * environment gives (fake-indexeddb in Node, the browser's own in a Chromium worker). Query
 * vectors are precomputed and served from a map, so timings exclude query embedding.
 */

import { parseQuery } from '../../../src/core/query.ts'
import type { Embedder, EmbedderStats, EmbedKind, RecallOptions } from '../../../src/core/types.ts'
import { VectorIndex, type VectorIndexSnapshot } from '../../../src/core/vector/index.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { KeywordIndex } from '../../../src/engine/index/keyword-index.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
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

export class EngramSystem implements BenchSystem {
  readonly key = 'engram'
  readonly modes: readonly Mode[] = ['keyword', 'vector', 'hybrid']
  readonly #env: SystemEnv
  readonly #name: string
  readonly #embedder = new PrecomputedEmbedder()
  readonly #ids = new Map<string, number>()
  #engine: MemoryEngine | undefined

  constructor(env: SystemEnv, name: string) {
    this.#env = env
    this.#name = name
  }

  async create(): Promise<void> {
    await this.open()
  }

  /** Every size through the public write path, from empty: no rows written around the engine. */
  async importAll(docs: Doc[]): Promise<ImportNote | undefined> {
    for (const d of docs) this.#ids.set(d.text, d.id)
    await this.#rememberMany(docs)
    return undefined
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
      // The index against the exact scan: every top-10 neighbour counts, relevant or not.
      floor: false,
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
      // A benchmark measures its own operations: no review in its quiet spells.
      autoReview: false,
      embedder: this.#embedder,
    })
  }

  /**
   * After a close, which saves the snapshot: a running engine saves one only once it is quiet,
   * and the measures before this one never leave it quiet.
   */
  async storage() {
    await this.close()
    const dbName = `engram:${this.#name}`
    const storedBytes = await databaseBytes(this.#env.indexedDB, dbName)
    const db = await request(this.#env.indexedDB.open(dbName))
    try {
      // The manifest row and its segments (`indexes:catalogue:<i>`, `indexes:vectors:<i>`).
      const rows = await snapshotRows(db, this.#env.IDBKeyRange)
      const snapshotBytes = rows.reduce((sum, row) => sum + approxBytes(row), 0)
      return { storedBytes, snapshotBytes }
    } finally {
      db.close()
      await this.open()
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

  /**
   * Where a cold start goes, read apart with raw IndexedDB calls: the manifest row, each index
   * rebuilt from it, the catalogue segments and their parse, the counts the open checks it
   * against, and (for comparison, off the open's path) the memory ids and every row; `open` is
   * the engine's own figure.
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
      // The catalogue segments alone: reading every snapshot row read the manifest (the keyword
      // and vector indexes) a second time, which made this phase look like the regression.
      const store = db.transaction('snapshots').objectStore('snapshots')
      const range = this.#env.IDBKeyRange.bound('indexes:catalogue:', 'indexes:catalogue:\uffff')
      const segments = (await request(store.getAll(range))) as { data?: unknown }[]
      parts.readCatalogue = performance.now() - t
      t = performance.now()
      for (const segment of segments) {
        const rows = (segment.data as { rows?: string } | undefined)?.rows
        if (rows) JSON.parse(rows)
      }
      parts.parseCatalogue = performance.now() - t
      // The agreement check's counts: both tables' plain counts (the snapshot says how many
      // vectors are another model's) ...
      t = performance.now()
      const counts = db.transaction(['memories', 'vectors'])
      await Promise.all([
        request(counts.objectStore('memories').count()),
        request(counts.objectStore('vectors').count()),
      ])
      parts.counts = performance.now() - t
      // ... and what it counted before the snapshot said so (an older snapshot still makes it):
      // the model index's entries, each checked against its row in Chromium.
      t = performance.now()
      await request(db.transaction('vectors').objectStore('vectors').index('model').count())
      parts.modelCount = performance.now() - t
      // What the agreement check read on every open before the counts (now only when one
      // differs): in Chromium a key costs about what its row does.
      t = performance.now()
      await request(db.transaction('memories').objectStore('memories').getAllKeys())
      parts.memoryIds = performance.now() - t
      // What the catalogue took before it was saved with the snapshot (and still takes when
      // the saved one is stale): every row.
      t = performance.now()
      await request(db.transaction('memories').objectStore('memories').getAll())
      parts.readAllRows = performance.now() - t
    } finally {
      db.close()
    }
    await this.open()
    const open = (await this.#open().inspect.stats()).open
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

/** Every row of the index snapshot: the manifest (`indexes`) and the segments it names. */
async function snapshotRows(
  db: IDBDatabase,
  keyRange: typeof IDBKeyRange,
): Promise<{ name: string; data?: unknown }[]> {
  const store = db.transaction('snapshots').objectStore('snapshots')
  const range = keyRange.bound('indexes', 'indexes\uffff')
  return (await request(store.getAll(range))) as { name: string; data?: unknown }[]
}
