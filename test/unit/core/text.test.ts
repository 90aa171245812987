import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  dedupKey,
  foldCase,
  normalizeText,
  storedText,
  utf8Length,
} from '../../../src/core/text.ts'

const SEED = 20260131

describe('normalizeText', () => {
  it('composes to NFC', () => {
    expect(normalizeText('cafe\u0301')).toBe('caf\u00E9')
  })

  it('strips zero-width space, word joiner, byte-order mark and soft hyphen', () => {
    expect(normalizeText('\uFEFFzero\u200Bwidth\u2060join\u00ADed')).toBe('zerowidthjoined')
  })

  it('keeps the zero-width joiner and non-joiner that emoji and scripts need', () => {
    expect(normalizeText('👨\u200D👩\u200D👧')).toBe('👨\u200D👩\u200D👧')
    expect(normalizeText('می\u200Cخواهم')).toBe('می\u200Cخواهم')
  })

  it('collapses spaces and tabs but keeps line breaks', () => {
    expect(normalizeText('  Priya \t is\u00A0 here \n  next   line  ')).toBe(
      'Priya is here\nnext line',
    )
  })

  it('turns CRLF, CR and Unicode line separators into LF', () => {
    expect(normalizeText('a\r\nb\rc\u2028d')).toBe('a\nb\nc\nd')
  })

  it('collapses several blank lines into one', () => {
    expect(normalizeText('a\n\n\n \n\nb\n\nc')).toBe('a\n\nb\n\nc')
  })

  it('returns an empty string for whitespace and invisible separators only', () => {
    expect(normalizeText(' \u200B\t\n\uFEFF ')).toBe('')
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const once = normalizeText(text)
        expect(normalizeText(once)).toBe(once)
      }),
      { seed: SEED },
    )
  })
})

describe('dedupKey', () => {
  it('gives the same key to the same fact in another case, spacing and punctuation', () => {
    expect(dedupKey("Priya is the owner's sister-in-law")).toBe(
      dedupKey('priya is the owners  sister in law!'),
    )
    expect(dedupKey("Priya is the owner's sister-in-law")).toBe('priya is the owners sister in law')
  })

  it('treats typographic and straight apostrophes alike', () => {
    expect(dedupKey('the owner\u2019s car')).toBe(dedupKey("the owner's car"))
  })

  it('folds case fully and compatibility forms', () => {
    expect(dedupKey('Straße')).toBe(dedupKey('STRASSE'))
    expect(dedupKey('ＡＢＣ １２３')).toBe('abc 123')
    expect(dedupKey('ΟΔΟΣ')).toBe(dedupKey('οδος'))
  })

  it('is stable for capital sharp s and a final sigma left after punctuation', () => {
    expect(dedupKey(dedupKey('ẞ'))).toBe(dedupKey('ẞ'))
    expect(dedupKey('À·𝜍')).toBe(dedupKey(dedupKey('À·𝜍')))
  })

  it('keeps different numbers and versions apart', () => {
    expect(dedupKey('v1.2')).not.toBe(dedupKey('v12'))
    expect(dedupKey('I have 3 cats')).not.toBe(dedupKey('I have 4 cats'))
    expect(dedupKey('FH-2291')).not.toBe(dedupKey('FH-2292'))
  })

  it('keeps letters of every script', () => {
    expect(dedupKey('我喜欢猫。')).toBe('我喜欢猫')
    expect(dedupKey('مرحبا، بالعالم!')).toBe('مرحبا بالعالم')
    expect(dedupKey('हिंदी भाषा')).toBe('हिंदी भाषा')
  })

  it('keys text made only of symbols on the symbols', () => {
    expect(dedupKey('👍')).not.toBe('')
    expect(dedupKey('👍')).not.toBe(dedupKey('🎉'))
    expect(dedupKey(' 👍 ')).toBe(dedupKey('👍'))
  })

  it('never returns an empty key for text with a letter or digit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        if (/[\p{L}\p{N}]/u.test(normalizeText(text))) expect(dedupKey(text)).not.toBe('')
      }),
      { seed: SEED },
    )
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const key = dedupKey(text)
        expect(dedupKey(key)).toBe(key)
      }),
      { seed: SEED },
    )
  })
})

describe('foldCase', () => {
  it('maps sharp s and final sigma to their plain forms', () => {
    expect(foldCase('Straße')).toBe('strasse')
    expect(foldCase('λόγος')).toBe(foldCase('ΛΌΓΟΣ'))
  })
})

describe('utf8Length', () => {
  it('counts one to four bytes per character', () => {
    expect(utf8Length('')).toBe(0)
    expect(utf8Length('a')).toBe(1)
    expect(utf8Length('é')).toBe(2)
    expect(utf8Length('€')).toBe(3)
    expect(utf8Length('👋')).toBe(4)
    expect(utf8Length('héllo 👋')).toBe(11)
  })

  it('counts a lone surrogate as the three bytes of U+FFFD', () => {
    expect(utf8Length('\uD800')).toBe(3)
    expect(utf8Length('a\uDC00b')).toBe(5)
  })

  it('agrees with TextEncoder on any UTF-16 string, lone surrogates included', () => {
    const encoder = new TextEncoder()
    const units = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 })
    const pairs = fc.string({ unit: 'binary' })
    fc.assert(
      fc.property(units, pairs, (codes, text) => {
        const mixed = String.fromCharCode(...codes) + text
        expect(utf8Length(mixed)).toBe(encoder.encode(mixed).length)
      }),
      { seed: SEED },
    )
  })
})

describe('storedText', () => {
  it('keeps a Makefile recipe’s tab and a YAML block’s indentation, so the snippet still works', () => {
    const make = 'all:\n\tgo build ./...\n\tgo test ./...'
    const yaml = 'services:\n  web:\n    image: nginx\n    ports:\n      - "80:80"'
    expect(storedText(make)).toBe(make)
    expect(storedText(`${yaml}\n\n`)).toBe(yaml)
  })

  it('drops only what carries nothing: CR line ends, zero-width separators, trailing spaces', () => {
    expect(storedText('a  b\u200B \r\n\r\n    c\t \r\n')).toBe('a  b\n\n    c')
  })
})
