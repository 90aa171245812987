/**
 * Orama 3 (`@orama/orama`) with its own hybrid mode: full-text BM25 plus its flat float32
 * vector scan, min-max normalised and summed 0.5/0.5. Orama lives in memory; to survive a
 * reload an app saves it (`save()`, a plain object) to IndexedDB, which the import includes and
 * cold start reads back (`load()`). Single writes are in-memory inserts (not persisted).
 *
 * Orama's vector leg returns every row at or above a cosine threshold, sorted. Its default, 0.8,
 * leaves most n-gram queries with no vector hits at all; {@link ORAMA_SIMILARITY} keeps the
 * exact top 10 from 10k memories on (at 1k some queries have fewer than 10 rows above it;
 * recall@10 says how many) without returning most of the store.
 *
 * At 100k its hybrid mode fails in Chromium: it normalises the full-text hits with
 * `Math.max.apply` over all of them, and an OR query with common words matches enough memories
 * to overflow the call stack. The bench reports the failure; it does not work around it.
 */
import {
  type AnyOrama,
  create,
  insert,
  insertMultiple,
  load,
  type RawData,
  save,
  search,
} from '@orama/orama'
import { databaseBytes, deleteDatabase, getValue, openDatabase, putValue } from '../idb.ts'
import type { BenchSystem, Doc, Mode, Query, SystemEnv } from '../types.ts'

export const ORAMA_SIMILARITY = 0.2
const STORE = 'kv'
const SCHEMA = { text: 'string', embedding: 'vector[384]' } as const

export class OramaSystem implements BenchSystem {
  readonly key = 'orama'
  readonly modes: readonly Mode[] = ['keyword', 'vector', 'hybrid']
  readonly #env: SystemEnv
  readonly #name: string
  #db: AnyOrama | undefined
  readonly warnings: string[] = []

  constructor(env: SystemEnv, name: string) {
    this.#env = env
    this.#name = `orama:${name}`
  }

  async create(): Promise<void> {
    this.#db = create({ schema: SCHEMA })
  }

  async importAll(docs: Doc[]) {
    await insertMultiple(this.#orama(), docs.map(toDocument), 1000)
    await this.#persist()
    return undefined
  }

  async remember(doc: Doc): Promise<void> {
    await insert(this.#orama(), toDocument(doc))
  }

  async recall(query: Query, mode: Mode): Promise<number[]> {
    const db = this.#orama()
    const vector = { value: query.vector, property: 'embedding' }
    const params =
      mode === 'keyword'
        ? { mode: 'fulltext' as const, term: query.text, limit: 10 }
        : mode === 'vector'
          ? { mode: 'vector' as const, vector, similarity: ORAMA_SIMILARITY, limit: 10 }
          : {
              mode: 'hybrid' as const,
              term: query.text,
              vector,
              similarity: ORAMA_SIMILARITY,
              limit: 10,
            }
    const result = await search(db, params as Parameters<typeof search>[1])
    return result.hits.map((h) => Number(h.id))
  }

  async vectorTop10(query: Query): Promise<number[]> {
    return this.recall(query, 'vector')
  }

  async close(): Promise<void> {
    this.#db = undefined
  }

  async open(): Promise<void> {
    const idb = await this.#kv()
    try {
      const raw = await getValue<RawData | undefined>(idb, STORE, 'index')
      if (!raw) throw new Error('no saved index to load (the save failed)')
      const db = create({ schema: SCHEMA })
      load(db, raw)
      this.#db = db
    } finally {
      idb.close()
    }
  }

  async storage() {
    const storedBytes = await databaseBytes(this.#env.indexedDB, this.#name)
    return { storedBytes, snapshotBytes: storedBytes }
  }

  async destroy(): Promise<void> {
    this.#db = undefined
    await deleteDatabase(this.#env.indexedDB, this.#name)
  }

  /**
   * Saves the index image. At 100k memories it is far larger than one IndexedDB value may be in
   * Chromium (about 133 MB): Orama then stays in memory only, and the failure is reported.
   */
  async #persist(): Promise<void> {
    const idb = await this.#kv()
    try {
      await putValue(idb, STORE, 'index', save(this.#orama()))
    } catch (error) {
      this.warnings.push(`save() to IndexedDB failed, index kept in memory only: ${error}`)
    } finally {
      idb.close()
    }
  }

  #kv(): Promise<IDBDatabase> {
    return openDatabase(this.#env.indexedDB, this.#name, { [STORE]: {} })
  }

  #orama(): AnyOrama {
    if (!this.#db) throw new Error('orama: not open')
    return this.#db
  }
}

function toDocument(doc: Doc) {
  // Orama accepts plain arrays only; it copies them into Float32Arrays itself.
  return { id: String(doc.id), text: doc.text, embedding: Array.from(doc.vector) }
}
