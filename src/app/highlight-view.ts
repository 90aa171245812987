/** Recall's highlight ranges as text: plain runs and `<mark>` runs, never parsed as markup. */

/** `[start, end)` UTF-16 offsets, as `RecallHit.highlights` gives them. */
export type HighlightRange = readonly [start: number, end: number]

/** A run of the text, marked when a highlight covers it. */
export interface TextSegment {
  text: string
  marked: boolean
}

/**
 * Splits `text` into plain and marked runs. Ranges are clipped to the text, sorted, and
 * overlapping or touching ones merged, so a stale or shifted range cannot throw or repeat text;
 * joining the runs always gives `text` back.
 *
 * @example
 * highlightSegments('call auth_handler now', [[5, 17]])
 * // => [{ text: 'call ', marked: false }, { text: 'auth_handler', marked: true },
 * //     { text: ' now', marked: false }]
 */
export function highlightSegments(
  text: string,
  ranges: readonly HighlightRange[] = [],
): TextSegment[] {
  const segments: TextSegment[] = []
  let at = 0
  for (const [start, end] of mergeRanges(ranges, text.length)) {
    if (start > at) segments.push({ text: text.slice(at, start), marked: false })
    segments.push({ text: text.slice(start, end), marked: true })
    at = end
  }
  if (at < text.length || segments.length === 0)
    segments.push({ text: text.slice(at), marked: false })
  return segments
}

/** Ranges inside `[0, length)`, non-empty, sorted, with overlapping and touching ones joined. */
export function mergeRanges(ranges: readonly HighlightRange[], length: number): [number, number][] {
  const clipped = ranges
    .map(([start, end]): [number, number] => [
      Math.max(0, Math.min(length, Math.trunc(start))),
      Math.max(0, Math.min(length, Math.trunc(end))),
    ])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: [number, number][] = []
  for (const range of clipped) {
    const last = merged[merged.length - 1]
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push(range)
  }
  return merged
}

/** A hit's text as shown: a chunk's trailing blank lines dropped, ranges clipped to the rest. */
export function hitSegments(text: string, ranges: readonly HighlightRange[] = []): TextSegment[] {
  return highlightSegments(text.trimEnd(), ranges)
}

/** Text nodes, marked runs inside `<mark>`: nothing in the text can become an element. */
export function segmentNodes(segments: readonly TextSegment[]): Node[] {
  return segments.map((segment) => {
    const node = document.createTextNode(segment.text)
    if (!segment.marked) return node
    const mark = document.createElement('mark')
    mark.append(node)
    return mark
  })
}

/** `text` as DOM nodes with `ranges` marked (see {@link highlightSegments}). */
export function highlighted(text: string, ranges: readonly HighlightRange[] = []): Node[] {
  return segmentNodes(highlightSegments(text, ranges))
}

/** A hit's text as DOM nodes with its highlights marked (see {@link hitSegments}). */
export function highlightedHitText(text: string, ranges: readonly HighlightRange[] = []): Node[] {
  return segmentNodes(hitSegments(text, ranges))
}
