/**
 * Cuts a long page into chunks for `pages.remember`: by heading sections first, then blocks
 * (paragraphs, lists, code, tables), then list items, sentences, lines, spaces, and characters
 * only as a last resort, packed up to a target size with a one-sentence overlap.
 *
 * Each heading section is chunked on its own, from its own text alone, so an edit in one section
 * leaves every other section's chunks as they were: a changed page re-embeds only the chunks of
 * the sections it touched. Within a section, packing is greedy from the section's start, so an
 * edit shifts only the chunks from the edited one to the end of its section.
 */

import { InvalidInputError } from '../errors.ts'
import { type CutLevel, codeWithin, cutPoints, protectedSpans } from './cut-points.ts'
import { type BlockKind, type PageSection, parsePage, type Range } from './markdown-blocks.ts'
import { type PageChunkOptions, resolvePageChunking } from './page-options.ts'
import { sizedCuts } from './sized-cuts.ts'
import { bytesBetween } from './utf8.ts'

/**
 * One chunk of a page. Chunks come in page order and their own parts tile the page:
 * `chunks.map((c) => c.text.slice(c.overlap)).join('') === page` ({@link reassemblePage}).
 *
 * @example
 * chunkPage('# Install\n\nRun `npm i`.')
 * // => [{ index: 0, text: '# Install\n\nRun `npm i`.', start: 0, end: 23, overlap: 0,
 * //       headingPath: ['Install'] }]
 */
export interface PageChunk {
  /** 0-based position in the page. */
  index: number
  /** `page.slice(start, end)`: the overlap, then the chunk's own part. */
  text: string
  /** UTF-16 offset in the page where `text` starts (the overlap's start, if any). */
  start: number
  /** UTF-16 offset in the page where `text` ends; the next chunk's own part starts here. */
  end: number
  /**
   * UTF-16 units at the start of `text` repeated from the end of the previous chunk (0: none).
   * The own part is `text.slice(overlap)`, `page.slice(start + overlap, end)`. A chunk never
   * overlaps across a heading section, so each section's chunks stay its own.
   */
  overlap: number
  /** Texts of the headings the chunk sits under, outermost first; `[]` before the first. */
  headingPath: string[]
}

/** A unit chunks are packed from: a whole block, or a part of one too large to stay whole. */
interface Piece extends Range {
  bytes: number
  kind: BlockKind
}

type Limit = 'target' | 'max'
type Levels = readonly (readonly [CutLevel, Limit])[]

// Cut straight into parts of the target size (sizedCuts), not into a piece per character.
const LAST_RESORT: Levels = [['graphemes', 'max']]
const PROSE: Levels = [
  ['sentences', 'target'],
  ['lines', 'target'],
  ['words', 'target'],
  ...LAST_RESORT,
]
// Code and tables stay whole up to `maxBytes`; past it they are cut at lines, packed to target.
const VERBATIM: Levels = [['lines', 'max'], ['words', 'max'], ...LAST_RESORT]

/** How each kind of block is cut when too large, coarsest first, and the size that triggers it. */
const LEVELS: Readonly<Record<BlockKind, Levels>> = {
  paragraph: PROSE,
  quote: PROSE,
  break: PROSE,
  list: [['items', 'target'], ...PROSE],
  code: VERBATIM,
  table: VERBATIM,
  heading: [['words', 'max'], ...LAST_RESORT],
}

/** Kinds whose last sentence may start the next chunk. */
const OVERLAPPING: ReadonlySet<BlockKind> = new Set(['paragraph', 'quote', 'list', 'break'])

// A lead-in this small ("Run this:", a heading) joins the block after it even past the target.
const LEAD_IN_SHARE = 0.25

/**
 * Cuts a page into chunks ({@link PageChunk}). The text is chunked as given: pass it through
 * `validatePage` first to normalise it the way it will be stored. Deterministic: the same text
 * and options give the same chunks.
 *
 * Guarantees: chunks reassemble the page exactly; every chunk is at most `maxBytes` of UTF-8,
 * overlap included, and holds some non-whitespace text; a cut never falls inside a token (an
 * identifier such as `auth_handler`, a path, a flag, a version), a URL, a Markdown link, an
 * inline code span or a code block, except a code block, span or token larger than `maxBytes`,
 * which is cut at lines, then spaces, then characters.
 *
 * @throws InvalidInputError `BAD_OPTION` (an option out of range, or text not a string),
 *   `EMPTY_TEXT` (nothing but whitespace), `TEXT_TOO_LONG` (over `maxPageBytes`).
 * @example
 * chunkPage(longGuide).map((c) => [c.headingPath.join(' > '), c.text.length])
 * // => [['Install', 1043], ['Install > Linux', 988], ['Install > Linux', 412], …]
 */
export function chunkPage(text: string, options?: Partial<PageChunkOptions>): PageChunk[] {
  const limits = resolvePageChunking(options)
  checkPageText(text, limits.maxPageBytes)
  const { sections, code } = parsePage(text)
  const chunks: PageChunk[] = []
  for (const section of sections) {
    for (const range of chunkSection(text, section, code, limits)) {
      chunks.push({
        index: chunks.length,
        text: text.slice(range.start, range.end),
        start: range.start,
        end: range.end,
        overlap: range.own - range.start,
        headingPath: [...section.headingPath],
      })
    }
  }
  return chunks
}

/**
 * The page the chunks were cut from: each chunk's own part, in order of `index`.
 *
 * @example
 * const chunks = chunkPage(page)
 * reassemblePage(chunks) === page
 * // => true
 */
