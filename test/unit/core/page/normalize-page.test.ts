import { describe, expect, it } from 'vitest'
import { normalizePage, validatePage } from '../../../../src/core/page/normalize-page.ts'

describe('normalizePage', () => {
  it('keeps indentation and inner spaces but trims line ends and extra blank lines', () => {
    expect(
      normalizePage('\r\n\n# Title  \r\n\r\n\r\n\r\n    indented  code\t\r\n  - item\n\n'),
    ).toBe('# Title\n\n    indented  code\n  - item')
  })

  it('composes accents and strips invisible separators', () => {
    expect(normalizePage('cafe\u0301\u200B ok\u00AD')).toBe('café ok')
  })
})

describe('validatePage', () => {
  it('returns the normalised page', () => {
    expect(validatePage('  # A\r\n', 'text', 100)).toBe('  # A')
  })

  it('rejects an empty page, an oversized one and forbidden characters', () => {
    expect(() => validatePage(' \n\t\n', 'text', 100)).toThrow(
      expect.objectContaining({ code: 'EMPTY_TEXT', field: 'text' }),
    )
    expect(() => validatePage('ü'.repeat(51), 'text', 100)).toThrow(
      expect.objectContaining({ code: 'TEXT_TOO_LONG' }),
    )
    expect(() => validatePage('x'.repeat(101), 'text', 100)).toThrow(
      expect.objectContaining({ code: 'TEXT_TOO_LONG' }),
    )
    expect(validatePage('ü'.repeat(50), 'text', 100)).toHaveLength(50)
    expect(() => validatePage('a\u202Eb', 'text', 100)).toThrow(
      expect.objectContaining({ code: 'BIDI_CONTROL' }),
    )
    expect(() => validatePage(42, 'text', 100)).toThrow(
      expect.objectContaining({ code: 'BAD_OPTION' }),
    )
  })
})
