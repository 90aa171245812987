/**
 * What `lock()` does to a running sync: the sync is not stopped, but its passes between the
 * engine and the mirror fail while the memory is locked, and resume once it is unlocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSync } from '../../../src/sync/index.ts'
import { Pouch } from '../../../src/sync/pouch.ts'
import { CouchServer } from '../../helpers/couch-server.ts'
import { openTestEngine } from '../../helpers/engine.ts'
import { eventually, openDevice, testKey } from './sync-helpers.ts'

// The real floor of PBKDF2 rounds (issue 22 refuses fewer): two derivations, about a second.
const SECRET = { passphrase: 'p4ssphrase' }

let server: CouchServer
beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})

describe('a running sync and lock()', () => {
  it('keeps running while the memory is locked, its passes refused until unlock, then catches up', async () => {
    const url = server.url('locked')
    const key = await testKey()
    const engine = await openTestEngine({ encryption: SECRET })
    const mirror = new Pouch('lock-mirror', { adapter: 'memory' })
    const other = await openDevice()
    const sync = await startSync(engine, { url, key, mirror, pollMs: 20 })
    const theirs = await startSync(other.engine, { url, key, mirror: other.mirror, pollMs: 20 })
    try {
      await engine.atRest.lock()
      await other.engine.remember('Written elsewhere while this device was locked')
      await expect(sync.flush()).rejects.toMatchObject({ code: 'LOCKED' })
      expect(sync.status.state).not.toBe('error')
      expect(sync.status.error?.code).toBe('LOCKED')
      await engine.atRest.unlock(SECRET)
      await eventually(async () => (await engine.list({ limit: 10 })).items.length === 1)
      expect(sync.status.state).not.toBe('stopped')
    } finally {
      await Promise.allSettled([sync.stop(), theirs.stop()])
      await Promise.allSettled([engine.close(), other.engine.close()])
    }
  })
})
