/**
 * Where a range of a page may be cut, finest last: list items, sentences, lines, spaces,
 * characters. Every cut point lies between two characters that no token spans: after whitespace,
 * after a line, before a list item, or (in Chinese and Japanese) after a full stop; and never
 * strictly inside a protected span: code, an inline code span, a Markdown link or a URL.
 */

import type { Range } from './markdown-blocks.ts'
import { graphemeBoundaries } from './sized-cuts.ts'
import { fitsBytes, isLowSurrogate } from './utf8.ts'

export { bytesBetween } from './utf8.ts'

/** How finely a range is cut, coarsest first. */
export type CutLevel = 'items' | 'sentences' | 'lines' | 'words' | 'graphemes' | 'codepoints'

const LIST_ITEM_LINE = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
// A full stop, ?, !, … (or the Devanagari and Arabic ones) with closing quotes or brackets,
// then whitespace, then something that does not continue a sentence (a lower-case letter does).
// Every pattern here runs over text of any length: each may start only where its run starts
// (the lookbehinds), so a long run of dots, letters or brackets is read once, not once per
// character (which was quadratic).
const SENTENCE_END = /(?<![.!?…\u0964\u061F])[.!?…\u0964\u061F]+['"”’)\]»]*\s+(?=[^\s\p{Ll}])/gu
// Chinese and Japanese full stops need no space after them.
const CJK_SENTENCE_END = /[。！？]+[」』”’）]*\s*/gu
const ABBREVIATION = /(?:^|[\s(])(?:\p{L}|e\.g|i\.e|cf|vs|etc|mr|mrs|ms|dr|prof|st|no|fig|vol)\.$/iu
const WHITESPACE_RUN = /\s+/g
const BACKTICKS = /`+/g
// Link text without brackets, an address with at most one pair of parentheses.
const LINK = /!?\[[^[\]\n]*\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)?\)/g
const URL =
  /(?:(?<![\w+.-])[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:)[^\s<>]+|<[a-z][a-z0-9+.-]*:[^\s<>]*>/giu

/**
 * The cut points strictly inside `range` at one level, ascending. No cut falls strictly inside
 * a code block of `code` or an inline span (inline code, a Markdown link, a URL) of the range,
 * unless that span is larger than `maxSpanBytes` (it must be cut to fit a chunk) or holds the
 * whole range (the range is being cut because it is too large).
 *
 * @example
 * cutPoints('One. Two `a. b` three. Four', { start: 0, end: 27 }, 'sentences', [], 4096)
 * // => [5, 23]
 */
export function cutPoints(
  page: string,
  range: Range,
  level: CutLevel,
  code: readonly Range[],
  maxSpanBytes: number,
): number[] {
  const spans = protectedSpans(page, range, level, code, maxSpanBytes)
  const cuts: number[] = []
  let next = 0
  let reach = -1
  // Cuts ascend, so one sweep tracks how far the spans opened before each cut reach.
  for (const at of rawCuts(page, range, level)) {
    while (next < spans.length && spans[next]!.start < at)
      reach = Math.max(reach, spans[next++]!.end)
    if (at > range.start && at < range.end && reach <= at) cuts.push(at)
  }
  return cuts
}

/**
 * The spans no cut of `level` may enter inside `range`, sorted by start: code blocks of `code`
 * and the range's inline spans that meet it, leaving out a span that holds the whole range and
 * one larger than `maxSpanBytes`.
 */
export function protectedSpans(
  page: string,
  range: Range,
  level: CutLevel,
  code: readonly Range[],
  maxSpanBytes: number,
): Range[] {
  const spans = [...codeWithin(code, range), ...inlineSpans(page, range, level)].filter(
    (s) =>
      s.end > range.start &&
      s.start < range.end &&
      (s.start > range.start || s.end < range.end) &&
      fitsBytes(page, s.start, s.end, maxSpanBytes),
  )
  return spans.sort((x, y) => x.start - y.start)
}

/**
 * The code ranges of `code` (sorted, apart, as `parsePage` finds them) that meet `range`, found
 * by bisection: a page may hold thousands, and every cut of every block asks.
 */
export function codeWithin(code: readonly Range[], range: Range): Range[] {
  let low = 0
  let high = code.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (code[mid]!.end <= range.start) low = mid + 1
    else high = mid
  }
  const met: Range[] = []
  for (let i = low; i < code.length && code[i]!.start < range.end; i++) met.push(code[i]!)
  return met
}

function rawCuts(page: string, { start, end }: Range, level: CutLevel): number[] {
  const text = page.slice(start, end)
  const cuts: number[] = []
  switch (level) {
    case 'items': {
      let at = text.indexOf('\n')
      while (at !== -1) {
        const next = text.indexOf('\n', at + 1)
        if (LIST_ITEM_LINE.test(text.slice(at + 1, next === -1 ? text.length : next)))
          cuts.push(start + at + 1)
        at = next
      }
      break
    }
    case 'sentences': {
      for (const match of text.matchAll(SENTENCE_END)) {
        if (!ABBREVIATION.test(text.slice(Math.max(0, match.index - 8), match.index + 1)))
          cuts.push(start + match.index + match[0].length)
      }
      for (const match of text.matchAll(CJK_SENTENCE_END))
        cuts.push(start + match.index + match[0].length)
      cuts.sort((a, b) => a - b)
      break
    }
    case 'lines': {
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
        while (text[at + 1] === '\n') at++
        cuts.push(start + at + 1)
      }
      break
    }
    case 'words': {
      for (const match of text.matchAll(WHITESPACE_RUN))
        cuts.push(start + match.index + match[0].length)
      break
    }
    case 'graphemes': {
      cuts.push(...graphemeBoundaries(page, { start, end }))
      break
    }
    case 'codepoints': {
      for (let at = 1; at < text.length; at++) {
        if (!isLowSurrogate(text.charCodeAt(at))) cuts.push(start + at)
      }
      break
    }
  }
  return cuts
}

/** Inline spans that sentence and word cuts must not enter; character-level cuts may. */
function inlineSpans(page: string, { start, end }: Range, level: CutLevel): Range[] {
  if (level === 'codepoints') return []
  const text = page.slice(start, end)
  if (!text.includes('`') && !text.includes('[') && !text.includes(':') && !text.includes('www.'))
    return []
  const spans = codeSpans(text, start)
  for (const pattern of [LINK, URL]) {
    for (const match of text.matchAll(pattern)) {
      spans.push({ start: start + match.index, end: start + match.index + match[0].length })
    }
  }
  return spans
}

/**
 * Inline code spans as CommonMark reads them: a run of backticks opens one, closed by the next
 * run of the same length; a run no later run matches is literal. One pass over the runs, each
 * length's runs in a queue, rather than a search from every backtick.
 */
function codeSpans(text: string, offset: number): Range[] {
  if (!text.includes('`')) return []
  const runs: Range[] = []
  const byLength = new Map<number, number[]>()
  for (const match of text.matchAll(BACKTICKS)) {
    const length = match[0].length
    const queue = byLength.get(length)
    if (queue) queue.push(runs.length)
    else byLength.set(length, [runs.length])
    runs.push({ start: match.index, end: match.index + length })
  }
  const spans: Range[] = []
  const next = new Map<number, number>()
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!
    const length = run.end - run.start
    const queue = byLength.get(length)!
    let at = next.get(length) ?? 0
    while (at < queue.length && queue[at]! <= i) at++
    next.set(length, at)
    if (at === queue.length) continue
    const close = queue[at]!
    next.set(length, at + 1)
    spans.push({ start: offset + run.start, end: offset + runs[close]!.end })
    i = close
  }
  return spans
}
