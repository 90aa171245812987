import { describe, expect, it } from 'vitest'
import type { Memory } from '../../../../src/core/types.ts'
import { closingEngines, freshIdb } from '../../../helpers/engine.ts'
import { guide } from '../pages/page-fixture.ts'

const engine = closingEngines()

/** Rewrites stored rows behind the engine's back, as a bug or a bad sync once did. */
async function tamper(idb: IDBFactory, name: string, change: (rows: Memory[]) => Memory[]) {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = idb.open(`engram:${name}`)
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  const store = () => db.transaction('memories', 'readwrite').objectStore('memories')
  const rows = await new Promise<Memory[]>((resolve) => {
    const all = store().getAll()
    all.onsuccess = () => resolve(all.result as Memory[])
  })
  const tx = db.transaction('memories', 'readwrite')
  for (const row of change(rows)) tx.objectStore('memories').put(row)
  await new Promise((resolve) => {
    tx.oncomplete = resolve
  })
  db.close()
}

describe('verify of pages', () => {
  // Issue 22.1: verify() said ok while a page no longer reassembled to what was stored.
  it('reports the pages whose chunks no longer make up the page stored', async () => {
    const idb = freshIdb()
    const name = `verify-pages-${Math.random().toString(36).slice(2)}`
    const e = await engine({ name, ...idb })
    const renumbered = await e.pages.remember({ title: 'One', text: guide(3, 3) })
    const rehashed = await e.pages.remember({ title: 'Two', text: guide(3, 3, 7) })
    const whole = await e.pages.remember({ title: 'Three', text: guide(3, 3, 11) })
    expect(renumbered.chunks).toBeGreaterThan(2)
    expect((await e.inspect.verify()).ok).toBe(true)
    await tamper(idb.indexedDB as IDBFactory, name, (rows) => {
      const one = rows.find((r) => r.pageId === renumbered.pageId && r.chunk === 1)!
      const two = rows.find((r) => r.pageId === rehashed.pageId && r.chunk === 0)!
      return [
        { ...one, chunk: 2 },
        { ...two, page: { ...two.page!, hash: '0123456789abcdef' } },
      ]
    })
    const report = await e.inspect.verify()
    expect(report.ok).toBe(false)
    expect(report.brokenPages).toEqual([renumbered.pageId, rehashed.pageId].sort())
    expect(report.brokenPages).not.toContain(whole.pageId)
    expect(report.missingFromKeyword).toEqual([])
  })
})
