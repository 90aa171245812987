/**
 * The last-resort cuts of a page: a run with no space to cut at (a long token, a URL, a data
 * URI) is cut into parts of at most a given size, between grapheme clusters, in one pass.
 *
 * `Intl.Segmenter` is not linear in V8 on long strings (16 KiB of one letter segments in
 * ≈ 60 ms, 128 KiB in minutes) and costs microseconds a cluster besides, so boundaries between
 * two ASCII characters or two CJK ideographs are taken as they are, and only the stretches
 * between are segmented, in windows of {@link SEGMENT_WINDOW} code units: each window starts at
 * a boundary the one before found, and its last cluster, which the window's end may have cut
 * short, is read again at the start of the next.
 */

import type { Range } from './markdown-blocks.ts'
import { bytesBetween, isHighSurrogate, isLowSurrogate } from './utf8.ts'

/** Code units segmented at a time: short enough for the segmenter, long for any real cluster. */
export const SEGMENT_WINDOW = 2048

let segmenter: Intl.Segmenter | undefined

/**
 * The grapheme cluster boundaries strictly inside `range`, ascending. A cluster longer than a
 * window (hundreds of combining marks) is cut where the window ends, never inside a surrogate
 * pair.
 *
 * @example
 * graphemeBoundaries('a👍🏽b', { start: 0, end: 6 })
 * // => [1, 5]
 */
export function graphemeBoundaries(page: string, { start, end }: Range): number[] {
  const cuts: number[] = []
  let i = start + 1
  while (i < end) {
    if (isSimplePair(page, i)) {
      cuts.push(i)
      i++
      continue
    }
    // From the boundary before (i - 1) to the next pair of simple characters, a true boundary.
    let j = i + 1
    while (j < end && !isSimplePair(page, j)) j++
    segment(page, i - 1, j, cuts)
    if (j < end) cuts.push(j)
    i = j + 1
  }
  return cuts
}

/**
 * Whether `at` is a boundary whatever surrounds it: between two ASCII characters (but CR LF) or
 * two CJK ideographs, which no rule of UAX #29 joins. Most long runs are such text (a token, a
 * URL, base64), and the segmenter costs microseconds a cluster.
 */
function isSimplePair(page: string, at: number): boolean {
  const before = page.charCodeAt(at - 1)
  const after = page.charCodeAt(at)
  return isSimple(before) && isSimple(after) && !(before === 13 && after === 10)
}

function isSimple(unit: number): boolean {
  return unit < 0x80 || (unit >= 0x4e00 && unit <= 0x9fff)
}

/** Pushes the boundaries strictly inside `[start, end)`, both ends boundaries, window by window. */
function segment(page: string, start: number, end: number, cuts: number[]): void {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  let from = start
  while (from < end) {
    let to = Math.min(end, from + SEGMENT_WINDOW)
    // A boundary depends on the character after it: never end a window inside a pair.
    if (to < end && isLowSurrogate(page.charCodeAt(to))) to--
    let last = from
    for (const { index } of segmenter.segment(page.slice(from, to))) {
      if (index > 0) cuts.push(from + index)
      last = from + index
    }
    if (to === end) return
    if (last > from) {
      // The last cluster may run on past the window: read it again from its start.
      from = last
    } else {
      from = to
      cuts.push(from)
    }
  }
}

/**
 * Cut points that split `range` into parts of at most `targetBytes` of UTF-8 each, every part
 * as long as it can be, at grapheme cluster boundaries outside `spans` (sorted by start): a
 * span stays whole, in a part of its own when it is over the target (it is at most `maxBytes`).
 * A cluster over `maxBytes` (a letter under hundreds of marks) is cut at code points, never
 * inside a surrogate pair. Linear in the range.
 *
 * @example
 * sizedCuts('a'.repeat(500), { start: 0, end: 500 }, 200, 400)
 * // => [200, 400]
 */
export function sizedCuts(
  page: string,
  range: Range,
  targetBytes: number,
  maxBytes: number,
  spans: readonly Range[] = [],
): number[] {
  const cuts: number[] = []
  let partStart = range.start
  let partBytes = 0
  let from = range.start
  let next = 0
  let reach = -1
  for (const boundary of [...graphemeBoundaries(page, range), range.end]) {
    while (next < spans.length && spans[next]!.start < boundary)
      reach = Math.max(reach, spans[next++]!.end)
    if (boundary < range.end && reach > boundary) continue
    const bytes = bytesBetween(page, from, boundary)
    if (partBytes + bytes > targetBytes && from > partStart) {
      cuts.push(from)
      partStart = from
      partBytes = 0
    }
    if (bytes > maxBytes) {
      for (const at of codePointCuts(page, from, boundary, targetBytes)) cuts.push(at)
      partStart = cuts.length > 0 ? Math.max(from, cuts[cuts.length - 1]!) : from
      partBytes = bytesBetween(page, partStart, boundary)
    } else partBytes += bytes
    from = boundary
  }
  return cuts
}

/** Cuts at code points so that each part of `[start, end)` is at most `maxBytes`. */
function codePointCuts(page: string, start: number, end: number, maxBytes: number): number[] {
  const cuts: number[] = []
  let bytes = 0
  for (let i = start; i < end; ) {
    const unit = page.charCodeAt(i)
    const pair = isHighSurrogate(unit) && i + 1 < end && isLowSurrogate(page.charCodeAt(i + 1))
    const size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3
    if (bytes + size > maxBytes && i > start) {
      cuts.push(i)
      bytes = 0
    }
    bytes += size
    i += pair ? 2 : 1
  }
  return cuts
}
