/**
 * MiniSearch alone, default options (no stop words, no stemming, OR queries): the keyword leg
 * many apps start from. In memory; saved as JSON to IndexedDB (what MiniSearch documents), which
 * the import includes and cold start reads back with `loadJSON`. Single writes are in-memory
 * `add`s (not persisted).
 */
import MiniSearch from 'minisearch'
import { databaseBytes, deleteDatabase, getValue, openDatabase, putValue } from '../idb.ts'
import type { BenchSystem, Doc, Mode, Query, SystemEnv } from '../types.ts'

const STORE = 'kv'
const OPTIONS = { fields: ['text'] }

export class MiniSearchSystem implements BenchSystem {
  readonly key = 'minisearch'
  readonly modes: readonly Mode[] = ['keyword']
  readonly #env: SystemEnv
  readonly #name: string
  #index: MiniSearch | undefined

  constructor(env: SystemEnv, name: string) {
    this.#env = env
    this.#name = `minisearch:${name}`
  }

  async create(): Promise<void> {
    this.#index = new MiniSearch(OPTIONS)
  }

  async importAll(docs: Doc[]) {
    this.#search().addAll(docs.map((d) => ({ id: d.id, text: d.text })))
    const idb = await this.#kv()
    try {
      await putValue(idb, STORE, 'index', JSON.stringify(this.#search()))
    } finally {
      idb.close()
    }
    return undefined
  }

  async remember(doc: Doc): Promise<void> {
    this.#search().add({ id: doc.id, text: doc.text })
  }

  async recall(query: Query, _mode: Mode): Promise<number[]> {
    const results = this.#search().search(query.text)
    const top: number[] = []
    for (let i = 0; i < results.length && i < 10; i++) top.push(results[i]!.id as number)
    return top
  }

  async close(): Promise<void> {
    this.#index = undefined
  }

  async open(): Promise<void> {
    const idb = await this.#kv()
    try {
      this.#index = MiniSearch.loadJSON(await getValue<string>(idb, STORE, 'index'), OPTIONS)
    } finally {
      idb.close()
    }
  }

  async storage() {
    const storedBytes = await databaseBytes(this.#env.indexedDB, this.#name)
    return { storedBytes, snapshotBytes: storedBytes }
  }

  async destroy(): Promise<void> {
    this.#index = undefined
    await deleteDatabase(this.#env.indexedDB, this.#name)
  }

  #kv(): Promise<IDBDatabase> {
    return openDatabase(this.#env.indexedDB, this.#name, { [STORE]: {} })
  }

  #search(): MiniSearch {
    if (!this.#index) throw new Error('minisearch: not open')
    return this.#index
  }
}
