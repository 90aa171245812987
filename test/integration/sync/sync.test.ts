import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SyncKeyError, startSync } from '../../../src/sync/index.ts'
import { CouchServer } from '../../helpers/couch-server.ts'
import { hashSeed, TEST_SEED, uniform } from '../../helpers/random.ts'
import {
  contents,
  type Device,
  eventually,
  openDevice,
  syncOnce,
  syncUntilQuiet,
  testKey,
} from './sync-helpers.ts'

let server: CouchServer
let dbs = 0
beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})

async function pair(): Promise<{ a: Device; b: Device; url: string; key: CryptoKey }> {
  return {
    a: await openDevice(),
    b: await openDevice(),
    url: server.url(`sync-${++dbs}`),
    key: await testKey(),
  }
}

describe('sync between two devices', () => {
  it('converges concurrent writes, the same fact on both devices becoming one memory', async () => {
    const { a, b, url, key } = await pair()
    await a.engine.remember('Priya is the owner’s sister-in-law', { tags: ['family'] })
    await a.engine.remember('The staging database lives in eu-west-2')
    await b.engine.remember('The owner prefers metric units')
    await b.engine.remember('priya is the owner’s sister-in-law')
    await syncUntilQuiet([a, b], { url, key })
    const [onA, onB] = [await contents(a.engine), await contents(b.engine)]
    expect([...onA.keys()].sort()).toEqual([...onB.keys()].sort())
    expect(onA.size).toBe(3)
    const same = [...onA.values()].find((m) => m.key.startsWith('priya'))!
    const sameOnB = [...onB.values()].find((m) => m.key.startsWith('priya'))!
    expect(same.confirmations).toBe(2)
    expect(sameOnB.confirmations).toBe(2)
    expect((await a.engine.inspect.verify()).ok).toBe(true)
    expect((await b.engine.inspect.verify()).ok).toBe(true)
    const hit = await b.engine.recall('staging database region')
    expect(hit.hits[0]?.text).toBe('The staging database lives in eu-west-2')
  })

  it('forgets on the other device what one device forgot', async () => {
    const { a, b, url, key } = await pair()
    const { id } = await a.engine.remember('The door code is 4471')
    await a.engine.remember('The wifi is called attic')
    await syncOnce(a, { url, key })
    await syncOnce(b, { url, key })
    expect((await contents(b.engine)).has('The door code is 4471')).toBe(true)
    await a.engine.forget(id)
    await syncUntilQuiet([a, b], { url, key })
    expect([...(await contents(b.engine)).keys()]).toEqual(['The wifi is called attic'])
    expect((await b.engine.recall('door code')).hits.map((h) => h.text)).not.toContain(
      'The door code is 4471',
    )
    const tombstones = (await server.leaves(url.split('/').pop()!)).filter((d) => d._deleted)
    expect(tombstones).toHaveLength(1)
    // Sealed like a live document: the server sees neither the forget time nor anything to forge.
    expect(Object.keys(tombstones[0]!).sort()).toEqual(['_deleted', '_id', '_rev', 'ct', 'iv', 'v'])
  })

  it('merges concurrent updates by the rules: later fields, unioned tags, counted confirmations', async () => {
    const { a, b, url, key } = await pair()
    const { id } = await a.engine.remember('The release train leaves on Thursdays', {
      tags: ['release'],
    })
    await syncOnce(a, { url, key })
    await syncOnce(b, { url, key })
    const idOnB = [...(await contents(b.engine)).values()][0]!.id
    // Offline on both: A edits first, B later; each also sees the fact confirmed once more.
    a.clock.now += 1_000
    await a.engine.update(id, { tags: ['release', 'alpha'], source: 'a-notes' })
    await a.engine.remember('the release train leaves on thursdays')
    b.clock.now += 2_000
    await b.engine.update(idOnB, { tags: ['release', 'beta'], source: 'b-notes' })
    await b.engine.remember('THE RELEASE TRAIN LEAVES ON THURSDAYS')
    // Until quiet: the device that meets the conflict may be either one (a one-shot pull can
    // miss a version pushed concurrently), and the other needs one more round for the merge.
    await syncUntilQuiet([a, b], { url, key })
    for (const device of [a, b]) {
      const [m] = [...(await contents(device.engine)).values()]
      expect(m!.source).toBe('b-notes')
      expect([...m!.tags].sort()).toEqual(['alpha', 'beta', 'release'])
      // 1 at creation + 1 on each device: a sum would say 4, a maximum 2.
      expect(m!.confirmations).toBe(3)
      expect(m!.createdAt).toBe(1_750_000_000_000)
    }
    const leaves = (await server.leaves(url.split('/').pop()!)).filter(
      (d) => !d._deleted && String(d._id).startsWith('m:'),
    )
    expect(leaves).toHaveLength(1)
  })

  it('leaves no plaintext on the server: every document body is ciphertext under an opaque id', async () => {
    const { a, b, url, key } = await pair()
    const texts = [
      'Marguerite’s allergy is to penicillin',
      'The vault PIN is 90210',
      'Quokkas live on Rottnest',
    ]
    for (const [i, text] of texts.entries()) {
      await a.engine.remember(text, {
        tags: [`secret-tag-${i}`],
        namespace: 'household',
        source: 'diary',
      })
    }
    await syncOnce(a, { url, key })
    await syncOnce(b, { url, key })
    expect(await b.engine.count({ namespace: 'household' })).toBe(3)
    const docs = await server.leaves(url.split('/').pop()!)
    expect(docs.length).toBe(4)
    const bodies = JSON.stringify(docs).toLowerCase()
    for (const needle of [
      ...texts,
      'secret-tag',
      'household',
      'diary',
      'penicillin',
      'vault',
      'quokka',
    ]) {
      expect(bodies).not.toContain(needle.toLowerCase())
    }
    for (const doc of docs) {
      if (doc._id === 'engram-keycheck') continue
      expect(Object.keys(doc).sort()).toEqual(['_id', '_rev', 'ct', 'iv', 'v'])
      expect(doc._id).toMatch(/^m:[A-Za-z0-9_-]{43}$/)
    }
  })

  it('rejects a wrong passphrase with WRONG_KEY and changes nothing', async () => {
    const { a, b, url } = await pair()
    await a.engine.remember('Only the right passphrase opens this')
    await syncOnce(a, { url, passphrase: 'correct horse battery staple' })
    await b.engine.remember('B keeps its own memory')
    const before = await server.leaves(url.split('/').pop()!)
    const attempt = startSync(b.engine, {
      url,
      passphrase: 'incorrect horse',
      mirror: b.mirror,
      live: false,
    })
    await expect(attempt).rejects.toBeInstanceOf(SyncKeyError)
    await expect(attempt).rejects.toMatchObject({ code: 'WRONG_KEY' })
    expect(await server.leaves(url.split('/').pop()!)).toEqual(before)
    expect([...(await contents(b.engine)).keys()]).toEqual(['B keeps its own memory'])
    const mirrored = await b.mirror.allDocs()
    expect(mirrored.rows.filter((r) => r.id.startsWith('m:'))).toHaveLength(0)
    await syncOnce(b, { url, passphrase: 'correct horse battery staple' })
    expect((await contents(b.engine)).has('Only the right passphrase opens this')).toBe(true)
  })

  it('folds near duplicates written on two devices into the same memory on both', async () => {
    const { a, b, url, key } = await pair()
    await a.engine.remember('The owner prefers metric units for every measurement')
    await b.engine.remember('The owner prefers metric units for every measurements')
    await syncOnce(a, { url, key })
    await syncUntilQuiet([b, a], { url, key, nearDuplicate: 0.9 })
    const [onA, onB] = [await contents(a.engine), await contents(b.engine)]
    expect(onA.size).toBe(1)
    expect([...onA.keys()]).toEqual([...onB.keys()])
    expect([...onA.values()][0]!.confirmations).toBe(2)
    expect([...onB.values()][0]!.confirmations).toBe(2)
  })

  it('replicates live, and other tabs follow remote changes through the change log', async () => {
    const { a, b, url, key } = await pair()
    const seqBefore = (await b.engine.inspect.stats()).changeSeq
    const otherTab = await b.openTab()
    const syncA = await startSync(a.engine, { url, key, mirror: a.mirror, pollMs: 20 })
    const syncB = await startSync(b.engine, { url, key, mirror: b.mirror, pollMs: 20 })
    try {
      await a.engine.remember('Live sync carries this across')
      await eventually(async () => (await contents(b.engine)).has('Live sync carries this across'))
      expect((await b.engine.inspect.stats()).changeSeq).toBeGreaterThan(seqBefore)
      // The other tab was not synced: it catches up from the change log, as after a local write.
      expect(await otherTab.catchUp()).toBeGreaterThan(0)
      expect((await otherTab.recall('live sync carries')).hits[0]?.text).toBe(
        'Live sync carries this across',
      )
      await b.engine.remember('And this back again')
      await eventually(async () => (await contents(a.engine)).has('And this back again'))
      expect(syncA.status.pushed).toBeGreaterThan(0)
      expect(syncB.status.pulled).toBeGreaterThan(0)
    } finally {
      await syncA.stop()
      await syncB.stop()
      await otherTab.close()
    }
    expect(syncA.status.state).toBe('stopped')
  })

  it('resumes after the server is killed mid-replication, without loss or duplicates', async () => {
    const { a, b, url, key } = await pair()
    // Seeded word salad: no two texts are near duplicates, so neither engine folds any of them.
    const next = uniform(hashSeed(`sync-kill-${TEST_SEED}`))
    const words = 'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel'.split(
      ' ',
    )
    const salad = () => Array.from({ length: 10 }, () => words[Math.floor(next() * words.length)])
    const items = Array.from({ length: 600 }, (_, i) => ({
      text: `Shift log ${i}: ${salad().join(' ')}`,
    }))
    await a.engine.rememberMany(items)
    const held = await a.engine.count({})
    expect(held).toBe(600)
    const syncA = await startSync(a.engine, {
      url,
      key,
      mirror: a.mirror,
      pollMs: 20,
      maxRetryMs: 200,
    })
    await new Promise<void>((resolve) => {
      const off = syncA.on((s) => {
        if (s.pushed > 0) {
          off()
          resolve()
        }
      })
    })
    await server.kill()
    expect(syncA.status.pushed).toBeLessThan(held)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await server.restart()
    await eventually(async () => {
      const info = (await (await fetch(url)).json()) as { doc_count?: number }
      return info.doc_count === held + 1
    }, 'the restarted server holds every document')
    await syncA.stop()
    await syncOnce(b, { url, key })
    expect(await b.engine.count({})).toBe(held)
    expect((await contents(b.engine)).size).toBe(held)
    const docs = (await server.leaves(url.split('/').pop()!)).filter((d) => !d._deleted)
    expect(docs).toHaveLength(held + 1)
    expect(new Set(docs.map((d) => d._id)).size).toBe(held + 1)
    expect(await a.engine.count({})).toBe(held)
  }, 120_000)
})
