import { describe, expect, it } from 'vitest'
import { importFrom, markdownFiles } from '../../../src/import/index.ts'
import { closingEngines } from '../../helpers/engine.ts'

const open = closingEngines()

/** The export's note, edited: the brakes advice gains a step. */
const withPads = <F extends { text: string }>(files: F[]) =>
  files.map((f) => ({
    ...f,
    text: f.text.replace('Adjust the cable first.', 'Adjust the cable first, then the pads.'),
  }))

describe('importFrom across namespaces', () => {
  it('re-importing a changed Markdown export into a second namespace replaces its page there, not piling up copies', async () => {
    const memory = await open()
    await memory.pages.remember({
      title: 'Bike repair',
      text: '# Brakes\n\nAdjust the cable first.',
    })
    const files = await markdownFiles(memory, { jsonl: false })
    const first = await importFrom(memory, files, { format: 'markdown', namespace: 'copy' })
    expect(first).toMatchObject({ created: 1, updated: 0 })
    const again = await importFrom(memory, files, { format: 'markdown', namespace: 'copy' })
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1 })
    const changed = withPads(files)
    const newer = await importFrom(memory, changed, { format: 'markdown', namespace: 'copy' })
    expect(newer).toMatchObject({ created: 0, updated: 1 })
    const copies = await memory.pages.list({ namespace: 'copy' })
    expect(copies).toHaveLength(1)
    expect((await memory.pages.get(copies[0]!.pageId))!.text).toContain('then the pads.')
    // The first namespace keeps its page, under its own id.
    const [original] = await memory.pages.list()
    expect(original!.pageId).not.toBe(copies[0]!.pageId)
    expect((await memory.pages.get(original!.pageId))!.text).not.toContain('then the pads.')
  })

  it('finds its copy again under the derived id once the original page is forgotten', async () => {
    const memory = await open()
    await memory.pages.remember({
      title: 'Bike repair',
      text: '# Brakes\n\nAdjust the cable first.',
    })
    const files = await markdownFiles(memory, { jsonl: false })
    await importFrom(memory, files, { format: 'markdown', namespace: 'copy' })
    const [original] = await memory.pages.list()
    await memory.pages.forget(original!.pageId)
    const changed = withPads(files)
    const newer = await importFrom(memory, changed, { format: 'markdown', namespace: 'copy' })
    expect(newer).toMatchObject({ created: 0, updated: 1 })
    const copies = await memory.pages.list({ namespace: 'copy' })
    expect(copies).toHaveLength(1)
    expect((await memory.pages.get(copies[0]!.pageId))!.text).toContain('then the pads.')
  })
})
