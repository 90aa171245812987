import { IDBIndex, IDBObjectStore } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Embedder, EmbedderStats } from '../../../../src/core/types.ts'
import { NgramEmbedder } from '../../../../src/embedder/ngram-embedder.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { closingEngines, freshIdb } from '../../../helpers/engine.ts'

const engine = closingEngines()

const FACTS = [
  'Deploys go out through scripts/ship.sh after the smoke tests pass',
  'The owner prefers metric units',
  'Ticket FH-2291 tracks the flaky upload test',
  'Priya is the owner’s sister-in-law and lives in Pune',
]

/** A model of its own that is ready but cannot embed: another model's vectors stay stored. */
class StuckEmbedder implements Embedder {
  readonly model = 'engram-test/stuck'
  readonly dims = 384
  readonly state = 'ready' as const
  async load(): Promise<void> {}
  async embed(): Promise<Float32Array[]> {
    throw new Error('this model embeds nothing')
  }
  stats(): EmbedderStats {
    return { model: this.model, dims: this.dims, state: this.state, device: 'cpu' }
  }
}

/** Records the name of every index whose key range is counted (Chromium pays entry by entry). */
function countedIndexes(): string[] {
  const counted: string[] = []
  const count = IDBIndex.prototype.count
  vi.spyOn(IDBIndex.prototype, 'count').mockImplementation(function (this: IDBIndex, key) {
    counted.push(this.name)
    return count.call(this, key)
  })
  return counted
}

/** Records the store of every key list read (`getAllKeys`), as the key check reads them. */
function keyLists(): string[] {
  const read: string[] = []
  const getAllKeys = IDBObjectStore.prototype.getAllKeys
  vi.spyOn(IDBObjectStore.prototype, 'getAllKeys').mockImplementation(function (
    this: IDBObjectStore,
    ...args
  ) {
    read.push(this.name)
    return getAllKeys.apply(this, args)
  })
  const indexKeys = IDBIndex.prototype.getAllKeys
  vi.spyOn(IDBIndex.prototype, 'getAllKeys').mockImplementation(function (this: IDBIndex, ...args) {
    read.push(this.objectStore.name)
    return indexKeys.apply(this, args)
  })
  return read
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the counts an open from the snapshot checks', () => {
  it('come from plain table counts, not a count of the model’s vectors by index', async () => {
    const idb = freshIdb()
    const first = await engine({ name: 'open-counts', ...idb })
    await first.rememberMany(FACTS.map((text) => ({ text })))
    await first.close()
    const counted = countedIndexes()
    const second = await engine({ name: 'open-counts', ...idb })
    const atOpen = [...counted]
    expect((await second.inspect.stats()).open?.restored).toBe('snapshot')
    expect(atOpen).toEqual([])
    expect((await second.recall('metric units')).hits[0]?.text).toBe(FACTS[1])
    expect((await second.inspect.verify()).ok).toBe(true)
  })

  it('still rebuild when a vector row is gone from the table without a change entry', async () => {
    const idb = freshIdb()
    const first = await engine({ name: 'open-counts-gone', ...idb })
    const ids = (await first.rememberMany(FACTS.map((text) => ({ text })))).map((r) => r.id)
    await first.close()
    const db = new EngramDatabase('open-counts-gone', idb)
    await db.vectors.delete(ids[1]!)
    db.close()
    const second = await engine({ name: 'open-counts-gone', ...idb })
    expect((await second.inspect.stats()).open?.restored).toBe('rebuild')
    expect((await second.inspect.stats()).vectorEntries).toBe(FACTS.length - 1)
  })

  it('carry another model’s stored vectors across a reopen: recall still says re-embedding', async () => {
    const idb = freshIdb()
    const first = await engine({ name: 'open-counts-stale', ...idb, embedder: new NgramEmbedder() })
    await first.rememberMany(FACTS.map((text) => ({ text })))
    await first.close()
    // The new model cannot embed: the n-gram vectors stay stored, waiting to be re-embedded.
    const second = await engine({
      name: 'open-counts-stale',
      ...idb,
      embedder: new StuckEmbedder(),
    })
    expect((await second.inspect.stats()).open?.restored).toBe('rebuild')
    expect((await second.recall('metric units', { log: false })).degraded).toBe('reembedding')
    await second.close()

    const counted = countedIndexes()
    const third = await engine({ name: 'open-counts-stale', ...idb, embedder: new StuckEmbedder() })
    const atOpen = [...counted]
    expect((await third.inspect.stats()).open?.restored).toBe('snapshot')
    expect(atOpen).toEqual([])
    const recalled = await third.recall('metric units', { log: false })
    expect(recalled.degraded).toBe('reembedding')
    expect(recalled.hits[0]?.text).toBe(FACTS[1])
    expect((await third.inspect.stats()).vectors).toBe(FACTS.length)
  })

  it('leave the key check to a quiet spell or the next write: the first answers read no key lists', async () => {
    const idb = freshIdb()
    const first = await engine({ name: 'open-counts-quiet', ...idb })
    await first.rememberMany(FACTS.map((text) => ({ text })))
    await first.close()
    const read = keyLists()
    const second = await engine({ name: 'open-counts-quiet', ...idb })
    for (const query of ['metric units', 'flaky upload', 'ship.sh', 'Pune']) {
      expect((await second.recall(query)).hits.length).toBeGreaterThan(0)
    }
    expect(read).toEqual([])
    // A write waits behind the check, which then runs at once: both tables' keys, then the write.
    const written = await second.remember('The owner drinks oat milk')
    expect(read).toEqual(expect.arrayContaining(['memories', 'vectors']))
    expect(written.status).toBe('created')
    expect((await second.inspect.verify()).ok).toBe(true)
  })
})
