/**
 * A row encryption at rest refuses (it does not open: edited on disk, a flipped byte) is left
 * out of keys-only reads too, so it blocks nothing: not a later write of its text, not a
 * rewrite of its page, not the next open's snapshot restore. A write it does block is refused
 * with an error naming it, and `forget(id)` drops it.
 */
import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import type { AtRestSecret } from '../../../src/core/types.ts'
import { EngramDatabase, storedKeys } from '../../../src/storage/index.ts'
import { closingEngines } from '../../helpers/engine.ts'
import { sharedIdb } from './at-rest-helpers.ts'

const engine = closingEngines()
const APP_KEY = await crypto.subtle.importKey('raw', new Uint8Array(32).fill(7), 'HKDF', false, [
  'deriveKey',
])
const SECRET: AtRestSecret = { key: APP_KEY }
type Env = ReturnType<typeof sharedIdb>
const FACT = 'The staging database password rotates on Fridays'

/** Edits the stored rows with plain Dexie: no middleware, what the disk holds. */
async function onDisk(env: Env, name: string, edit: (db: Dexie) => Promise<unknown>) {
  const db = new Dexie(`engram:${name}`, {
    indexedDB: env.indexedDB!,
    IDBKeyRange: env.IDBKeyRange!,
  })
  await db.open()
  try {
    await edit(db)
  } finally {
    db.close()
  }
}

/** Makes the memory `id` refused: one plain field edited beside its sealed part. */
const tamper = (db: Dexie, id: string) => db.table('memories').update(id, { confidence: 0.99 })

const PAGE = Array.from(
  { length: 6 },
  (_, i) =>
    `Paragraph ${i}. ${'The quick brown fox jumps over the lazy dog near the river bank. '.repeat(40)}`,
).join('\n\n')

describe.each([
  ['from the snapshot', false],
  ['after a rebuild', true],
])('a refused memory, indexes %s', (_, rebuild) => {
  const name = (what: string) => `${what}-${rebuild ? 'rebuild' : 'snapshot'}`

  it('refuses a write of its text with EncryptionError UNREADABLE naming it, not as a lost race, and forget(id) drops it (refused row blocks its text)', async () => {
    const env = sharedIdb()
    const e = await engine({ name: name('dedup'), ...env, encryption: SECRET })
    const { id } = await e.remember(FACT)
    await e.remember('Another unrelated fact about gardening tomatoes')
    await e.close()
    await onDisk(env, name('dedup'), async (db) => {
      await tamper(db, id)
      if (rebuild) await db.table('snapshots').clear()
    })
    const again = await engine({ name: name('dedup'), ...env, encryption: SECRET })
    for (const write of [() => again.remember(FACT), () => again.rememberMany([{ text: FACT }])]) {
      const failure = await write().catch((error: unknown) => error)
      expect(failure).toMatchObject({ name: 'EncryptionError', code: 'UNREADABLE' })
      expect((failure as Error).message).toContain(id)
    }
    await again.forget(id)
    expect((await again.inspect.verify()).unreadable).toBeUndefined()
    const { id: written, status } = await again.remember(FACT)
    expect(status).toBe('created')
    expect((await again.get(written))?.text).toBe(FACT)
  })

  it('rewrites a page with one refused chunk (refused row blocks its page)', async () => {
    const env = sharedIdb()
    const e = await engine({ name: name('page'), ...env, encryption: SECRET })
    const page = await e.pages.remember({ title: 'Doc', text: PAGE })
    await e.close()
    let refused = ''
    await onDisk(env, name('page'), async (db) => {
      const rows = await db.table('memories').where('pageId').equals(page.pageId).toArray()
      refused = rows[1].id
      await tamper(db, refused)
      if (rebuild) await db.table('snapshots').clear()
    })
    const again = await engine({ name: name('page'), ...env, encryption: SECRET })
    const text = `${PAGE}\n\nOne more paragraph about foxes.`
    await again.pages.remember({ title: 'Doc', text, pageId: page.pageId })
    const report = await again.inspect.verify()
    expect(report.unreadable).toBeUndefined()
    expect(report.ok).toBe(true)
    expect((await again.pages.get(page.pageId))?.text).toContain('One more paragraph about foxes.')
  })

  it('forgets a page with one refused chunk, that chunk included', async () => {
    const env = sharedIdb()
    const e = await engine({ name: name('forget-page'), ...env, encryption: SECRET })
    const page = await e.pages.remember({ title: 'Doc', text: PAGE })
    await e.close()
    await onDisk(env, name('forget-page'), async (db) => {
      const rows = await db.table('memories').where('pageId').equals(page.pageId).toArray()
      await tamper(db, rows[1].id)
      if (rebuild) await db.table('snapshots').clear()
    })
    const again = await engine({ name: name('forget-page'), ...env, encryption: SECRET })
    await again.pages.forget(page.pageId)
    expect(await again.inspect.verify()).toMatchObject({ ok: true, memories: 0, vectors: 0 })
  })
})

describe('the open after a refused row', () => {
  it('restores from the snapshot, not a rebuild (one refused row made every open a rebuild)', async () => {
    const env = sharedIdb()
    let e = await engine({ name: 'agree', ...env, encryption: SECRET })
    const { id } = await e.remember(FACT)
    for (let i = 0; i < 3; i++)
      await e.remember(`Another unrelated fact number ${i} about tomatoes`)
    await e.close()
    await onDisk(env, 'agree', async (db) => {
      await tamper(db, id)
      await db.table('snapshots').clear()
    })
    e = await engine({ name: 'agree', ...env, encryption: SECRET })
    expect((await e.inspect.stats()).open?.restored).toBe('rebuild')
    await e.remember('A write that changes the snapshot')
    await e.close()
    for (let i = 0; i < 2; i++) {
      e = await engine({ name: 'agree', ...env, encryption: SECRET })
      expect((await e.inspect.stats()).open?.restored).toBe('snapshot')
      expect((await e.inspect.verify()).unreadable?.rows).toEqual([{ table: 'memories', id }])
      await e.remember(`Write ${i} after the reopen`)
      await e.close()
    }
  })
})

describe('keys-only reads of an encrypted memory', () => {
  it('leave out a refused row, where storedKeys lists it', async () => {
    const env = sharedIdb()
    const e = await engine({ name: 'keys', ...env, encryption: SECRET })
    const { id } = await e.remember(FACT, { tags: ['kept'] })
    const { id: other } = await e.remember('Another fact', { tags: ['kept'] })
    await e.close()
    await onDisk(env, 'keys', (db) => tamper(db, id))
    const db = new EngramDatabase('keys', env)
    await db.open()
    const { openAtRest } = await import('../../../src/storage/index.ts')
    await openAtRest(db, SECRET)
    try {
      expect(await db.memories.toCollection().primaryKeys()).toEqual([other])
      expect(await db.memories.where('tags').equals('kept').primaryKeys()).toEqual([other])
      expect(await db.memories.orderBy('id').limit(1).primaryKeys()).toEqual([other])
      expect(await db.memories.toCollection().keys()).toEqual([other])
      expect((await storedKeys(db, db.memories)).sort()).toEqual([id, other].sort())
      expect(await db.memories.toCollection().primaryKeys()).toEqual([other])
    } finally {
      db.close()
    }
  })
})
