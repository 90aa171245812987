import { describe, expect, it } from 'vitest'
import { chunkPage, type PageChunk, reassemblePage } from '../../../../src/core/page/chunk.ts'
import { htmlToText } from '../../../../src/core/page/html-to-text.ts'
import { MAX_HEADING_LENGTH } from '../../../../src/core/page/markdown-blocks.ts'
import { validatePage } from '../../../../src/core/page/normalize-page.ts'
import { DEFAULT_PAGE_CHUNKING } from '../../../../src/core/page/page-options.ts'
import { graphemeBoundaries } from '../../../../src/core/page/sized-cuts.ts'
import { utf8Length } from '../../../../src/core/text.ts'
import { TEST_SEED, uniform } from '../../../helpers/random.ts'

// Issue 22.2: a long unbroken token froze rememberPage (16 KiB 0.33 s, 128 KiB 228 s, 2 MiB
// never), and so did runs that made the cut patterns backtrack, and deeply nested HTML. These
// pin correctness on such input at full size; the times are a benchmark figure
// (`scripts/bench-pages.ts --long-input`, docs/pages.md).

const MIB = 1024 * 1024
const { targetBytes, maxBytes, maxPageBytes } = DEFAULT_PAGE_CHUNKING

const fill = (unit: string, bytes: number) => unit.repeat(Math.floor(bytes / utf8Length(unit)))

/** Chunks the page as stored, and checks what every chunking guarantees. */
function chunked(text: string): { page: string; chunks: PageChunk[] } {
  const page = validatePage(text, 'text', maxPageBytes)
  const chunks = chunkPage(page)
  expect(reassemblePage(chunks)).toBe(page)
  for (const chunk of chunks) {
    expect(chunk.text).toBe(page.slice(chunk.start, chunk.end))
    expect(utf8Length(chunk.text)).toBeLessThanOrEqual(maxBytes)
    expect(chunk.text.trim()).not.toBe('')
  }
  return { page, chunks }
}

describe('chunkPage on long input', () => {
  it('cuts a 2 MiB unbroken token at the target size', () => {
    const { chunks } = chunked(fill('a', 2 * MIB - 1))
    expect(chunks.length).toBe(Math.ceil((2 * MIB - 1) / targetBytes))
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.length).toBe(targetBytes)
  })

  it('cuts a 2 MiB data URI and a 2 MiB URL within a sentence, both at the limit', () => {
    const uri = `See data:image/png;base64,${fill('iVBORw0KGgoAAAANSUhEUg+/', 2 * MIB - 100)} here.`
    const url = `Go to https://example.com/${fill('a/b?c=1&d=2', 2 * MIB - 100)} now.`
    for (const text of [uri, url]) {
      const { chunks } = chunked(text)
      expect(chunks.length).toBeGreaterThan((2 * MIB) / targetBytes - 2)
    }
  })

  it('reads long runs of full stops, brackets, backticks and inner spaces in one pass', () => {
    const runs = [
      fill('.', 2 * MIB),
      fill('[', 2 * MIB),
      `x ${fill('`', 2 * MIB - 4)}`,
      `a${fill(' ', 2 * MIB - 4)}b ${fill('\t', 2 * MIB)}c`,
      `x:${fill('a.', 2 * MIB - 4)}`,
      `[a](${fill('[a](', 2 * MIB - 8)}`,
    ]
    for (const text of runs) {
      const { page, chunks } = chunked(text)
      expect(chunks.length).toBeGreaterThanOrEqual(Math.floor(utf8Length(page) / maxBytes))
    }
  })

  it('keeps a heading path entry short however long the heading line', () => {
    const { chunks } = chunked(`# ${fill('*a ', 2 * MIB - 64)}\n\nBody text.`)
    expect(chunks.length).toBeGreaterThan(100)
    for (const chunk of chunks) {
      expect(chunk.headingPath).toHaveLength(1)
      expect(chunk.headingPath[0]!.length).toBeLessThanOrEqual(MAX_HEADING_LENGTH)
      expect(chunk.headingPath[0]!.startsWith('*a *a')).toBe(true)
    }
  })

  it('puts 400,000 headings with nothing under them in one section', () => {
    const { chunks } = chunked(fill('# h\n\n', 2 * MIB))
    expect(new Set(chunks.map((c) => c.headingPath.join('/')))).toEqual(new Set(['h']))
  })

  it('keeps emoji whole in a 2 MiB run of them, and cuts a cluster over the limit at code points', () => {
    const { page, chunks } = chunked(fill('👍🏽', 2 * MIB))
    for (const chunk of chunks) expect((chunk.start - chunk.overlap) % 4).toBe(0)
    expect(page.length % 4).toBe(0)
    const marks = `𝒜${'\u0301'.repeat(3 * maxBytes)} end`
    for (const chunk of chunked(marks).chunks) expect(chunk.text.isWellFormed()).toBe(true)
  })
})

describe('graphemeBoundaries', () => {
  it('finds the boundaries Intl.Segmenter finds over a whole seeded text, window by window', () => {
    const parts = ['a', ' ', '\n', '👍', '🏽', '\u200d', '👩', '🇫', '🇷', '\u0301', 'क', '्', 'ष']
    const more = ['한', '\u1100', '\u1161', '\u11a8', '日', 'の', '\u3099', '\u0600', '1', 'é']
    const pick = [...parts, ...more]
    const next = uniform(TEST_SEED)
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    for (let run = 0; run < 20; run++) {
      let text = ''
      const length = 1000 + Math.floor(next() * 9000)
      while (text.length < length) text += pick[Math.floor(next() * pick.length)]!
      const expected = [...segmenter.segment(text)].map((s) => s.index).filter((i) => i > 0)
      expect(graphemeBoundaries(text, { start: 0, end: text.length })).toEqual(expected)
    }
  })
})

describe('htmlToText on deep and long HTML', () => {
  it('reads 2 MiB of nested <div>s and keeps every word', () => {
    const words = Math.floor((2 * MIB) / '<div>word'.length)
    const text = htmlToText('<div>word'.repeat(words))
    expect(text.match(/word/g)).toHaveLength(words)
  })

  it('reads nested links around blocks and nested table cells, keeping every word', () => {
    const n = 50_000
    const links = htmlToText('<a href="https://x.dev/a"><div>word'.repeat(n))
    expect(links.match(/word/g)).toHaveLength(n)
    const cells = htmlToText('<table><tr><td>word'.repeat(n))
    expect(cells.match(/word/g)).toHaveLength(n)
  })

  it('writes at most 8 line prefixes however deep lists and quotes nest', () => {
    const lists = htmlToText('<ul><li>word'.repeat(2000))
    const quotes = htmlToText('<blockquote>word'.repeat(2000))
    for (const text of [lists, quotes]) {
      expect(text.match(/word/g)).toHaveLength(2000)
      const widest = Math.max(...text.split('\n').map((line) => line.length))
      expect(widest).toBeLessThanOrEqual(8 * 3 + 'word'.length)
    }
  })
})
