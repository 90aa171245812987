/**
 * Just enough Markdown block structure for chunking: ATX and setext headings, fenced and indented
 * code, lists, block quotes, pipe tables, thematic breaks and paragraphs, each as a range of the
 * page, and the page cut into heading sections. Inline syntax is left alone, except that heading
 * text loses its emphasis, code and link marks.
 *
 * Tolerant rather than strict CommonMark: a fence is recognised at any indentation inside a list
 * or quote, and an unclosed fence runs to the end of the page (as in CommonMark), so a `# comment`
 * in a shell snippet is never a heading.
 */

import { isLowSurrogate } from './utf8.ts'

/** What a block is; decides where it may be cut (see chunk.ts). */
export type BlockKind = 'heading' | 'paragraph' | 'list' | 'quote' | 'table' | 'code' | 'break'

/** A block: `[start, end)` runs from its first character to the end of its last line. */
export interface Block {
  kind: BlockKind
  start: number
  end: number
}

/** A page range, `[start, end)` in UTF-16 code units. */
export interface Range {
  start: number
  end: number
}

/**
 * A heading section: a heading (or the text before the first heading) and everything up to the
 * next heading of any level. Sections tile the page: each ends where the next starts. A heading
 * with nothing under it before the next heading belongs to that next heading's section.
 */
export interface PageSection extends Range {
  /** Texts of the enclosing headings, outermost first, e.g. `['Install', 'Linux']`. */
  headingPath: string[]
  /** The blocks of the section, in order. */
  blocks: Block[]
}

/** The blocks of a page and the ranges of all its fenced code, nested ones included. */
export interface PageStructure {
  sections: PageSection[]
  /** Every fenced or indented code block, also those inside lists and quotes. */
  code: Range[]
}

interface Line {
  start: number
  end: number
  text: string
}

const BLANK = /^[ \t]*$/
const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/
// The opening of an ATX heading; the rest of the line is read by `atxHeading`, not by a lazy
// pattern, which was quadratic in a long run of spaces.
const ATX_OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/
const CLOSING_HASHES = /(?<![^ \t])#+$/
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/
const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/
const QUOTE = /^ {0,3}>/
const QUOTE_PREFIX = /^(?:[ \t]*>[ \t]?)+/
const INDENTED = /^(?: {4}|\t)/
const DELIMITER_CELL = /^:?-+:?$/

/**
 * Parses the blocks of a page and cuts it into heading sections.
 *
 * @example
 * parsePage('Intro\n\n# Install\n\n## Linux\n\nRun it.').sections.map((s) => s.headingPath)
 * // => [[], ['Install', 'Linux']]
 */
export function parsePage(page: string): PageStructure {
  const lines = splitLines(page)
  const code: Range[] = []
  const blocks = scanBlocks(lines, code)
  return { sections: toSections(page, blocks), code }
}

function splitLines(page: string): Line[] {
  const lines: Line[] = []
  let start = 0
  for (;;) {
    const newline = page.indexOf('\n', start)
    const end = newline === -1 ? page.length : newline
    lines.push({ start, end, text: page.slice(start, end) })
    if (newline === -1) return lines
    start = newline + 1
  }
}

interface HeadingBlock extends Block {
  level: number
  title: string
}

type ScannedBlock = Block | HeadingBlock

function scanBlocks(lines: Line[], code: Range[]): ScannedBlock[] {
  const blocks: ScannedBlock[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]!
    const text = line.text
    if (BLANK.test(text)) {
      i++
      continue
    }
    let last: number
    let kind: BlockKind
    const atx = atxHeading(text)
    if (isTopFence(text)) {
      last = fenceEnd(lines, i, stripNothing)
      kind = 'code'
      code.push({ start: line.start, end: lines[last]!.end })
    } else if (atx) {
      blocks.push(heading(line.start, line.end, atx.level, atx.raw))
      i++
      continue
    } else if (THEMATIC.test(text)) {
      last = i
      kind = 'break'
    } else if (QUOTE.test(text)) {
      last = quoteEnd(lines, i, code)
      kind = 'quote'
    } else if (LIST_ITEM.test(text)) {
      last = listEnd(lines, i, code)
      kind = 'list'
    } else if (INDENTED.test(text)) {
      last = indentedEnd(lines, i)
      kind = 'code'
      code.push({ start: line.start, end: lines[last]!.end })
    } else if (isTableStart(lines, i)) {
      last = tableEnd(lines, i)
      kind = 'table'
    } else {
      const end = paragraphEnd(lines, i)
      const underline = end + 1 < lines.length ? SETEXT.exec(lines[end + 1]!.text) : null
      if (underline) {
        const title = lines
          .slice(i, end + 1)
          .map((l) => l.text.trim())
          .join(' ')
        const level = underline[1]!.startsWith('=') ? 1 : 2
        blocks.push(heading(line.start, lines[end + 1]!.end, level, title))
        i = end + 2
        continue
      }
      last = end
      kind = 'paragraph'
    }
    blocks.push({ kind, start: line.start, end: lines[last]!.end })
    i = last + 1
  }
  return blocks
}

