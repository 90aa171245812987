/**
 * Another origin's view of a real engine (behind the memory host, errors as data): relations,
 * feedback and pages stay inside its namespace, and the owner's housekeeping and sync are refused.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NOT_OFFERED_TO_ORIGINS, scopeToOrigin } from '../../../src/connect/origin-scope.ts'
import { createMemoryHost } from '../../../src/host/memory-host.ts'
import type { MemoryHost, RemoteMemoryApi } from '../../../src/host/protocol.ts'

const ORIGIN = 'https://site.test'
const MINE = `origin:${ORIGIN}`
const DENIED = { name: 'AccessDeniedError', code: 'ACCESS_DENIED', origin: ORIGIN }
const NOT_FOUND = { name: 'MemoryNotFoundError', code: 'NOT_FOUND' }

let host: MemoryHost
let api: RemoteMemoryApi
let scoped: RemoteMemoryApi
let granted: string[]
let counter = 0

beforeEach(async () => {
  host = createMemoryHost({ indexedDB: new IDBFactory(), IDBKeyRange })
  api = await host.open({
    name: `scope-${++counter}`,
    embedder: { kind: 'none' },
    tabSync: false,
    autoReview: false,
  })
  granted = [MINE]
  scoped = scopeToOrigin(api, {
    origin: ORIGIN,
    namespaces: async () => {
      if (granted.length === 0) throw new Error('revoked')
      return granted
    },
  })
})
afterEach(async () => {
  await api.close()
  await host.dispose()
})

async function mineAndTheirs() {
  const a = await scoped.remember('The owner likes tea')
  const b = await scoped.remember('The owner likes green tea best')
  const theirs = await api.remember('The owner banks with Acme', { namespace: 'default' })
  return { a: a.id, b: b.id, theirs: theirs.id }
}

describe('relations for another origin', () => {
  it('relates two of its own memories', async () => {
    const { a, b } = await mineAndTheirs()
    expect(await scoped.relate(b, a, 'supersedes')).toMatchObject({ from: b, to: a })
    expect(await scoped.relations(a)).toHaveLength(1)
  })

  it('refuses an edge with either end outside its namespace, and one to a missing id alike', async () => {
    const { a, theirs } = await mineAndTheirs()
    for (const [from, to] of [
      [a, theirs],
      [theirs, a],
      [a, '01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ] as const) {
      await expect(scoped.relate(from, to, 'related_to')).rejects.toMatchObject(DENIED)
    }
    expect(await api.relations(theirs)).toEqual([])
  })

  it('cannot remove an edge that reaches outside, and does not see it', async () => {
    const { a, b, theirs } = await mineAndTheirs()
    await api.relate(a, theirs, 'contradicts')
    await api.relate(a, b, 'related_to')
    expect(await scoped.relations(a)).toMatchObject([{ from: a, to: b, kind: 'related_to' }])
    await expect(scoped.unrelate(a, theirs, 'contradicts')).rejects.toMatchObject(DENIED)
    await expect(scoped.relations(theirs)).rejects.toMatchObject(DENIED)
    expect(await api.relations(theirs)).toHaveLength(1)
  })

  it('gives feedback on its own memories only', async () => {
    const { a, theirs } = await mineAndTheirs()
    expect(await scoped.feedback(a, 'wrong')).toMatchObject({ id: a, needsReview: true })
    const before = await api.get(theirs)
    await expect(scoped.feedback(theirs, 'outdated')).rejects.toMatchObject(DENIED)
    expect(await api.get(theirs)).toEqual(before)
  })
})

describe('pages for another origin', () => {
  const page = {
    title: 'Tea notes',
    text: 'Sencha is steeped at 70 degrees.\n\nMatcha is whisked.',
  }

  it('stores a page in its own namespace and lists only its own', async () => {
    const stored = await scoped.rememberPage(page)
    await api.rememberPage({ ...page, title: 'Owner notes', namespace: 'default' })
    expect(await scoped.getPage(stored.pageId)).toMatchObject({ namespace: MINE })
    expect((await scoped.listPages()).map((p) => p.pageId)).toEqual([stored.pageId])
    await expect(scoped.listPages({ namespace: 'default' })).rejects.toMatchObject(DENIED)
    await expect(scoped.rememberPage({ ...page, namespace: 'default' })).rejects.toMatchObject(
      DENIED,
    )
  })

  it("reads another namespace's page as not found, and cannot forget or overwrite it", async () => {
    const theirs = await api.rememberPage({ ...page, namespace: 'default' })
    expect(await scoped.getPage(theirs.pageId)).toBeUndefined()
    await expect(scoped.forgetPage(theirs.pageId)).rejects.toMatchObject(NOT_FOUND)
    await expect(
      scoped.rememberPage({ ...page, text: 'Overwritten', pageId: theirs.pageId }),
    ).rejects.toMatchObject(NOT_FOUND)
    expect(await api.getPage(theirs.pageId)).toMatchObject({
      text: expect.stringContaining('Sencha'),
    })
  })
})

describe('what another origin is not offered', () => {
  it('refuses review, sync and the rest of the list, and none of them runs', async () => {
    const { a } = await mineAndTheirs()
    expect(NOT_OFFERED_TO_ORIGINS).toEqual(
      expect.arrayContaining(['review', 'sync', 'syncControl', 'lock', 'unlock']),
    )
    for (const method of NOT_OFFERED_TO_ORIGINS) {
      const call = (scoped[method] as (...args: unknown[]) => Promise<unknown>)()
      await expect(call, method).rejects.toMatchObject(DENIED)
    }
    expect(await api.get(a)).toBeDefined()
    expect(await api.recallLog()).toEqual([])
  })

  it('refuses every call once the user revokes the origin', async () => {
    const { a } = await mineAndTheirs()
    granted = []
    await expect(scoped.relations(a)).rejects.toMatchObject({ message: 'revoked' })
  })
})
