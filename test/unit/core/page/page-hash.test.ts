import { describe, expect, it } from 'vitest'
import { pageHash } from '../../../../src/core/page/page-hash.ts'

describe('pageHash', () => {
  it('gives the same 16 hex digits for the same text and different ones for a small change', () => {
    const page = '# Guide\n\nRun it.'
    expect(pageHash(page)).toMatch(/^[0-9a-f]{16}$/)
    expect(pageHash(page)).toBe(pageHash(`${page}`))
    expect(pageHash(page)).not.toBe(pageHash('# Guide\n\nRun it!'))
    expect(pageHash('ab')).not.toBe(pageHash('ba'))
  })

  it('has no collisions among 20,000 similar texts', () => {
    const hashes = new Set(Array.from({ length: 20_000 }, (_, i) => pageHash(`Page ${i} of text`)))
    expect(hashes.size).toBe(20_000)
  })
})
