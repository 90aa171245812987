import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { VectorIndex } from '../../../../src/core/vector/index.ts'
import { IndexSet } from '../../../../src/engine/index/index-set.ts'
import {
  CATALOGUE_SEGMENT_ROWS,
  catalogueSegments,
  segmentRows,
  vectorParts,
  vectorSegments,
} from '../../../../src/engine/index/segments.ts'
import { loadSnapshot, optionsHash, saveSnapshot } from '../../../../src/engine/index/snapshot.ts'
import { EngramDatabase } from '../../../../src/storage/index.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'
import { row } from '../fixtures.ts'

function randomUnit(next: () => number, dims: number): Float32Array {
  const v = Float32Array.from({ length: dims }, () => next() - 0.5)
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}

const stamp = (seq: number, count: number) => ({
  seq,
  optionsHash: optionsHash({}),
  model: 'm',
  count,
  now: seq,
  counters: 0,
  staleVectors: 0,
})

describe('snapshot segments', () => {
  it('store rows without their field names and give them back as JSON would', () => {
    const rows = [
      row('a', 'Water the ficus', { tags: ['plants'], happenedAt: 5 }),
      row('b', 'A chunk', { pageId: 'p', chunk: 0, meta: { turn: 2 }, summary: undefined }),
      row('c', 'No key', { key: undefined }),
      row('d', 'Odd kinds', { confidence: Number.NaN, tier: 7 as never, sealed: 'x' } as never),
      { id: 'e', text: 'only a text' } as never,
    ]
    const [segment] = catalogueSegments(rows)
    expect(segmentRows(segment!)).toStrictEqual(JSON.parse(JSON.stringify(rows)))
    const usual = Array.from({ length: 50 }, (_, i) => row(`m${i}`, `Memory ${i}`))
    expect(catalogueSegments(usual)[0]!.rows.length).toBeLessThan(
      JSON.stringify(usual).length * 0.6,
    )
    for (const rows of ['{"id":1}', '[["a",1]]', '[7]', '[{"id":'])
      expect(segmentRows({ rows, hash: '' })).toBeUndefined()
  })

  it('split a vector snapshot by rows and load back the same index from the parts', () => {
    const next = uniform(TEST_SEED)
    const index = new VectorIndex(16)
    for (let i = 0; i < 50; i++) index.add(`v${i}`, randomUnit(next, 16), i % 3)
    const snapshot = index.serialize()
    const split = vectorSegments(snapshot, 1000)
    const { head } = split
    const segments = [...split.segments.values()]
    expect(segments.length).toBeGreaterThan(3)
    expect(segments.map((s) => s.hash)).toEqual(split.hashes)
    expect(segments.reduce((n, s) => n + s.ids.length, 0)).toBe(50)
    const parts = vectorParts(head, segments)
    expect(parts[1]!.codes).toBe(segments[1]!.codes)
    const restored = VectorIndex.deserialize(parts)
    expect(restored.serialize()).toEqual(snapshot)
    const query = randomUnit(next, 16)
    expect(restored.search(query, 5)).toEqual(index.search(query, 5))
    expect(() => vectorParts(head, segments.slice(1))).toThrow(/vector rows/)
    const other = new VectorIndex(8)
    other.add('w', randomUnit(next, 8))
    expect(() => VectorIndex.deserialize([parts[0]!, other.serialize()])).toThrow(/settings/)
  })

  it('hash an index through views as through a copy, and copy out only the segments wanted', () => {
    const next = uniform(TEST_SEED + 1)
    const index = new VectorIndex(16)
    for (let i = 0; i < 60; i++) index.add(`v${i}`, randomUnit(next, 16), i % 2)
    const copied = vectorSegments(index.serialize(), 1000)
    const viewed = vectorSegments(index.view(), 1000, (position) => position % 2 === 1)
    expect(viewed.hashes).toEqual(copied.hashes)
    expect([...viewed.segments.keys()]).toEqual(
      copied.hashes.map((_, i) => i).filter((i) => i % 2 === 1),
    )
    for (const [i, segment] of viewed.segments) {
      expect(segment).toEqual(copied.segments.get(i))
      // A copy of its rows, not a view of the index's buffer (which a clone would store whole).
      expect(segment.codes.buffer.byteLength).toBe(segment.codes.byteLength)
    }
    // The copies stay as they were when the index changes after.
    const before = structuredClone(viewed.segments.get(1)!)
    for (let i = 0; i < 40; i++) index.add(`v${i}`, randomUnit(next, 16), 1)
    expect(viewed.segments.get(1)).toEqual(before)
    expect(vectorSegments(index.view(), 1000).hashes[1]).not.toBe(before.hash)
  })

  it('are rewritten only where the catalogue changed, and load back whole', async () => {
    const db = new EngramDatabase('segments', { indexedDB: new IDBFactory(), IDBKeyRange })
    await db.open()
    const count = 2 * CATALOGUE_SEGMENT_ROWS + 10
    const indexes = IndexSet.empty({}, 0)
    for (let i = 0; i < count; i++) indexes.put(row(`m${String(i).padStart(5, '0')}`, `fact ${i}`))
    await saveSnapshot(db, indexes, stamp(1, count))
    const last = indexes.catalogue.get('m04005')!
    indexes.put({ ...last, text: 'fact changed' })
    await saveSnapshot(db, indexes, stamp(2, count))
    const seqs = Object.fromEntries((await db.snapshots.toArray()).map((r) => [r.name, r.seq]))
    expect(seqs).toEqual({
      indexes: 2,
      'indexes:hashes': 2,
      'indexes:catalogue:0': 1,
      'indexes:catalogue:1': 1,
      'indexes:catalogue:2': 2,
    })
    const loaded = await loadSnapshot(db, { optionsHash: optionsHash({}), model: 'm' }, {})
    if (!('indexes' in loaded)) throw new Error(`rejected: ${loaded.rejected}`)
    expect(loaded.indexes.restoredCounters).toBe(0)
    expect([...loaded.indexes.catalogue.values()]).toEqual([...indexes.catalogue.values()])
    expect(loaded.indexes.keyword.search('changed', 5).map((h) => h.id)).toEqual(['m04005'])
    db.close()
  })

  it('serialise only the segments written since the last save, with the hashes a whole serialisation gives', () => {
    const indexes = IndexSet.empty({}, 0)
    const id = (i: number) => `m${String(i).padStart(5, '0')}`
    for (let i = 0; i < 2 * CATALOGUE_SEGMENT_ROWS + 10; i++) indexes.put(row(id(i), `fact ${i}`))
    const whole = () => catalogueSegments(indexes.catalogue.values()).map((s) => s.hash)
    const serialised = () => indexes.catalogueSegments().map((s) => s.rows !== undefined)
    expect(serialised()).toEqual([true, true, true])
    expect(serialised()).toEqual([false, false, false])
    indexes.put({ ...indexes.catalogue.get(id(7))!, text: 'fact changed' })
    indexes.put(row('appended', 'a new fact'))
    const made = indexes.catalogueSegments()
    expect(made.map((s) => s.rows !== undefined)).toEqual([true, false, true])
    expect(made.map((s) => s.hash)).toEqual(whole())
    indexes.remove(id(3)) // every later row moves up a place
    expect(indexes.catalogueSegments().map((s) => s.hash)).toEqual(whole())
    indexes.adoptCatalogue([...indexes.catalogue.values()]) // same rows, set again
    expect(serialised()).toEqual([true, true, true])
    expect(indexes.catalogueSegments(true).every((s) => s.rows !== undefined)).toBe(true)
  })

  it('are not serialised again by the first save after a cold start, and a save that finds another segment stored writes them all', async () => {
    const db = new EngramDatabase('segments-kept', { indexedDB: new IDBFactory(), IDBKeyRange })
    await db.open()
    const count = 2 * CATALOGUE_SEGMENT_ROWS + 10
    const indexes = IndexSet.empty({}, 0)
    for (let i = 0; i < count; i++) indexes.put(row(`m${String(i).padStart(5, '0')}`, `fact ${i}`))
    await saveSnapshot(db, indexes, stamp(1, count))
    const expected = { optionsHash: optionsHash({}), model: 'm' }
    const loaded = await loadSnapshot(db, expected, {})
    if (!('indexes' in loaded)) throw new Error(`rejected: ${loaded.rejected}`)
    expect(loaded.indexes.catalogueSegments().some((s) => s.rows !== undefined)).toBe(false)
    // A change whose save never landed: the next save must not take segment 0 as stored.
    loaded.indexes.put({ ...loaded.indexes.catalogue.get('m00001')!, text: 'fact changed' })
    loaded.indexes.catalogueSegments()
    await saveSnapshot(db, loaded.indexes, stamp(2, count))
    const again = await loadSnapshot(db, expected, {})
    if (!('indexes' in again)) throw new Error(`rejected: ${again.rejected}`)
    expect(again.indexes.restoredCounters).toBe(0)
    expect(again.indexes.catalogue.get('m00001')?.text).toBe('fact changed')
    expect([...again.indexes.catalogue.values()]).toEqual([...loaded.indexes.catalogue.values()])
    db.close()
  })

  it('rewrite only the vector segments an append changed, also after a save left no hashes row', async () => {
    const db = new EngramDatabase('vector-append', { indexedDB: new IDBFactory(), IDBKeyRange })
    await db.open()
    const next = uniform(TEST_SEED + 9)
    const indexes = IndexSet.empty({}, 16)
    const add = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        indexes.put(row(`m${String(i).padStart(5, '0')}`, `fact ${i}`), randomUnit(next, 16))
      }
    }
    const seqs = async () =>
      Object.fromEntries(
        (await db.snapshots.toArray())
          .filter((r) => r.name.startsWith('indexes:vectors:'))
          .map((r) => [r.name, r.seq]),
      )
    add(0, 300)
    await saveSnapshot(db, indexes, stamp(1, 300), 2000)
    const first = await seqs()
    const segments = Object.keys(first).length
    expect(segments).toBeGreaterThan(3)
    add(300, 310)
    await saveSnapshot(db, indexes, stamp(2, 310), 2000)
    const second = await seqs()
    // Every segment but the last one or two is the first save's.
    const rewritten = Object.values(second).filter((seq) => seq === 2).length
    expect(rewritten).toBeGreaterThan(0)
    expect(rewritten).toBeLessThanOrEqual(2)
    expect(Object.keys(second).length).toBeGreaterThanOrEqual(segments)
    // Older code's saves leave no hashes row: the manifest's lists are read instead.
    await db.snapshots.delete('indexes:hashes')
    add(310, 320)
    await saveSnapshot(db, indexes, stamp(3, 320), 2000)
    const third = await seqs()
    expect(Object.values(third).filter((seq) => seq === 3).length).toBeLessThanOrEqual(2)
    expect(third['indexes:vectors:0']).toBe(1)
    const loaded = await loadSnapshot(db, { optionsHash: optionsHash({}), model: 'm' }, {})
    if (!('indexes' in loaded)) throw new Error(`rejected: ${loaded.rejected}`)
    const query = randomUnit(next, 16)
    expect(loaded.indexes.vectors!.size).toBe(320)
    expect(loaded.indexes.vectors!.search(query, 10)).toEqual(indexes.vectors!.search(query, 10))
    db.close()
  })

  it('carry the vectors in several segments that load back to the same answers, and refuse a damaged one', async () => {
    const db = new EngramDatabase('vector-segments', { indexedDB: new IDBFactory(), IDBKeyRange })
    await db.open()
    const next = uniform(TEST_SEED + 7)
    const indexes = IndexSet.empty({}, 16)
    for (let i = 0; i < 300; i++) {
      indexes.put(row(`m${String(i).padStart(5, '0')}`, `fact ${i}`), randomUnit(next, 16))
    }
    await saveSnapshot(db, indexes, stamp(1, 300), 2000)
    const names = (await db.snapshots.toCollection().primaryKeys()) as string[]
    const vectorRows = names.filter((name) => name.startsWith('indexes:vectors:'))
    expect(vectorRows.length).toBeGreaterThan(3)
    const expected = { optionsHash: optionsHash({}), model: 'm' }
    const loaded = await loadSnapshot(db, expected, {})
    if (!('indexes' in loaded)) throw new Error(`rejected: ${loaded.rejected}`)
    const query = randomUnit(next, 16)
    expect(loaded.indexes.vectors!.size).toBe(300)
    expect(loaded.indexes.vectors!.search(query, 10)).toEqual(indexes.vectors!.search(query, 10))
    expect(loaded.indexes.keyword.search('fact 7', 3).length).toBeGreaterThan(0)
    const damaged = (await db.snapshots.get(vectorRows[1]!))!
    await db.snapshots.put({ ...damaged, data: { ...(damaged.data as object), hash: 'other' } })
    expect(await loadSnapshot(db, expected, {})).toEqual({ rejected: 'corrupt' })
    expect(await db.snapshots.count()).toBe(0)
    db.close()
  })
})