export function reassemblePage(chunks: readonly Pick<PageChunk, 'index' | 'text' | 'overlap'>[]) {
  return [...chunks]
    .sort((a, b) => a.index - b.index)
    .map((chunk) => chunk.text.slice(chunk.overlap))
    .join('')
}

function checkPageText(text: unknown, maxPageBytes: number): asserts text is string {
  if (typeof text !== 'string') {
    throw new InvalidInputError('BAD_OPTION', 'text', `expected a string, got ${typeof text}`)
  }
  if (text.trim() === '') {
    throw new InvalidInputError('EMPTY_TEXT', 'text', 'expected a page, got nothing but whitespace')
  }
  if (text.length > maxPageBytes || bytesBetween(text, 0, text.length) > maxPageBytes) {
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      'text',
      `expected a page of at most ${maxPageBytes} bytes of UTF-8, got more`,
    )
  }
}

/** A chunk's range before it is sliced: `[start, own)` is the overlap, `[own, end)` its own. */
interface ChunkRange extends Range {
  own: number
}

function chunkSection(
  page: string,
  section: PageSection,
  code: readonly Range[],
  limits: PageChunkOptions,
): ChunkRange[] {
  const pieces: Piece[] = []
  const { blocks } = section
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!
    const start = i === 0 ? section.start : block.start
    const end = i + 1 < blocks.length ? blocks[i + 1]!.start : section.end
    splitBlock(page, { start, end }, block.kind, 0, code, limits, pieces)
  }
  return withOverlap(page, pack(pieces, limits), code, limits)
}

/** Appends the pieces of one block range: whole when small enough, else cut level by level. */
function splitBlock(
  page: string,
  range: Range,
  kind: BlockKind,
  depth: number,
  code: readonly Range[],
  limits: PageChunkOptions,
  out: Piece[],
): void {
  const bytes = bytesBetween(page, range.start, range.end)
  const levels = LEVELS[kind]
  const step = levels[depth]
  if (!step || bytes <= (step[1] === 'target' ? limits.targetBytes : limits.maxBytes)) {
    out.push({ ...range, bytes, kind })
    return
  }
  if (step[0] === 'graphemes') {
    const spans = protectedSpans(page, range, 'graphemes', code, limits.maxBytes)
    let from = range.start
    for (const at of [
      ...sizedCuts(page, range, limits.targetBytes, limits.maxBytes, spans),
      range.end,
    ]) {
      out.push({ start: from, end: at, bytes: bytesBetween(page, from, at), kind })
      from = at
    }
    return
  }
  const cuts = cutPoints(page, range, step[0], code, limits.maxBytes)
  if (cuts.length === 0) {
    splitBlock(page, range, kind, depth + 1, code, limits, out)
    return
  }
  let from = range.start
  for (const at of [...cuts, range.end]) {
    splitBlock(page, { start: from, end: at }, kind, depth + 1, code, limits, out)
    from = at
  }
}

/** Greedy packing up to the target; see {@link LEAD_IN_SHARE} for the one exception. */
function pack(pieces: readonly Piece[], limits: PageChunkOptions): Piece[][] {
  const groups: Piece[][] = []
  let group: Piece[] = []
  let bytes = 0
  let headingsOnly = true
  for (const piece of pieces) {
    const total = bytes + piece.bytes
    const leadIn =
      total <= limits.maxBytes && (bytes < limits.targetBytes * LEAD_IN_SHARE || headingsOnly)
    if (group.length > 0 && total > limits.targetBytes && !leadIn) {
      groups.push(group)
      group = []
      bytes = 0
      headingsOnly = true
    }
    group.push(piece)
    bytes += piece.bytes
    headingsOnly &&= piece.kind === 'heading'
  }
  if (group.length > 0) groups.push(group)
  return groups
}

/**
 * Each group's range, the ones after the first starting with the last sentence of the group
 * before when it is short enough, not code, and not all of that group.
 */
function withOverlap(
  page: string,
  groups: readonly Piece[][],
  code: readonly Range[],
  limits: PageChunkOptions,
): ChunkRange[] {
  const ranges: ChunkRange[] = []
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!
    const own = group[0]!.start
    const end = group[group.length - 1]!.end
    let start = own
    const previous = i > 0 ? groups[i - 1]! : undefined
    if (previous && limits.overlapBytes > 0) {
      const from = lastSentence(page, previous[previous.length - 1]!, code, limits)
      const ownBytes = group.reduce((sum, p) => sum + p.bytes, 0)
      if (
        from !== undefined &&
        from > previous[0]!.start &&
        bytesBetween(page, from, own) <= limits.overlapBytes &&
        bytesBetween(page, from, own) + ownBytes <= limits.maxBytes
      )
        start = from
    }
    ranges.push({ start, own, end })
  }
  return ranges
}

/** Where the last sentence of a piece starts, or `undefined` when it may not be repeated. */
function lastSentence(
  page: string,
  piece: Piece,
  code: readonly Range[],
  limits: PageChunkOptions,
): number | undefined {
  if (!OVERLAPPING.has(piece.kind)) return undefined
  let from = piece.start
  // The last item of a list, then the last sentence of that item.
  for (const level of piece.kind === 'list'
    ? (['items', 'sentences'] as const)
    : (['sentences'] as const)) {
    const cuts = cutPoints(page, { start: from, end: piece.end }, level, code, limits.maxBytes)
    if (cuts.length > 0) from = cuts[cuts.length - 1]!
  }
  if (codeWithin(code, { start: from, end: from + 1 }).some((c) => c.start < from)) return undefined
  return from
}
