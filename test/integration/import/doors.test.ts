import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import type { MemoryClient } from '../../../src/client/memory-client.ts'
import { openMemoryInProcess } from '../../../src/client/open-memory-in-process.ts'
import { exportMarkdown, importFrom, undoImport } from '../../../src/import/index.ts'

const FIXTURES = join(import.meta.dirname, '../../fixtures/import')
const opened: MemoryClient[] = []
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((m) => m.close()))
})

async function client(): Promise<MemoryClient> {
  const memory = await openMemoryInProcess(
    {
      name: `import-door-${process.pid}-${opened.length}`,
      embedder: { kind: 'ngram' },
      tabSync: false,
    },
    { indexedDB: new IDBFactory(), IDBKeyRange },
  )
  opened.push(memory)
  return memory
}

describe('importFrom over the client door', () => {
  it('imports, re-imports nothing, exports, reads the export back into another memory and undoes an import', async () => {
    const memory = await client()
    // Plain Uint8Arrays (a Node Buffer's type allows a shared buffer, which a Blob refuses).
    const chatgpt = new Uint8Array(readFileSync(join(FIXTURES, 'chatgpt-conversations.json')))
    const claude = new Blob([
      new Uint8Array(readFileSync(join(FIXTURES, 'claude-conversations.json'))),
    ])
    expect(await importFrom(memory, chatgpt, { importId: 'a' })).toMatchObject({
      created: 2,
      format: 'chatgpt',
    })
    expect(await importFrom(memory, claude, { importId: 'b' })).toMatchObject({
      created: 1,
      format: 'claude',
    })
    expect(await importFrom(memory, chatgpt)).toMatchObject({ created: 0, unchanged: 2 })
    const hit = await memory.recall('nitrogen fertiliser', { mode: 'keyword' })
    expect(hit.hits[0]?.page?.title).toBe('Greenhouse tomatoes')

    const other = await client()
    const back = await importFrom(other, await exportMarkdown(memory))
    expect(back).toMatchObject({ format: 'markdown', created: 3 })
    expect((await other.pages.list()).map((p) => p.title).sort()).toEqual(
      (await memory.pages.list()).map((p) => p.title).sort(),
    )
    expect(await undoImport(memory, 'b')).toEqual({ pages: 1, facts: 0 })
    expect((await memory.pages.list()).map((p) => p.title).sort()).toEqual([
      'Sourdough starter',
      'Three days in Lisbon',
    ])
  })
})
