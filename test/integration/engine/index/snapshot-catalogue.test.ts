import { describe, expect, it } from 'vitest'
import type { Memory } from '../../../../src/core/types.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { closingEngines, freshIdb } from '../../../helpers/engine.ts'

const engine = closingEngines()

const FACTS = [
  'Deploys go out through scripts/ship.sh after the smoke tests pass',
  'The owner prefers metric units',
  'Ticket FH-2291 tracks the flaky upload test',
  'Priya is the owner’s sister-in-law and lives in Pune',
]

/** A memory written, recalled once (counters flushed) and closed: a snapshot with a catalogue. */
async function closedMemory(name: string) {
  const idb = freshIdb()
  const first = await engine({ name, ...idb })
  const ids = (await first.rememberMany(FACTS.map((text) => ({ text })))).map((r) => r.id)
  await first.recall('metric units', { mode: 'keyword' })
  await first.close()
  return { idb, ids }
}

async function tables(name: string, idb: ReturnType<typeof freshIdb>) {
  const db = new EngramDatabase(name, idb)
  await db.open()
  return db
}

/** The catalogue row of `id` as recall serves it (hits carry the catalogue's row). */
async function recalled(e: Awaited<ReturnType<typeof engine>>, query: string, id: string) {
  const { hits } = await e.recall(query, { mode: 'keyword', log: false })
  return hits.find((h) => h.id === id)?.memory as Memory | undefined
}

