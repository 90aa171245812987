import { describe, expect, it } from 'vitest'
import {
  type HighlightRange,
  highlightSegments,
  hitSegments,
  mergeRanges,
  type TextSegment,
} from '../../../src/app/highlight-view.ts'
import { TEST_SEED, uniform } from '../../helpers/random.ts'

const joined = (segments: TextSegment[]) => segments.map((s) => s.text).join('')
const marked = (segments: TextSegment[]) => segments.filter((s) => s.marked).map((s) => s.text)

describe('highlightSegments', () => {
  it('splits the text as its documented example shows', () => {
    expect(highlightSegments('call auth_handler now', [[5, 17]])).toEqual([
      { text: 'call ', marked: false },
      { text: 'auth_handler', marked: true },
      { text: ' now', marked: false },
    ])
  })

  it('gives one plain run for no ranges, and for an empty text', () => {
    expect(highlightSegments('plain text')).toEqual([{ text: 'plain text', marked: false }])
    expect(highlightSegments('', [[0, 3]])).toEqual([{ text: '', marked: false }])
  })

  it('marks ranges at both ends without empty plain runs', () => {
    expect(
      highlightSegments('deploy the deploy', [
        [0, 6],
        [11, 17],
      ]),
    ).toEqual([
      { text: 'deploy', marked: true },
      { text: ' the ', marked: false },
      { text: 'deploy', marked: true },
    ])
  })

  it('keeps markup in the text as text', () => {
    const text = 'see <img src=x onerror=alert(1)> here'
    const segments = highlightSegments(text, [[4, 32]])
    expect(marked(segments)).toEqual(['<img src=x onerror=alert(1)>'])
    expect(joined(segments)).toBe(text)
  })

  it('joins overlapping and touching ranges and drops empty, reversed and outside ones', () => {
    expect(
      mergeRanges(
        [
          [8, 12],
          [0, 3],
          [2, 5],
          [5, 6],
          [9, 9],
          [7, 4],
          [40, 50],
          [-3, 1],
        ],
        20,
      ),
    ).toEqual([
      [0, 6],
      [8, 12],
    ])
  })

  it('always reassembles the text and marks exactly the merged ranges (seeded)', () => {
    const next = uniform(TEST_SEED)
    const int = (max: number) => Math.floor(next() * max)
    const alphabet = 'ab _\n<>é😀'
    for (let round = 0; round < 500; round++) {
      const text = Array.from({ length: int(40) }, () => alphabet[int(alphabet.length)]).join('')
      const ranges: HighlightRange[] = Array.from({ length: int(6) }, () => {
        const start = int(text.length + 10) - 5
        return [start, start + int(12) - 2]
      })
      const segments = highlightSegments(text, ranges)
      expect(joined(segments)).toBe(text)
      const expected = mergeRanges(ranges, text.length).map(([s, e]) => text.slice(s, e))
      expect(marked(segments)).toEqual(expected)
      for (let i = 1; i < segments.length; i++) {
        // Runs alternate: two marked runs side by side would have been merged.
        expect(segments[i]!.marked).not.toBe(segments[i - 1]!.marked)
        expect(segments[i]!.text).not.toBe('')
      }
    }
  })
})

describe('hitSegments', () => {
  it('drops a chunk’s trailing blank lines and clips ranges that reach into them', () => {
    const chunk = 'Run auth_handler first.\n\n'
    expect(
      hitSegments(chunk, [
        [4, 16],
        [22, 25],
      ]),
    ).toEqual([
      { text: 'Run ', marked: false },
      { text: 'auth_handler', marked: true },
      { text: ' first', marked: false },
      { text: '.', marked: true },
    ])
  })

  it('leaves leading indentation alone', () => {
    expect(joined(hitSegments('  indented code\n'))).toBe('  indented code')
  })
})
