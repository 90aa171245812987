/**
 * The few raw IndexedDB calls the peers need, promisified (no library: the EntityDB-style scan
 * must cost what `idb` over IndexedDB costs, and the save/load helpers must not favour anyone).
 */
import { approxBytes } from './measure.ts'

export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'))
  })
}

/** Opens `name`, creating `stores` (name → keyPath options) on first open. */
export function openDatabase(
  factory: IDBFactory,
  name: string,
  stores: Record<string, IDBObjectStoreParameters>,
): Promise<IDBDatabase> {
  const req = factory.open(name, 1)
  req.onupgradeneeded = () => {
    for (const [store, options] of Object.entries(stores)) {
      if (!req.result.objectStoreNames.contains(store)) req.result.createObjectStore(store, options)
    }
  }
  return request(req)
}

export async function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  const req = factory.deleteDatabase(name)
  await new Promise<void>((resolve, reject) => {
    req.onsuccess = () => resolve()
    req.onerror = () => reject(req.error)
    req.onblocked = () => resolve()
  })
}

/** Puts one value under `key` in a one-store key-value database. */
export async function putValue(db: IDBDatabase, store: string, key: string, value: unknown) {
  const tx = db.transaction(store, 'readwrite')
  tx.objectStore(store).put(value, key)
  await done(tx)
}

export async function getValue<T>(db: IDBDatabase, store: string, key: string): Promise<T> {
  return request(db.transaction(store, 'readonly').objectStore(store).get(key)) as Promise<T>
}

/**
 * Approximate bytes of every record in database `name` (see {@link approxBytes}), walked with a
 * cursor so 100k rows never sit in memory at once.
 */
export async function databaseBytes(factory: IDBFactory, name: string): Promise<number> {
  const db = await request(factory.open(name))
  try {
    let total = 0
    for (const store of Array.from(db.objectStoreNames)) {
      const tx = db.transaction(store, 'readonly')
      const cursorReq = tx.objectStore(store).openCursor()
      await new Promise<void>((resolve, reject) => {
        cursorReq.onsuccess = () => {
          const cursor = cursorReq.result
          if (!cursor) return resolve()
          total += approxBytes(cursor.key) + approxBytes(cursor.value)
          cursor.continue()
        }
        cursorReq.onerror = () => reject(cursorReq.error)
      })
    }
    return total
  } finally {
    db.close()
  }
}
