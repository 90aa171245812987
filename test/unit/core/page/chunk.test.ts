import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../../src/core/errors.ts'
import { chunkPage, type PageChunk, reassemblePage } from '../../../../src/core/page/chunk.ts'
import { DEFAULT_PAGE_CHUNKING } from '../../../../src/core/page/page-options.ts'
import { utf8Length } from '../../../../src/core/text.ts'
import { body, buildDoc, type Doc, type DocSpec, docSpec } from './markdown-fixtures.ts'

const SEED = 20260215
const { targetBytes, maxBytes } = DEFAULT_PAGE_CHUNKING

const sentences = (count: number, prefix = 'Sentence') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i} says something about the agent.`).join(
    ' ',
  )

/** Where chunks are cut: each chunk's own start and, with an overlap, where its text starts. */
function boundaries(chunks: readonly PageChunk[]): number[] {
  return chunks.flatMap((c) => [c.start, c.start + c.overlap]).filter((b) => b > 0)
}

function sectionTexts(doc: Doc, chunks: readonly PageChunk[], except: number): string[][] {
  return doc.sections.map((section, i) =>
    i === except
      ? []
      : chunks
          .filter((c) => c.start + c.overlap >= section.start && c.start + c.overlap < section.end)
          .map((c) => c.text),
  )
}

describe('chunkPage', () => {
  it('keeps a short page whole, with its heading path', () => {
    const page = '# Install\n\nRun `npm i`.'
    expect(chunkPage(page)).toEqual([
      { index: 0, text: page, start: 0, end: page.length, overlap: 0, headingPath: ['Install'] },
    ])
  })

  it('starts a chunk at every heading and carries the path of enclosing headings', () => {
    const page =
      'Intro words.\n\n# Install\n\nSome text.\n\n## Linux\n\nUse apt.\n\n## macOS\n\nUse brew.\n\n# Usage\n\nRun it.'
    const chunks = chunkPage(page)
    expect(chunks.map((c) => c.headingPath)).toEqual([
      [],
      ['Install'],
      ['Install', 'Linux'],
      ['Install', 'macOS'],
      ['Usage'],
    ])
    expect(chunks.map((c) => c.text)).toEqual([
      'Intro words.\n\n',
      '# Install\n\nSome text.\n\n',
      '## Linux\n\nUse apt.\n\n',
      '## macOS\n\nUse brew.\n\n',
      '# Usage\n\nRun it.',
    ])
  })

  it('reads setext headings and strips inline marks from heading text', () => {
    const page =
      'Install **`auth_handler`**\n====\n\nText.\n\nOn [Linux](https://x.dev)\n---\n\nMore.'
    expect(chunkPage(page).map((c) => c.headingPath)).toEqual([
      ['Install auth_handler'],
      ['Install auth_handler', 'On Linux'],
    ])
  })

  it('does not take a comment in a code fence or a #hashtag for a heading', () => {
    const page =
      '# Setup\n\n```bash\n# install\nnpm ci\n```\n\n#hashtag line\n\n    # indented code'
    const chunks = chunkPage(page)
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.headingPath).toEqual(['Setup'])
  })

  it('keeps a heading with nothing under it with the heading that follows', () => {
    const chunks = chunkPage('# Install\n\n## Linux\n\nUse apt.')
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.headingPath).toEqual(['Install', 'Linux'])
  })

  it('cuts a long section at sentences, within the target, with the last sentence repeated', () => {
    const page = `# Notes\n\n${sentences(80)}`
    const chunks = chunkPage(page)
    expect(chunks.length).toBeGreaterThan(2)
    for (const chunk of chunks) {
      expect(utf8Length(chunk.text.slice(chunk.overlap))).toBeLessThanOrEqual(targetBytes)
      expect(chunk.text).toMatch(/^(?:# Notes\n\n)?Sentence \d+ .*agent\. ?$/s)
    }
    for (let i = 1; i < chunks.length; i++) {
      const overlap = chunks[i]!.text.slice(0, chunks[i]!.overlap)
      expect(overlap).toMatch(/^Sentence \d+ says something about the agent\. $/)
      expect(chunks[i - 1]!.text.endsWith(overlap)).toBe(true)
    }
    expect(reassemblePage(chunks)).toBe(page)
  })

  it('never overlaps across a heading', () => {
    const page = `# A\n\n${sentences(40)}\n\n# B\n\n${sentences(40)}`
    const chunks = chunkPage(page)
    const firstOfB = chunks.findIndex((c) => c.headingPath[0] === 'B')
    expect(firstOfB).toBeGreaterThan(0)
    expect(chunks[firstOfB]!.overlap).toBe(0)
    expect(chunks[firstOfB]!.text.startsWith('# B')).toBe(true)
  })

  it('turns overlap off with overlapBytes 0', () => {
    const chunks = chunkPage(sentences(80), { overlapBytes: 0 })
    expect(chunks.length).toBeGreaterThan(2)
    expect(chunks.every((c) => c.overlap === 0)).toBe(true)
  })

  it('keeps a code block larger than the target but within the maximum whole', () => {
    const code = `\`\`\`ts\n${'const value = compute(input). then(next)\n'.repeat(60)}\`\`\``
    expect(utf8Length(code)).toBeGreaterThan(targetBytes)
    expect(utf8Length(code)).toBeLessThan(maxBytes)
    const chunks = chunkPage(`# Code\n\nRun this:\n\n${code}\n\nDone.`)
    expect(chunks.some((c) => c.text.includes(code))).toBe(true)
    // The heading and the short lead-in stay with the block they introduce.
    expect(chunks[0]!.text.startsWith('# Code\n\nRun this:\n\n```ts')).toBe(true)
  })

  it('splits a code block larger than the maximum at line boundaries only', () => {
    const line = 'echo "step. Next step" --flag=value\n'
    const page = `\`\`\`bash\n${line.repeat(400)}\`\`\``
    const chunks = chunkPage(page)
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks) {
      expect(utf8Length(chunk.text)).toBeLessThanOrEqual(maxBytes)
      expect(chunk.overlap).toBe(0)
    }
    for (const at of boundaries(chunks)) expect(page[at - 1]).toBe('\n')
    expect(reassemblePage(chunks)).toBe(page)
  })

  it('cuts a list between items', () => {
    const items = Array.from({ length: 60 }, (_, i) => `- Item ${i} runs src/core/x.ts quickly`)
    const page = items.join('\n')
    const chunks = chunkPage(page)
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks) expect(chunk.text).toMatch(/^- Item \d+/)
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.text.slice(0, chunks[i]!.overlap)).toMatch(/^- Item \d+ runs .*\n$/)
    }
  })

  it('cuts Chinese and Japanese text after full stops', () => {
    const page = '東京は日本の首都です。記憶はブラウザに保存されます。'.repeat(40)
    const chunks = chunkPage(page)
    expect(chunks.length).toBeGreaterThan(1)
    for (const at of boundaries(chunks)) expect(page[at - 1]).toBe('。')
  })

  it('cuts a run with no spaces larger than the maximum between characters, emoji intact', () => {
    const emoji = '👨‍👩‍👧'
    const page = `${'x'.repeat(5000)}${emoji.repeat(300)}`
    const chunks = chunkPage(page)
    for (const chunk of chunks) {
      expect(utf8Length(chunk.text)).toBeLessThanOrEqual(maxBytes)
      expect(chunk.text.isWellFormed()).toBe(true)
    }
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    const graphemeStarts = new Set([...segmenter.segment(page)].map((s) => s.index))
    for (const at of boundaries(chunks)) expect(graphemeStarts.has(at)).toBe(true)
    expect(reassemblePage(chunks)).toBe(page)
  })

  it('keeps a URL longer than the target whole', () => {
    const url = `https://example.com/${'segment/'.repeat(200)}end`
    const page = `${sentences(20)} See ${url} for more. ${sentences(20)}`
    const chunks = chunkPage(page)
    expect(chunks.some((c) => c.text.includes(url))).toBe(true)
  })

  it('rejects a page with no text and a page over the size limit', () => {
    expect(() => chunkPage('  \n\n\t ')).toThrow(
      expect.objectContaining({ code: 'EMPTY_TEXT', field: 'text' }),
    )
    expect(() => chunkPage('é'.repeat(600), { maxPageBytes: 1000 })).toThrow(
      expect.objectContaining({ code: 'TEXT_TOO_LONG', field: 'text' }),
    )
    expect(() => chunkPage('a'.repeat(1000), { maxPageBytes: 1000 })).not.toThrow()
  })

  it('rejects options out of range, naming them', () => {
    expect(() => chunkPage('text', { targetBytes: 5000, maxBytes: 4096 })).toThrow(
      expect.objectContaining({ code: 'BAD_OPTION', field: 'options.targetBytes' }),
    )
    expect(() => chunkPage('text', { maxBytes: 9000 })).toThrow(InvalidInputError)
    expect(() => chunkPage('text', { overlapBytes: 700 })).toThrow(
      expect.objectContaining({ field: 'options.overlapBytes' }),
    )
    expect(() => chunkPage('text', { targetByte: 10 } as never)).toThrow(
      expect.objectContaining({ field: 'options.targetByte' }),
    )
  })
})

