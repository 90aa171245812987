/**
 * Relations replicate: two engines as two devices, a real CouchDB-protocol server on
 * 127.0.0.1, one-shot syncs so each step's order is the test's. Edges are matched by their
 * ends' content (local ids differ per device).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Relation } from '../../../src/core/types.ts'
import type { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { CouchServer } from '../../helpers/couch-server.ts'
import { type Device, openDevice, syncOnce, syncUntilQuiet, testKey } from './sync-helpers.ts'

let server: CouchServer
let dbs = 0
beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})

async function pair(): Promise<{
  a: Device
  b: Device
  sync: (d: Device) => Promise<unknown>
  quiet: () => Promise<number>
}> {
  const url = server.url(`edges-${++dbs}`)
  const key = await testKey()
  const [a, b] = [await openDevice(), await openDevice()]
  return {
    a,
    b,
    sync: (d) => syncOnce(d, { url, key }),
    quiet: () => syncUntilQuiet([a, b], { url, key }),
  }
}

/** Every edge of a device as `from text → to text (kind)`, sorted. */
async function edges(engine: MemoryEngine): Promise<string[]> {
  const page = await engine.list({ limit: 1000 })
  const text = new Map(page.items.map((m) => [m.id, m.text]))
  const seen = new Set<string>()
  for (const m of page.items) {
    for (const r of (await engine.relations.of(m.id)) as Relation[]) {
      seen.add(`${text.get(r.from)} → ${text.get(r.to)} (${r.kind})`)
    }
  }
  return [...seen].sort()
}

async function idOf(engine: MemoryEngine, text: string): Promise<string> {
  const page = await engine.list({ limit: 1000 })
  return page.items.find((m) => m.text === text)!.id
}

const OLD = 'The office is in Lisbon'
const NEW = 'The office moved to Porto'

describe('relations between two devices', () => {
  it('replicates an edge between the same memories on the other device, with its createdAt', async () => {
    const { a, b, sync } = await pair()
    const lisbon = await a.engine.remember(OLD)
    const porto = await a.engine.remember(NEW)
    a.clock.now += 1000
    const edge = await a.engine.relations.add(porto.id, lisbon.id, 'supersedes')
    await sync(a)
    await sync(b)
    expect(await edges(b.engine)).toEqual([`${NEW} → ${OLD} (supersedes)`])
    const onB = await b.engine.relations.of(await idOf(b.engine, NEW))
    expect(onB[0]?.createdAt).toBe(edge.createdAt)
    // The superseded memory is hidden on B too: the edge does what it does locally.
    const hits = (await b.engine.recall('where is the office')).hits.map((h) => h.text)
    expect(hits).not.toContain(OLD)
  })

  it('removes on the other device an edge one device unrelated', async () => {
    const { a, b, sync } = await pair()
    const x = await a.engine.remember(OLD)
    const y = await a.engine.remember(NEW)
    await a.engine.relations.add(y.id, x.id, 'supersedes')
    await a.engine.relations.add(x.id, y.id, 'related_to')
    await sync(a)
    await sync(b)
    expect((await edges(b.engine)).length).toBe(2)
    a.clock.now += 1000
    expect(await a.engine.relations.remove(y.id, x.id, 'supersedes')).toBe(true)
    await sync(a)
    await sync(b)
    expect(await edges(b.engine)).toEqual([`${OLD} → ${NEW} (related_to)`])
  })

  it('drops the edge on both devices when either end is forgotten on one', async () => {
    const { a, b, sync } = await pair()
    const x = await a.engine.remember(OLD)
    const y = await a.engine.remember(NEW)
    await a.engine.relations.add(y.id, x.id, 'supersedes')
    await sync(a)
    await sync(b)
    b.clock.now += 1000
    await b.engine.forget(await idOf(b.engine, OLD))
    await sync(b)
    await sync(a)
    expect(await a.engine.relations.of(y.id)).toEqual([])
    expect(await edges(b.engine)).toEqual([])
    // On the server the edge is a tombstone, like its forgotten end.
    const live = (await server.leaves(`edges-${dbs}`)).filter(
      (d) => String(d._id).startsWith('r:') && !d._deleted,
    )
    expect(live).toEqual([])
  })

  it('lets the later of a concurrent unrelate and re-relate win on both devices', async () => {
    const { a, b, sync } = await pair()
    const x = await a.engine.remember(OLD)
    const y = await a.engine.remember(NEW)
    await a.engine.relations.add(y.id, x.id, 'supersedes')
    await sync(a)
    await sync(b)
    // A unrelates at t+1s; B, offline, unrelates and relates again at t+2s: B's write is later.
    a.clock.now += 1000
    await a.engine.relations.remove(y.id, x.id, 'supersedes')
    const [bx, by] = [await idOf(b.engine, OLD), await idOf(b.engine, NEW)]
    b.clock.now += 2000
    await b.engine.relations.remove(by, bx, 'supersedes')
    await b.engine.relations.add(by, bx, 'supersedes')
    await sync(a)
    await sync(b)
    await sync(a)
    expect(await edges(a.engine)).toEqual([`${NEW} → ${OLD} (supersedes)`])
    expect(await edges(b.engine)).toEqual([`${NEW} → ${OLD} (supersedes)`])
  })

  it('merges the same edge related on both devices into one, keeping the earliest createdAt', async () => {
    const { a, b, sync, quiet } = await pair()
    const x = await a.engine.remember(OLD)
    const y = await a.engine.remember(NEW)
    await sync(a)
    await sync(b)
    a.clock.now += 5000
    const early = await a.engine.relations.add(x.id, y.id, 'contradicts')
    b.clock.now += 9000
    await b.engine.relations.add(
      await idOf(b.engine, OLD),
      await idOf(b.engine, NEW),
      'contradicts',
    )
    // Convergence, not its round count: in some pass orderings the merge reaches a device later.
    await quiet()
    for (const engine of [a.engine, b.engine]) {
      const held = await engine.relations.of(await idOf(engine, OLD))
      expect(held.map((r) => [r.kind, r.createdAt])).toEqual([['contradicts', early.createdAt]])
    }
    const leaves = (await server.leaves(`edges-${dbs}`)).filter(
      (d) => String(d._id).startsWith('r:') && !d._deleted,
    )
    expect(leaves.length).toBe(1)
    // The server holds ciphertext only: no kind, no text, no local id.
    const body = JSON.stringify(leaves)
    for (const plain of ['contradicts', 'Lisbon', x.id, y.id]) expect(body).not.toContain(plain)
  })
})
