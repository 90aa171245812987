import { Dexie } from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { EngramDatabase, SEALED_FIELD } from '../../../src/storage/index.ts'

const keys = () => ({ seal: new Uint8Array(32).fill(3), mac: new Uint8Array(32).fill(4) })

async function encryptedDb() {
  const env = { indexedDB: new IDBFactory(), IDBKeyRange }
  const db = new EngramDatabase('mw', env)
  await db.open()
  db.atRest.unlock(keys())
  const base = { namespace: 'default', type: 'fact', aliases: [], source: 'agent', flags: [] }
  await db.memories.bulkPut([
    { ...base, id: '01A', text: 'Alpha text', key: 'alpha text', tags: ['red', 'blue'] },
    { ...base, id: '01B', text: 'Beta text', key: 'beta text', tags: ['blue'] },
  ] as never)
  return { db, env }
}

async function rawMemories(env: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
  const raw = new Dexie('engram:mw', env)
  await raw.open()
  try {
    return await raw.table('memories').toArray()
  } finally {
    raw.close()
  }
}

/** Changes the stored rows as someone with the disk could: below the middleware. */
async function tamper(
  env: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange },
  edit: (memories: Dexie.Table) => Promise<unknown>,
) {
  const raw = new Dexie('engram:mw', env)
  await raw.open()
  try {
    await edit(raw.table('memories'))
  } finally {
    raw.close()
  }
}

describe('the at-rest storage middleware', () => {
  it('leaves rows that do not open out of every answer, and fills a limited page past them', async () => {
    const { db, env } = await encryptedDb()
    const base = { namespace: 'default', type: 'fact', aliases: [], source: 'agent', flags: [] }
    await db.memories.bulkPut(
      ['01C', '01D', '01E'].map((id) => ({
        ...base,
        id,
        text: id,
        key: id,
        tags: ['blue'],
      })) as never,
    )
    await tamper(env, async (memories) => {
      const flipped = await memories.get('01B')
      flipped[SEALED_FIELD][30] ^= 1
      await memories.put(flipped)
      await memories.update('01D', { namespace: 'other-tenant' })
      await memories.put({ ...base, id: '01F', text: 'In the clear', key: 'k', tags: ['blue'] })
    })
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id)
    expect(ids(await db.memories.toArray())).toEqual(['01A', '01C', '01E'])
    expect(ids(await db.memories.orderBy('id').limit(2).toArray())).toEqual(['01A', '01C'])
    expect(ids(await db.memories.orderBy('id').reverse().limit(2).toArray())).toEqual([
      '01E',
      '01C',
    ])
    expect(ids(await db.memories.filter(() => true).toArray())).toEqual(['01A', '01C', '01E'])
    const seen: string[] = []
    await db.memories.each((m) => seen.push(m.id))
    expect(seen).toEqual(['01A', '01C', '01E'])
    expect(ids(await db.memories.where('tags').equals('blue').toArray())).toEqual([
      '01A',
      '01C',
      '01E',
    ])
    const got = await db.memories.bulkGet(['01A', '01B', '01D', '01F'])
    expect(got.map((m) => m?.text)).toEqual(['Alpha text', undefined, undefined, undefined])
    expect(await db.memories.get('01F')).toBeUndefined()
    expect(db.atRest.refusedRows()).toEqual([
      { table: 'memories', id: '01B' },
      { table: 'memories', id: '01D' },
      { table: 'memories', id: '01F' },
    ])
    await db.memories.put({ ...base, id: '01B', text: 'Beta again', key: 'b', tags: [] } as never)
    await db.memories.delete('01F')
    expect(db.atRest.refusedRows()).toEqual([{ table: 'memories', id: '01D' }])
    expect((await db.memories.get('01B'))?.text).toBe('Beta again')
    db.close()
  })

  it('answers equality queries on hashed fields: the unique key and a tag', async () => {
    const { db } = await encryptedDb()
    const byKey = await db.memories
      .where('[namespace+type+key]')
      .equals(['default', 'fact', 'beta text'])
      .first()
    expect(byKey?.id).toBe('01B')
    expect((await db.memories.where('tags').equals('blue').toArray()).map((m) => m.id)).toEqual([
      '01A',
      '01B',
    ])
    expect(await db.memories.where('tags').equals('red').count()).toBe(1)
    db.close()
  })

  it('refuses a range over a hashed field with a typed error instead of a wrong answer', async () => {
    const { db } = await encryptedDb()
    await expect(db.memories.where('tags').between('a', 'z').toArray()).rejects.toMatchObject({
      name: 'StorageError',
    })
    db.close()
  })

  it('enforces the unique index on the hashed key', async () => {
    const { db } = await encryptedDb()
    const clash = {
      id: '01C',
      namespace: 'default',
      type: 'fact',
      text: 'Alpha',
      key: 'alpha text',
      tags: [],
    }
    await expect(db.memories.add(clash as never)).rejects.toMatchObject({ name: 'ConstraintError' })
    db.close()
  })

  it('opens cursor values and modifies rows in place, sealing them again', async () => {
    const { db, env } = await encryptedDb()
    const seen: string[] = []
    await db.memories.each((m) => seen.push(m.text))
    expect(seen).toEqual(['Alpha text', 'Beta text'])
    await db.memories
      .where('id')
      .anyOf(['01A'])
      .modify((m) => {
        m.text = 'Alpha changed'
      })
    expect((await db.memories.get('01A'))?.text).toBe('Alpha changed')
    const raw = await rawMemories(env)
    expect(raw.every((r) => r[SEALED_FIELD] instanceof Uint8Array && r.text === undefined)).toBe(
      true,
    )
    db.close()
  })

  it('refuses reads and writes of sealed tables once locked, but still counts and reads meta', async () => {
    const { db } = await encryptedDb()
    db.atRest.lock()
    await expect(db.memories.get('01A')).rejects.toMatchObject({ name: 'MemoryLockedError' })
    await expect(db.memories.toArray()).rejects.toMatchObject({ code: 'LOCKED' })
    await expect(db.memories.put({ id: '01Z' } as never)).rejects.toMatchObject({ code: 'LOCKED' })
    expect(await db.memories.count()).toBe(2)
    await db.meta.put({ key: 'x', value: 1 })
    expect((await db.meta.get('x'))?.value).toBe(1)
    db.close()
  })

  it('passes rows through untouched when the memory is not encrypted', async () => {
    const env = { indexedDB: new IDBFactory(), IDBKeyRange }
    const db = new EngramDatabase('mw', env)
    await db.vectors.put({ id: 'v', model: 'm', dims: 2, vector: new Float32Array([1, 0]) })
    db.close()
    const raw = new Dexie('engram:mw', env)
    await raw.open()
    expect((await raw.table('vectors').get('v')).vector).toBeInstanceOf(Float32Array)
    raw.close()
  })
})
