import { describe, expect, it } from 'vitest'
import { type PickedFile, pickedSource } from '../../../src/app/import-source.ts'

const picked = (path: string, text = 'x'): PickedFile => ({
  file: new File([text], path.split('/').pop()!, { lastModified: 1_700_000_000_000 }),
  path,
})

describe('pickedSource', () => {
  it('hands one export file over as the file itself, with its size', async () => {
    const one = picked('conversations.json', '[]')
    expect(await pickedSource([one])).toEqual({
      source: one.file,
      name: 'conversations.json',
      bytes: 2,
    })
  })

  it("reads a folder's notes without the folder's own name, leaving other files out", async () => {
    const got = await pickedSource([
      picked('vault/Lisbon.md', '# Lisbon'),
      picked('vault/Trips/Packing list.md', '- passport'),
      picked('vault/.obsidian/app.json', '{}'),
    ])
    expect(got).toEqual({
      name: 'vault/',
      notes: 2,
      source: [
        { path: 'Lisbon.md', text: '# Lisbon', modifiedAt: 1_700_000_000_000 },
        { path: 'Trips/Packing list.md', text: '- passport', modifiedAt: 1_700_000_000_000 },
      ],
    })
  })

  it('keeps the paths of notes picked from no one folder, and reads one note as a note', async () => {
    const got = await pickedSource([picked('a.md'), picked('b.markdown')])
    expect(got.name).toBe('notes')
    expect((got.source as { path: string }[]).map((f) => f.path)).toEqual(['a.md', 'b.markdown'])
    expect(await pickedSource([picked('Porto.md')])).toMatchObject({ name: 'Porto.md', notes: 1 })
  })

  it('says what it expected when there is nothing to import', async () => {
    await expect(pickedSource([])).rejects.toThrow(/got nothing$/)
    await expect(pickedSource([picked('a.json'), picked('b.zip')])).rejects.toThrow(
      'Expected one .json or .zip export, or Markdown notes (.md), got 2 files and no note',
    )
  })
})