/**
 * An ATX heading line's level and raw text (closing `#`s and the spaces around it taken off),
 * or null. Linear in the line: ATX_OPEN reads at most 9 characters, and the rest is trimmed.
 */
function atxHeading(text: string): { level: number; raw: string } | null {
  const open = ATX_OPEN.exec(text)
  if (!open) return null
  let raw = text.slice(open[0].length).trim()
  // `# Title ##` closes with hashes after a space; `# C#` keeps its own.
  if (CLOSING_HASHES.test(raw)) raw = raw.replace(CLOSING_HASHES, '').trimEnd()
  return { level: open[1]!.length, raw }
}

function heading(start: number, end: number, level: number, raw: string): HeadingBlock {
  return { kind: 'heading', start, end, level, title: headingText(raw) }
}

/** A fence opening a top-level block: at most 3 spaces in (4 make an indented code block). */
function isTopFence(text: string): boolean {
  const fence = FENCE.exec(text)
  return fence !== null && !fence[1]!.includes('\t') && fence[1]!.length <= 3 && isOpener(fence)
}

/** Backtick fences may not carry a backtick in their info string. */
function isOpener(fence: RegExpExecArray): boolean {
  return !(fence[2]!.startsWith('`') && fence[3]!.includes('`'))
}

const stripNothing = (text: string) => text

/** The last line of the fence opened at line `i` (the page's last line when it never closes). */
function fenceEnd(lines: Line[], i: number, strip: (text: string) => string): number {
  const open = FENCE.exec(strip(lines[i]!.text))!
  const mark = open[2]!
  for (let j = i + 1; j < lines.length; j++) {
    const close = FENCE.exec(strip(lines[j]!.text))
    if (
      close &&
      close[2]![0] === mark[0] &&
      close[2]!.length >= mark.length &&
      BLANK.test(close[3]!)
    )
      return j
  }
  return lines.length - 1
}

/** Whether a line starts a block that ends a list or a paragraph without a blank line. */
function interrupts(text: string): boolean {
  return ATX_OPEN.test(text) || isTopFence(text) || THEMATIC.test(text) || QUOTE.test(text)
}

function quoteEnd(lines: Line[], i: number, code: Range[]): number {
  const strip = (text: string) => text.replace(QUOTE_PREFIX, '')
  let last = i
  for (let j = i; j < lines.length; j++) {
    const text = lines[j]!.text
    if (BLANK.test(text)) break
    if (!QUOTE.test(text) && interrupts(text)) break
    const fence = FENCE.exec(strip(text))
    if (QUOTE.test(text) && fence && isOpener(fence)) {
      const end = fenceEnd(lines, j, strip)
      code.push({ start: lines[j]!.start, end: lines[end]!.end })
      j = end
    }
    last = j
  }
  return last
}

function listEnd(lines: Line[], i: number, code: Range[]): number {
  let last = i
  for (let j = i; j < lines.length; j++) {
    const text = lines[j]!.text
    if (BLANK.test(text)) continue
    const afterBlank = j > last + 1
    const indent = indentOf(text)
    if (j > i && indent < 2 && (THEMATIC.test(text) || (interrupts(text) && !LIST_ITEM.test(text))))
      break
    if (!LIST_ITEM.test(text) && indent < 2 && afterBlank) break
    const fence = FENCE.exec(text)
    if (fence && isOpener(fence)) {
      const end = fenceEnd(lines, j, stripNothing)
      code.push({ start: lines[j]!.start, end: lines[end]!.end })
      j = end
    }
    last = j
  }
  return last
}

function indentOf(text: string): number {
  let width = 0
  for (const char of text) {
    if (char === ' ') width++
    else if (char === '\t') width += 4 - (width % 4)
    else break
  }
  return width
}