describe('the catalogue saved with the snapshot', () => {
  it('is saved beside the indexes and restores the catalogue a reopen serves', async () => {
    const { idb, ids } = await closedMemory('catalogue-saved')
    const db = await tables('catalogue-saved', idb)
    const names = (await db.snapshots.toCollection().primaryKeys()).sort()
    const rows = await db.memories.toArray()
    db.close()
    expect(names).toEqual(['indexes', 'indexes:catalogue:0', 'indexes:hashes', 'recall-counters'])
    const second = await engine({ name: 'catalogue-saved', ...idb })
    expect((await second.inspect.stats()).open).toMatchObject({ restored: 'snapshot', replayed: 0 })
    const held = await recalled(second, 'metric units', ids[1]!)
    expect(held).toEqual(rows.find((r) => r.id === ids[1]))
    expect(held?.recallCount).toBe(1)
    expect((await second.inspect.verify()).ok).toBe(true)
  })

  it('is read from the table instead when counters were flushed after the snapshot', async () => {
    const { idb, ids } = await closedMemory('catalogue-counters')
    const second = await engine({ name: 'catalogue-counters', ...idb })
    await second.recall('metric units', { mode: 'keyword' })
    await second.inspect.recallLog() // waits for the counter flush
    // A tab killed here leaves the snapshot of the first close and counters it does not hold.
    const third = await engine({ name: 'catalogue-counters', ...idb })
    expect((await third.inspect.stats()).open?.restored).toBe('snapshot')
    expect((await recalled(third, 'metric units', ids[1]!))?.recallCount).toBe(2)
  })

  it('has the change log after the snapshot replayed over it', async () => {
    const { idb, ids } = await closedMemory('catalogue-replay')
    const second = await engine({ name: 'catalogue-replay', ...idb, snapshotEvery: 1_000_000 })
    await second.update(ids[1]!, { text: 'The owner prefers imperial units' })
    const added = await second.remember('The metric system is taught in schools')
    await second.forget(ids[0]!)
    // No close: the snapshot still says what the first close saw.
    const third = await engine({ name: 'catalogue-replay', ...idb })
    expect((await third.inspect.stats()).open).toMatchObject({ restored: 'snapshot', replayed: 3 })
    expect((await recalled(third, 'imperial units', ids[1]!))?.text).toBe(
      'The owner prefers imperial units',
    )
    expect(await recalled(third, 'metric system schools', added.id)).toBeDefined()
    expect(await recalled(third, 'scripts ship', ids[0]!)).toBeUndefined()
    expect((await third.inspect.verify()).ok).toBe(true)
  })

  it('falls back to a rebuild when the table holds a memory the catalogue does not', async () => {
    const { idb, ids } = await closedMemory('catalogue-extra')
    const db = await tables('catalogue-extra', idb)
    const row = (await db.memories.get(ids[1]!))!
    // A row without a change entry: nothing but comparing the ids can notice it.
    await db.memories.put({ ...row, id: '01J00000000000000000000000', key: 'other key' })
    db.close()
    const second = await engine({ name: 'catalogue-extra', ...idb })
    expect((await second.inspect.stats()).open?.restored).toBe('rebuild')
    expect((await second.inspect.stats()).memories).toBe(FACTS.length + 1)
    expect((await second.inspect.verify()).ok).toBe(true)
  })

  it('falls back to a rebuild when a memory is gone from the table without a change entry', async () => {
    const { idb, ids } = await closedMemory('catalogue-missing')
    const db = await tables('catalogue-missing', idb)
    await db.transaction('rw', db.memories, db.vectors, async () => {
      await db.memories.delete(ids[2]!)
      await db.vectors.delete(ids[2]!)
    })
    db.close()
    const second = await engine({ name: 'catalogue-missing', ...idb })
    expect((await second.inspect.stats()).open?.restored).toBe('rebuild')
    expect(await recalled(second, 'flaky upload test', ids[2]!)).toBeUndefined()
    expect((await second.inspect.verify()).ok).toBe(true)
  })

  it('rebuilds after the open when a memory was swapped for another without a change entry', async () => {
    const { idb, ids } = await closedMemory('catalogue-swapped')
    const db = await tables('catalogue-swapped', idb)
    const gone = ids[2]!
    const swapped = '01J0SWAPPED0000000000000000'
    await db.transaction('rw', db.memories, db.vectors, async () => {
      const row = (await db.memories.get(gone))!
      const vector = (await db.vectors.get(gone))!
      await db.memories.delete(gone)
      await db.vectors.delete(gone)
      const text = 'Ticket FH-3004 tracks the login timeout'
      await db.memories.add({ ...row, id: swapped, text, key: text.toLowerCase() })
      await db.vectors.add({ ...vector, id: swapped })
    })
    db.close()
    const second = await engine({ name: 'catalogue-swapped', ...idb })
    // The counts agree, so the open answers from the snapshot; the keys are compared next,
    // ahead of any write, and the swap rebuilds the indexes.
    expect((await second.inspect.stats()).open?.restored).toBe('snapshot')
    await second.remember('The owner drinks oat milk')
    expect(await recalled(second, 'flaky upload test', gone)).toBeUndefined()
    expect((await recalled(second, 'login timeout', swapped))?.text).toContain('FH-3004')
    expect((await second.inspect.verify()).ok).toBe(true)
  })

  it('falls back to a rebuild when a vector is gone from the table without a change entry', async () => {
    const { idb, ids } = await closedMemory('catalogue-vector')
    const db = await tables('catalogue-vector', idb)
    const vectors = await db.vectors.count()
    await db.vectors.delete(ids[0]!)
    db.close()
    expect(vectors).toBe(FACTS.length)
    const second = await engine({ name: 'catalogue-vector', ...idb })
    expect((await second.inspect.stats()).open?.restored).toBe('rebuild')
    expect((await second.inspect.verify()).ok).toBe(true)
  })

  it('is read from the table when a catalogue segment is damaged or from another save', async () => {
    const { idb, ids } = await closedMemory('catalogue-damaged')
    const db = await tables('catalogue-damaged', idb)
    const saved = (await db.snapshots.get('indexes:catalogue:0'))!
    await db.snapshots.put({ ...saved, data: { ...(saved.data as object), rows: '[{"id":' } })
    // Behind the engine's back, so only a catalogue read from the table shows it.
    const row = (await db.memories.get(ids[1]!))!
    await db.memories.put({ ...row, confirmations: 7 })
    db.close()
    const second = await engine({ name: 'catalogue-damaged', ...idb })
    expect((await second.inspect.stats()).open?.restored).toBe('snapshot')
    expect((await recalled(second, 'metric units', ids[1]!))?.confirmations).toBe(7)
    await second.close()
    // A catalogue segment of another save than the manifest names (its hash differs).
    const db2 = await tables('catalogue-damaged', idb)
    await db2.snapshots.put({ ...saved, data: { ...(saved.data as object), hash: 'other:4' } })
    db2.close()
    const third = await engine({ name: 'catalogue-damaged', ...idb })
    expect((await recalled(third, 'metric units', ids[1]!))?.confirmations).toBe(7)
    expect((await third.inspect.verify()).ok).toBe(true)
  })
})
