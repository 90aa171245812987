/**
 * Where a range of a page may be cut, finest last: list items, sentences, lines, spaces,
 * characters. Every cut point lies between two characters that no token spans: after whitespace,
 * after a line, before a list item, or (in Chinese and Japanese) after a full stop; and never
 * strictly inside a protected span: code, an inline code span, a Markdown link or a URL.
 */

import type { Range } from './markdown-blocks.ts'

/** How finely a range is cut, coarsest first. */
export type CutLevel = 'items' | 'sentences' | 'lines' | 'words' | 'graphemes' | 'codepoints'

const LIST_ITEM_LINE = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
// A full stop, ?, !, … (or the Devanagari and Arabic ones) with closing quotes or brackets,
// then whitespace, then something that does not continue a sentence (a lower-case letter does).
const SENTENCE_END = /[.!?…\u0964\u061F]+['"”’)\]»]*\s+(?=[^\s\p{Ll}])/gu
// Chinese and Japanese full stops need no space after them.
const CJK_SENTENCE_END = /[。！？]+[」』”’）]*\s*/gu
const ABBREVIATION = /(?:^|[\s(])(?:\p{L}|e\.g|i\.e|cf|vs|etc|mr|mrs|ms|dr|prof|st|no|fig|vol)\.$/iu
const WHITESPACE_RUN = /\s+/g
const INLINE_CODE = /(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g
const LINK = /!?\[[^\]\n]*\]\([^)\n]*\)/g
const URL = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:)[^\s<>]+|<[a-z][a-z0-9+.-]*:[^\s<>]*>/giu

let graphemes: Intl.Segmenter | undefined

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
  const spans = [...code, ...inlineSpans(page, range, level)].filter(
    (s) =>
      s.end > range.start &&
      s.start < range.end &&
      (s.start > range.start || s.end < range.end) &&
      bytesBetween(page, s.start, s.end) <= maxSpanBytes,
  )
  spans.sort((a, b) => a.start - b.start)
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
 * UTF-8 bytes of `page.slice(start, end)`, counted without slicing. A lone surrogate counts 3,
 * as `TextEncoder` writes it as U+FFFD.
 */
export function bytesBetween(page: string, start: number, end: number): number {
  let bytes = 0
  for (let i = start; i < end; i++) {
    const unit = page.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < end &&
      isLowSurrogate(page.charCodeAt(i + 1))
    ) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
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
      graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })
      for (const { index } of graphemes.segment(text)) cuts.push(start + index)
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
  const spans: Range[] = []
  for (const pattern of [INLINE_CODE, LINK, URL]) {
    for (const match of text.matchAll(pattern)) {
      spans.push({ start: start + match.index, end: start + match.index + match[0].length })
    }
  }
  return spans
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}