describe('chunkPage on random Markdown', () => {
  const runs = (numRuns: number) => ({ seed: SEED, numRuns })

  it('reassembles the page exactly, each chunk a slice of it', () => {
    fc.assert(
      fc.property(docSpec, (spec) => {
        const { text } = buildDoc(spec)
        const chunks = chunkPage(text)
        expect(reassemblePage(chunks)).toBe(text)
        expect(chunks[0]!.start).toBe(0)
        expect(chunks[chunks.length - 1]!.end).toBe(text.length)
        chunks.forEach((chunk, i) => {
          expect(chunk.index).toBe(i)
          expect(chunk.text).toBe(text.slice(chunk.start, chunk.end))
          if (i > 0) expect(chunk.start + chunk.overlap).toBe(chunks[i - 1]!.end)
        })
      }),
      runs(150),
    )
  })

  it('keeps every chunk within the maximum and gives it some text', () => {
    fc.assert(
      fc.property(docSpec, (spec) => {
        for (const chunk of chunkPage(buildDoc(spec).text)) {
          expect(utf8Length(chunk.text)).toBeLessThanOrEqual(maxBytes)
          expect(chunk.text.slice(chunk.overlap).trim()).not.toBe('')
        }
      }),
      runs(150),
    )
  })

  it('never cuts inside a code block, URL, identifier or inline span, nor mid-word', () => {
    fc.assert(
      fc.property(docSpec, (spec) => {
        const doc = buildDoc(spec)
        for (const at of boundaries(chunkPage(doc.text))) {
          const inside = doc.atoms.find((a) => a.start < at && at < a.end)
          expect(inside && doc.text.slice(inside.start, inside.end)).toBeUndefined()
          expect(doc.text[at - 1]).toMatch(/\s|[。！？]/)
        }
      }),
      runs(150),
    )
  })

  it('gives each chunk the heading path of its section', () => {
    fc.assert(
      fc.property(docSpec, (spec) => {
        const doc = buildDoc(spec)
        for (const chunk of chunkPage(doc.text)) {
          const own = chunk.start + chunk.overlap
          const section = doc.sections.find((s) => s.start <= own && own < s.end)!
          expect(chunk.headingPath).toEqual(section.path)
        }
      }),
      runs(150),
    )
  })

  it('leaves the chunks of other sections unchanged when one section is edited', () => {
    fc.assert(
      fc.property(docSpec, fc.nat(), body, (spec, pick, edited) => {
        const k = pick % spec.sections.length
        const changed: DocSpec = {
          ...spec,
          sections: spec.sections.map((s, i) => (i === k ? { ...s, body: edited } : s)),
        }
        const before = buildDoc(spec)
        const after = buildDoc(changed)
        const editedIndex = k + (spec.preamble.length > 0 ? 1 : 0)
        expect(sectionTexts(after, chunkPage(after.text), editedIndex)).toEqual(
          sectionTexts(before, chunkPage(before.text), editedIndex),
        )
      }),
      runs(100),
    )
  })

  it('is deterministic', () => {
    fc.assert(
      fc.property(docSpec, (spec) => {
        const { text } = buildDoc(spec)
        expect(chunkPage(text)).toEqual(chunkPage(text))
      }),
      runs(50),
    )
  })
})
