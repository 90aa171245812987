/**
 * A page write finds its stored page through the index set's page maps (issue 29), not a
 * catalogue scan: the maps must be there however the indexes came back, from the snapshot's
 * catalogue on a reopen as from a page written in this session.
 */
import { describe, expect, it } from 'vitest'
import { closingEngines, freshIdb } from '../../../helpers/engine.ts'
import { guide } from './page-fixture.ts'

const engine = closingEngines()

async function reopened(name: string) {
  const idb = freshIdb()
  const first = await engine({ name, ...idb })
  const named = await first.pages.remember({ title: 'Agent guide', text: guide(3), source: 'a.md' })
  const given = await first.pages.remember({ title: 'Ops', text: guide(2, 2, 7), pageId: 'ops' })
  const jsonl = await first.transfer.export()
  await first.close()
  const second = await engine({ name, ...idb })
  return { second, named, given, jsonl }
}

describe('finding a stored page after a reopen', () => {
  it('updates the page of the same title, repeats a twin, and knows a page id', async () => {
    const { second, named, given } = await reopened('find-page-reopened')
    expect((await second.inspect.stats()).open?.restored).toBe('snapshot')
    const updated = await second.pages.remember({
      title: 'Agent guide',
      text: `${guide(3)}\nOne more line.\n`,
      source: 'a.md',
    })
    expect(updated).toMatchObject({ pageId: named.pageId, status: 'updated' })
    const twin = await second.pages.remember({ title: 'Copy', text: guide(2, 2, 7) })
    expect(twin).toMatchObject({ pageId: given.pageId, status: 'unchanged' })
    const again = await second.pages.remember({ title: 'Ops', text: guide(2, 2, 7), pageId: 'ops' })
    expect(again).toMatchObject({ pageId: 'ops', status: 'unchanged' })
    expect((await second.pages.list()).length).toBe(2)
  })

  it('adds nothing when the export is imported back after the reopen', async () => {
    const { second, jsonl } = await reopened('import-reopened')
    const report = await second.transfer.import(jsonl)
    expect(report.created).toBe(0)
    expect((await second.pages.list()).length).toBe(2)
  })
})
