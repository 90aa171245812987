import { describe, expect, it } from 'vitest'
import { bytesBetween, cutPoints } from '../../../../src/core/page/cut-points.ts'

const cuts = (text: string, level: Parameters<typeof cutPoints>[2], code = []) =>
  cutPoints(text, { start: 0, end: text.length }, level, code, 4096).map((at) => text.slice(0, at))

describe('cutPoints', () => {
  it('cuts sentences after the space that follows a full stop', () => {
    expect(cuts('One. Two! Three? Four', 'sentences')).toEqual([
      'One. ',
      'One. Two! ',
      'One. Two! Three? ',
    ])
  })

  it('does not end a sentence at an abbreviation, a version or before a lower-case word', () => {
    expect(cuts('Use e.g. Docker. See v1.2.3 now. then go', 'sentences')).toEqual([
      'Use e.g. Docker. ',
    ])
  })

  it('never cuts inside inline code, a Markdown link or a URL', () => {
    const text =
      'Run `a. B` first. See [docs. Here](https://x.dev/a. b) too. Go https://x.dev/a.b?c=1. Ok'
    expect(cuts(text, 'sentences')).toEqual([
      'Run `a. B` first. ',
      'Run `a. B` first. See [docs. Here](https://x.dev/a. b) too. ',
      'Run `a. B` first. See [docs. Here](https://x.dev/a. b) too. Go https://x.dev/a.b?c=1. ',
    ])
  })

  it('never cuts inside a code range unless it holds the whole range or is too large', () => {
    const text = 'a b c d'
    expect(cutPoints(text, { start: 0, end: 7 }, 'words', [{ start: 1, end: 6 }], 4096)).toEqual([
      6,
    ])
    expect(cutPoints(text, { start: 0, end: 7 }, 'words', [{ start: 0, end: 7 }], 4096)).toEqual([
      2, 4, 6,
    ])
    expect(cutPoints(text, { start: 0, end: 7 }, 'words', [{ start: 1, end: 6 }], 2)).toEqual([
      2, 4, 6,
    ])
  })

  it('cuts lists before items, lines after newlines, and Chinese after full stops', () => {
    expect(cuts('- a\n  more\n- b\n1. c', 'items')).toEqual(['- a\n  more\n', '- a\n  more\n- b\n'])
    expect(cuts('a\n\n\nb\nc', 'lines')).toEqual(['a\n\n\n', 'a\n\n\nb\n'])
    expect(cuts('今日は晴れです。明日は雨？はい', 'sentences')).toEqual([
      '今日は晴れです。',
      '今日は晴れです。明日は雨？',
    ])
  })

  it('cuts between graphemes and never inside a surrogate pair', () => {
    expect(cuts('a👍🏽b', 'graphemes')).toEqual(['a', 'a👍🏽'])
    expect(cuts('a👍b', 'codepoints')).toEqual(['a', 'a👍'])
  })
})

describe('bytesBetween', () => {
  it('counts UTF-8 bytes of a slice', () => {
    const text = 'héllo 👋 東'
    expect(bytesBetween(text, 0, text.length)).toBe(new TextEncoder().encode(text).length)
    expect(bytesBetween(text, 1, 2)).toBe(2)
  })
})
