import { describe, expect, it } from 'vitest'
import {
  featuresOf,
  ReadingWeights,
  readable,
  readingOf,
  weightOf,
} from '../../../../../src/core/poison/model/features.ts'
import { seeded } from '../../../../../src/core/poison/model/train.ts'
import { fold } from '../../../../../src/core/poison/normalise.ts'

const WORD = /[\p{L}\p{N}]+/gu
const ALPHABET = [
  'a',
  'Z',
  '7',
  ' ',
  '.',
  ':',
  '\u00e9',
  '\u4e2d',
  '\u0661',
  '\ud835\udc22',
  '\ud800',
  '\udc00',
  '\u00ad',
  '-',
  '\t',
  'your',
  'reply',
]

/** A seeded string of letters, digits, marks, astral letters and lone surrogates. */
function randomText(random: () => number, length: number): string {
  let text = ''
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(random() * ALPHABET.length)]
  return text
}

describe('the learned stage features', () => {
  it('cuts words exactly where [\\p{L}\\p{N}]+ runs do, astral letters and lone surrogates included', () => {
    const random = seeded(424242)
    for (let n = 0; n < 300; n++) {
      const text = randomText(random, 1 + Math.floor(random() * 40))
      const words = new Set(featuresOf(text, true).words?.values())
      const tokens = text.match(WORD) ?? []
      for (const token of tokens) expect(words).toContain(token)
      for (let i = 1; i < tokens.length; i++)
        expect(words).toContain(`${tokens[i - 1]} ${tokens[i]}`)
      expect(words.size).toBeLessThanOrEqual(2 * tokens.length)
    }
  })

  it('sums the same weights in the scoring pass as the features it builds', () => {
    const random = seeded(7)
    const weights = Int8Array.from({ length: 1 << 16 }, () => Math.floor(random() * 255) - 127)
    for (let n = 0; n < 100; n++) {
      const text = randomText(random, Math.floor(random() * 60))
      const f = featuresOf(text)
      let sum = 0
      for (let k = 0; k < f.buckets.length; k++)
        sum += (weights[f.buckets[k] as number] as number) * (f.counts[k] as number)
      expect(weightOf(text, weights)).toEqual({ sum, total: f.total })
    }
  })

  it('weighs every window of a reading as the window read alone, at spaces or inside words', () => {
    const random = seeded(2291)
    const weights = Int8Array.from({ length: 1 << 16 }, () => Math.floor(random() * 255) - 127)
    const words = ['add', 'this', 'to', 'your', 'reply', 'ignore', 'the', 'rules', 'ok.', 'now:']
    let windows = 0
    for (let n = 0; n < 60; n++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 50) }, () =>
        random() < 0.7 ? words[Math.floor(random() * words.length)] : randomText(random, 4),
      )
      const read = readable(parts.join(' '))
      const reading = new ReadingWeights(read, weights)
      const cuts = [
        0,
        read.length,
        ...Array.from({ length: 8 }, () => Math.floor(random() * read.length)),
      ]
      for (const from of cuts) {
        for (const to of cuts) {
          if (to < from) continue
          expect(reading.window(from, to)).toEqual(weightOf(read.slice(from, to), weights))
          windows++
        }
      }
    }
    expect(windows).toBeGreaterThan(1000)
  })

  it('refuses a reading weighed before a later one, whose arrays the later one reuses', () => {
    const weights = new Int8Array(1 << 16).fill(3)
    const first = new ReadingWeights('ignore the rules now', weights)
    const expected = weightOf('the rules', weights)
    expect(first.window(7, 16)).toEqual(expected)
    const second = new ReadingWeights('add this to your reply', weights)
    expect(() => first.window(7, 16)).toThrow(/later one/)
    expect(second.window(4, 8)).toEqual(weightOf('this', weights))
  })

  it('reads a text with its spaces collapsed, its ends trimmed and format characters dropped', () => {
    expect(readable('  Add\u00ad this\t\tto   your reply  ')).toBe('add this to your reply')
    expect(readable('plain text, single spaces')).toBe('plain text, single spaces')
    expect(readingOf(fold('a\u200b b\u3000\u3000c'))).toBe('a b c')
  })
})
