import { describe, expect, it } from 'vitest'
import { ImportFormatError } from '../../../../src/core/errors.ts'
import { DEFAULT_LIMITS } from '../../../../src/core/options.ts'
import { chunkPage, pageHash } from '../../../../src/core/page/index.ts'
import { PAGE_TYPE } from '../../../../src/engine/pages/page-rows.ts'
import {
  asChunk,
  gatherPages,
  type ImportedChunk,
} from '../../../../src/engine/transfer/chunk-lines.ts'
import { prepareWrite } from '../../../../src/engine/write/prepare.ts'
import { guide } from '../../../integration/engine/pages/page-fixture.ts'

/** The chunk lines an export would write for `page`, checked as an import checks each alone. */
function linesOf(page: string, pageId = 'P1'): ImportedChunk[] {
  const hash = pageHash(page)
  return chunkPage(page).map((c, i) => {
    const record = {
      text: c.text,
      pageId,
      chunk: c.index,
      page: { title: 'Guide', headingPath: c.headingPath, ...pick(c), hash },
    }
    const prepared = prepareWrite(c.text, { type: PAGE_TYPE, poison: 'flag' }, DEFAULT_LIMITS)
    return { line: i + 2, write: asChunk(prepared, record, 'flag') }
  })
}

const pick = ({ start, end, overlap }: { start: number; end: number; overlap: number }) => ({
  start,
  end,
  overlap,
})

describe('gatherPages', () => {
  it('gives back the page exactly from its chunk lines in any order, text kept verbatim', () => {
    const page = guide(5)
    const lines = linesOf(page)
    expect(lines.length).toBeGreaterThan(3)
    expect(lines.some((l) => l.write.text.endsWith('\n\n'))).toBe(true)
    const [gathered] = gatherPages([...lines].reverse())
    expect(gathered!.text).toBe(page)
    expect(gathered!.chunks.map((c) => c.write.restored.chunk)).toEqual(lines.map((_, i) => i))
  })

  it('refuses a page whose overlap no longer repeats the chunk before, naming its line', () => {
    const lines = linesOf(guide(5))
    const i = lines.findIndex((l) => l.write.restored.page.overlap > 0)
    expect(i).toBeGreaterThan(0)
    const spoilt = lines[i]!.write
    spoilt.text = `X${spoilt.text.slice(1)}`
    expect(() => gatherPages(lines)).toThrow(ImportFormatError)
    expect(() => gatherPages(lines)).toThrow(expect.objectContaining({ line: lines[i]!.line }))
  })

  it('refuses two pages under one id, and a repeated chunk', () => {
    const a = linesOf(guide(2), 'P1')
    const b = linesOf(guide(2, 3, 7), 'P1')
    expect(() => gatherPages([...a, ...b])).toThrow(ImportFormatError)
    expect(() => gatherPages([...a, a[0]!])).toThrow(/missing or repeated/)
  })
})
