import { Dexie } from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { EngineOptions } from '../../../src/engine/engine-options.ts'

/** One fake IndexedDB that several opens of the same memory share (a reopen, a second tab). */
export function sharedIdb(): Pick<EngineOptions, 'indexedDB' | 'IDBKeyRange'> {
  return { indexedDB: new IDBFactory(), IDBKeyRange }
}

/** Every row of every table, read with plain Dexie: no at-rest middleware, what the disk holds. */
export async function rawRows(
  env: Pick<EngineOptions, 'indexedDB' | 'IDBKeyRange'>,
  name: string,
): Promise<Record<string, unknown[]>> {
  const db = new Dexie(`engram:${name}`, {
    indexedDB: env.indexedDB!,
    IDBKeyRange: env.IDBKeyRange!,
  })
  await db.open()
  try {
    const out: Record<string, unknown[]> = {}
    for (const table of db.tables) out[table.name] = await table.toArray()
    return out
  } finally {
    db.close()
  }
}

/** Every string in `value`, and every byte array's bytes read as UTF-8 text too. */
export function textsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (ArrayBuffer.isView(value)) {
    out.push(
      new TextDecoder().decode(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)),
    )
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k)
      textsIn(v, out)
    }
  }
  return out
}

/** Every typed array in `value` that is not a plain byte array. */
export function numericArraysIn(value: unknown, out: ArrayBufferView[] = []): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) {
    if (!(value instanceof Uint8Array)) out.push(value)
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) numericArraysIn(v, out)
  }
  return out
}

/** Whether `needle`'s bytes occur anywhere in the byte arrays of `value`. */
export function bytesOccur(value: unknown, needle: Uint8Array): boolean {
  if (ArrayBuffer.isView(value)) {
    const hay = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    outer: for (let i = 0; i + needle.length <= hay.length; i++) {
      for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
      return true
    }
    return false
  }
  if (value && typeof value === 'object')
    return Object.values(value).some((v) => bytesOccur(v, needle))
  return false
}
