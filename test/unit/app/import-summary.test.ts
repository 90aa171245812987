import { describe, expect, it } from 'vitest'
import {
  failureLine,
  importedItems,
  progressLine,
  reportLine,
  undoLine,
} from '../../../src/app/import-summary.ts'
import { ImportFormatError, InvalidInputError } from '../../../src/core/errors.ts'
import type { Memory } from '../../../src/core/types.ts'
import type { ImportFromReport } from '../../../src/import/index.ts'

function row(fields: Partial<Memory> & { title?: string }): Memory {
  const { title, ...rest } = fields
  return {
    id: Math.random().toString(36),
    namespace: 'default',
    type: rest.pageId ? 'page' : 'fact',
    text: 'text',
    key: 'text',
    tags: [],
    aliases: [],
    source: 'chatgpt',
    trust: 'unverified',
    confidence: 0.5,
    tier: 'semantic',
    flags: [],
    createdAt: 0,
    updatedAt: 0,
    confirmedAt: 0,
    confirmations: 1,
    recallCount: 0,
    ...(title !== undefined && {
      page: { title, headingPath: [], start: 0, end: 4, overlap: 0, hash: 'h' },
    }),
    ...rest,
  }
}

const report: ImportFromReport = {
  importId: 'app-1',
  format: 'chatgpt',
  detected: 'ChatGPT export (conversations.json)',
  read: 2,
  created: 2,
  updated: 0,
  unchanged: 0,
  chunks: 7,
  flagged: 1,
  facts: 0,
  relations: 0,
  done: ['a', 'b'],
  skipped: [],
  bytes: 4141,
}

describe('importedItems', () => {
  it('groups an import’s chunks by page, in title order, counting flagged chunks and facts apart', () => {
    const items = importedItems([
      row({ pageId: 'p2', title: 'Sourdough starter', chunk: 0 }),
      row({ pageId: 'p1', title: 'Lisbon', chunk: 0, trust: 'untrusted' }),
      row({ pageId: 'p1', title: 'Lisbon', chunk: 1, trust: 'untrusted', flags: ['OVERRIDE'] }),
      row({ pageId: 'p1', title: 'Lisbon', chunk: 2, trust: 'untrusted', flags: ['OVERRIDE'] }),
      row({}),
    ])
    expect(items).toEqual({
      pages: [
        {
          pageId: 'p1',
          title: 'Lisbon',
          chunks: 3,
          flagged: 2,
          rules: ['OVERRIDE'],
          untrusted: true,
        },
        {
          pageId: 'p2',
          title: 'Sourdough starter',
          chunks: 1,
          flagged: 0,
          rules: [],
          untrusted: false,
        },
      ],
      facts: 1,
    })
  })

  it('names a chunk without its page details by the page id', () => {
    expect(importedItems([row({ pageId: 'chatgpt-1' })]).pages[0]?.title).toBe('chatgpt-1')
  })
})

describe('progressLine', () => {
  it('says what was read, written and how many bytes of the whole', () => {
    expect(progressLine({ read: 12, written: 10, bytes: 1_300_000 }, 4_200_000)).toBe(
      '12 read, 10 pages written, 1.2 MB of 4.0 MB',
    )
    expect(progressLine({ read: 1, written: 1, bytes: 0 })).toBe('1 read, 1 page written, 0 B')
  })
})

describe('reportLine', () => {
  it('gives what was found and the counts, flagged ones only when there are some', () => {
    expect(reportLine(report)).toBe(
      'ChatGPT export (conversations.json): 2 read; 2 new, 0 changed, 0 already stored; 7 chunks, 1 flagged.',
    )
    expect(
      reportLine({
        ...report,
        flagged: 0,
        relations: 3,
        skipped: [{ entry: 2, id: 'x', reason: 'too long' }],
      }),
    ).toBe(
      'ChatGPT export (conversations.json): 2 read; 2 new, 0 changed, 0 already stored; 7 chunks, 3 links, 1 left out.',
    )
  })
})

describe('failureLine', () => {
  it('gives an import error’s code and the entry it names, and that nothing was stored', () => {
    const error = new ImportFormatError(
      1,
      'element 1 of the export: not valid JSON (Unexpected end)',
    )
    expect(failureLine(error, 0)).toBe(
      'IMPORT_FORMAT at entry 1: element 1 of the export: not valid JSON (Unexpected end). Nothing was stored.',
    )
  })

  it('says the pages stored before the bad entry are kept until undone', () => {
    const error = new ImportFormatError(2, 'ChatGPT conversation 2 ("Sourdough"): no mapping')
    expect(failureLine(error, 1)).toBe(
      'IMPORT_FORMAT at entry 2: ChatGPT conversation 2 ("Sourdough"): no mapping. 1 page before it is stored; undo takes it out.',
    )
  })

  it('leaves out an entry of 0 (the file as a whole) and codes other typed errors', () => {
    expect(failureLine(new ImportFormatError(0, 'not a readable zip: bad header'), 0)).toBe(
      'IMPORT_FORMAT: not a readable zip: bad header. Nothing was stored.',
    )
    expect(failureLine(new InvalidInputError('BAD_OPTION', 'source', 'expected a file'), 0)).toBe(
      'BAD_OPTION: Expected a file. Nothing was stored.',
    )
    expect(failureLine(new Error('Expected a .json or .zip export, got nothing'), 0)).toBe(
      'Expected a .json or .zip export, got nothing. Nothing was stored.',
    )
  })
})

describe('undoLine', () => {
  it('says what the undo removed', () => {
    expect(undoLine({ pages: 2, facts: 0 })).toBe('Undone: 2 pages removed.')
    expect(undoLine({ pages: 1, facts: 3 })).toBe('Undone: 1 page and 3 facts removed.')
  })
})
