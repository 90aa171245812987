/**
 * Where `device: 'auto'` remembers which device won its trial, so the next load skips the trial.
 * The default store is a tiny IndexedDB database of its own, reached through plain `indexedDB`
 * so that a worker can use it; without `indexedDB`, one map in memory per process.
 */

import type { DeviceTrialStats } from '../core/types.ts'

/** The IndexedDB database the default store keeps its decisions in. */
export const DEVICE_CHOICE_DB = 'engram-device-choice'
const STORE = 'choices'

/** A remembered decision. */
export interface DeviceChoice {
  /** The device that won. */
  device: string
  /** When it won, in milliseconds since 1970. */
  decidedAt: number
  /** The trial that picked it, reported again by `stats()` when the decision is reused. */
  trial: DeviceTrialStats
}

/**
 * Keeps decisions by key (model, dtype, candidates and GPU adapter). Any method may reject;
 * the embedder then runs the trial as if nothing were remembered.
 */
export interface DeviceChoiceStore {
  get(key: string): Promise<DeviceChoice | undefined>
  set(key: string, choice: DeviceChoice): Promise<void>
  delete(key: string): Promise<void>
}

/** Decisions kept in a `Map`: lost with the process. */
export class MemoryDeviceChoices implements DeviceChoiceStore {
  readonly #choices = new Map<string, DeviceChoice>()

  async get(key: string): Promise<DeviceChoice | undefined> {
    const choice = this.#choices.get(key)
    return choice && structuredClone(choice)
  }

  async set(key: string, choice: DeviceChoice): Promise<void> {
    this.#choices.set(key, structuredClone(choice))
  }

  async delete(key: string): Promise<void> {
    this.#choices.delete(key)
  }
}

/**
 * Decisions in an IndexedDB database of their own (one object store, keyed by the decision's
 * key), shared by every page and worker of the origin.
 *
 * @example
 * import { IDBFactory } from 'fake-indexeddb'
 * const store = new IndexedDbDeviceChoices(new IDBFactory()) // a test's own, empty store
 */
export class IndexedDbDeviceChoices implements DeviceChoiceStore {
  readonly #factory: IDBFactory
  readonly #name: string
  #db: Promise<IDBDatabase> | undefined

  constructor(factory: IDBFactory = globalThis.indexedDB, name = DEVICE_CHOICE_DB) {
    this.#factory = factory
    this.#name = name
  }

  async get(key: string): Promise<DeviceChoice | undefined> {
    const value = await this.#request('readonly', (store) => store.get(key))
    return isChoice(value) ? value : undefined
  }

  async set(key: string, choice: DeviceChoice): Promise<void> {
    await this.#request('readwrite', (store) => store.put(choice, key))
  }

  async delete(key: string): Promise<void> {
    await this.#request('readwrite', (store) => store.delete(key))
  }

  /** Closes the database; a later call opens it again. */
  async close(): Promise<void> {
    const db = this.#db
    this.#db = undefined
    ;(await db?.catch(() => undefined))?.close()
  }

  async #request(
    mode: IDBTransactionMode,
    make: (store: IDBObjectStore) => IDBRequest,
  ): Promise<unknown> {
    const db = await this.#open()
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode)
      const request = make(tx.objectStore(STORE))
      // Resolved on commit, not on the request's success, so a write is durable when it settles.
      tx.oncomplete = () => resolve(request.result)
      tx.onerror = () => reject(tx.error ?? request.error)
      tx.onabort = () => reject(tx.error ?? new Error('device choice transaction aborted'))
    })
  }

  #open(): Promise<IDBDatabase> {
    this.#db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = this.#factory.open(this.#name, 1)
      request.onupgradeneeded = () => request.result.createObjectStore(STORE)
      request.onsuccess = () => {
        const db = request.result
        // Another tab upgrading or deleting the database must not wait on this connection.
        db.onversionchange = () => {
          db.close()
          this.#db = undefined
        }
        resolve(db)
      }
      request.onerror = () => reject(request.error)
      request.onblocked = () => reject(new Error(`${this.#name} is blocked by another connection`))
    })
    this.#db.catch(() => {
      this.#db = undefined
    })
    return this.#db
  }
}

let memoryStore: DeviceChoiceStore | undefined
let indexedDbStore: { factory: IDBFactory; store: DeviceChoiceStore } | undefined

/** The IndexedDB store where `indexedDB` exists, else the process's memory store; one of each. */
export function defaultDeviceChoices(): DeviceChoiceStore {
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB
  if (!factory) {
    memoryStore ??= new MemoryDeviceChoices()
    return memoryStore
  }
  if (indexedDbStore?.factory !== factory) {
    indexedDbStore = { factory, store: new IndexedDbDeviceChoices(factory) }
  }
  return indexedDbStore.store
}

function isChoice(value: unknown): value is DeviceChoice {
  const v = value as Partial<DeviceChoice> | undefined
  return (
    typeof v?.device === 'string' &&
    typeof v.decidedAt === 'number' &&
    Array.isArray(v.trial?.entries)
  )
}