function indentedEnd(lines: Line[], i: number): number {
  let last = i
  for (let j = i + 1; j < lines.length; j++) {
    const text = lines[j]!.text
    if (BLANK.test(text)) continue
    if (!INDENTED.test(text)) break
    last = j
  }
  return last
}

function isTableStart(lines: Line[], i: number): boolean {
  const next = lines[i + 1]
  return (
    next !== undefined &&
    lines[i]!.text.includes('|') &&
    next.text.includes('|') &&
    isDelimiterRow(next.text)
  )
}

/** A pipe table's delimiter row, `| --- | :-: |`: cells of dashes, colons at their ends. */
function isDelimiterRow(text: string): boolean {
  let row = text.trim()
  if (row.startsWith('|')) row = row.slice(1)
  if (row.endsWith('|')) row = row.slice(0, -1)
  return row.split('|').every((cell) => DELIMITER_CELL.test(cell.trim()))
}

function tableEnd(lines: Line[], i: number): number {
  let last = i + 1
  while (last + 1 < lines.length) {
    const text = lines[last + 1]!.text
    if (BLANK.test(text) || !text.includes('|') || interrupts(text)) break
    last++
  }
  return last
}

/** The last line of the paragraph starting at `i`, before a setext underline if one follows. */
function paragraphEnd(lines: Line[], i: number): number {
  let last = i
  for (let j = i + 1; j < lines.length; j++) {
    const text = lines[j]!.text
    if (BLANK.test(text) || SETEXT.test(text)) break
    if (interrupts(text) || LIST_ITEM.test(text) || isTableStart(lines, j)) break
    last = j
  }
  return last
}

function toSections(page: string, blocks: ScannedBlock[]): PageSection[] {
  const sections: PageSection[] = []
  const path: { level: number; title: string }[] = []
  let current: PageSection = { start: 0, end: page.length, headingPath: [], blocks: [] }
  let headingsOnly = true
  for (const block of blocks) {
    if ('level' in block) {
      // A heading alone (nothing under it yet) stays with the heading that follows.
      if (!headingsOnly) {
        current.end = block.start
        sections.push(current)
        current = { start: block.start, end: page.length, headingPath: [], blocks: [] }
        headingsOnly = true
      }
      while (path.length > 0 && path[path.length - 1]!.level >= block.level) path.pop()
      path.push({ level: block.level, title: block.title })
      current.headingPath = path.map((h) => h.title)
    }
    current.blocks.push({ kind: block.kind, start: block.start, end: block.end })
    headingsOnly &&= block.kind === 'heading'
  }
  if (current.blocks.length > 0 || sections.length === 0) sections.push(current)
  return sections
}

const LINK = /!?\[([^[\]]*)\]\([^()]*(?:\([^()]*\)[^()]*)?\)/g
const EMPHASIS =
  /(\*\*|\*|~~)(?=\S)(.+?)(?<=\S)\1|(?<![\p{L}\p{N}])(__|_)(?=\S)(.+?)(?<=\S)\3(?![\p{L}\p{N}])/gu
const WHITESPACE = /\s+/g

/** The longest heading text a heading path holds, in UTF-16 code units; longer ones are cut. */
export const MAX_HEADING_LENGTH = 256

// Only this much of a heading line is read for its text: the path holds at most
// MAX_HEADING_LENGTH, and the emphasis pattern must not meet a line of any length.
const HEADING_READ = 4 * MAX_HEADING_LENGTH

/**
 * A heading's text without its inline marks: link and image text kept, code backticks and
 * emphasis removed (underscores inside identifiers stay), whitespace collapsed, cut to
 * {@link MAX_HEADING_LENGTH} (every chunk of the section carries it in its heading path).
 *
 * @example
 * headingText('Configure **`auth_handler`** with [the CLI](https://x.dev) ')
 * // => 'Configure auth_handler with the CLI'
 */
export function headingText(raw: string): string {
  const text = raw
    .slice(0, HEADING_READ)
    .replace(LINK, '$1')
    .replaceAll('`', '')
    .replace(EMPHASIS, (_, _a, starred, _b, underlined) => starred ?? underlined)
    .replace(WHITESPACE, ' ')
    .trim()
  if (text.length <= MAX_HEADING_LENGTH) return text
  const cut = isLowSurrogate(text.charCodeAt(MAX_HEADING_LENGTH))
    ? MAX_HEADING_LENGTH - 1
    : MAX_HEADING_LENGTH
  return text.slice(0, cut).trimEnd()
}
