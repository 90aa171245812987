/**
 * "EntityDB-style scan (re-created)": the algorithm of `@babycommando/entity-db` 1.0.11, whose
 * package cannot be used here as is — importing it starts a transformers.js 2.x model download
 * from the Hugging Face hub at module load, and it always opens the global `indexedDB` under
 * the fixed name "EntityDB". Re-created faithfully from its source:
 *
 * - `insertManualVectors({ text, embedding })`: one readwrite transaction per record, storing
 *   `{ vector: embedding, ...data }` (embeddings as plain number arrays, as its README and its own
 *   `insert` make them) in an auto-increment store;
 * - `queryManualVectors(vector, { limit })`: `getAll()` of every record, cosine by
 *   `Array.reduce` (dot product and both magnitudes), spread each entry, sort all, slice.
 *
 * Vector search only: it has no keyword leg. Above {@link TIMED_INSERTS} docs, the first ones are
 * inserted (and timed) one by one, the rest in batched transactions, and the import time is
 * extrapolated from the timed rate.
 */
import { databaseBytes, deleteDatabase, done, openDatabase, request } from '../idb.ts'
import type { BenchSystem, Doc, ImportNote, Mode, Query, SystemEnv } from '../types.ts'

export const TIMED_INSERTS = 2000
const STORE = 'vectors'

interface EntityRecord {
  id?: number
  vector: number[]
  text: string
  embedding: number[]
  docId: number
}

/** EntityDB's own `cosineSimilarity`, kept as written (three reductions per pair). */
const cosineSimilarity = (vecA: number[], vecB: number[]): number => {
  const dotProduct = vecA.reduce((sum, val, index) => sum + val * (vecB[index] as number), 0)
  const magnitudeA = Math.sqrt(vecA.reduce((sum, val) => sum + val * val, 0))
  const magnitudeB = Math.sqrt(vecB.reduce((sum, val) => sum + val * val, 0))
  return dotProduct / (magnitudeA * magnitudeB)
}

export class EntityDbScanSystem implements BenchSystem {
  readonly key = 'entitydb-scan'
  readonly modes: readonly Mode[] = ['vector']
  readonly #env: SystemEnv
  readonly #name: string
  #db: IDBDatabase | undefined

  constructor(env: SystemEnv, name: string) {
    this.#env = env
    this.#name = `entitydb:${name}`
  }

  async create(): Promise<void> {
    await this.open()
  }

  async importAll(docs: Doc[]): Promise<ImportNote | undefined> {
    const timed = Math.min(docs.length, TIMED_INSERTS)
    let started = performance.now()
    for (let i = 0; i < timed; i++) await this.#insertManualVectors(docs[i] as Doc)
    if (timed === docs.length) return undefined
    const timedMs = performance.now() - started
    started = performance.now()
    for (let i = timed; i < docs.length; i += 1000) {
      const tx = this.#open().transaction(STORE, 'readwrite')
      const store = tx.objectStore(STORE)
      for (const doc of docs.slice(i, i + 1000)) store.add(toRecord(doc))
      await done(tx)
    }
    return {
      timedDocs: timed,
      timedMs,
      note: `first ${timed} inserted one by one and timed; rest batched (${Math.round(performance.now() - started)} ms, not counted)`,
    }
  }

  async remember(doc: Doc): Promise<void> {
    await this.#insertManualVectors(doc)
  }

  async recall(query: Query, _mode: Mode): Promise<number[]> {
    return this.#queryManualVectors(Array.from(query.vector), 10)
  }

  async vectorTop10(query: Query): Promise<number[]> {
    return this.recall(query, 'vector')
  }

  async close(): Promise<void> {
    this.#db?.close()
    this.#db = undefined
  }

  async open(): Promise<void> {
    this.#db = await openDatabase(this.#env.indexedDB, this.#name, {
      [STORE]: { keyPath: 'id', autoIncrement: true },
    })
  }

  async storage() {
    this.#db?.close()
    const storedBytes = await databaseBytes(this.#env.indexedDB, this.#name)
    await this.open()
    return { storedBytes }
  }

  async destroy(): Promise<void> {
    await this.close()
    await deleteDatabase(this.#env.indexedDB, this.#name)
  }

  async #insertManualVectors(doc: Doc): Promise<void> {
    const store = this.#open().transaction(STORE, 'readwrite').objectStore(STORE)
    await request(store.add(toRecord(doc)))
  }

  async #queryManualVectors(queryVector: number[], limit: number): Promise<number[]> {
    const store = this.#open().transaction(STORE, 'readonly').objectStore(STORE)
    const vectors = (await request(store.getAll())) as EntityRecord[]
    const similarities = vectors.map((entry) => {
      const similarity = cosineSimilarity(queryVector, entry.vector)
      return { ...entry, similarity }
    })
    similarities.sort((a, b) => b.similarity - a.similarity)
    return similarities.slice(0, limit).map((e) => e.docId)
  }

  #open(): IDBDatabase {
    if (!this.#db) throw new Error('entitydb-scan: not open')
    return this.#db
  }
}

function toRecord(doc: Doc): EntityRecord {
  const data = { text: doc.text, embedding: Array.from(doc.vector), docId: doc.id }
  return { vector: data.embedding, ...data }
}
