import { describe, expect, it } from 'vitest'
import {
  decodeBase32,
  decodeBase64,
  decodeEntities,
  decodeEscapes,
  decodeHex,
  decodePercent,
  printable,
  reverse,
  rot13,
} from '../../../../src/core/poison/decode.ts'

const text = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null)

describe('decoders', () => {
  it('decodes standard and URL-safe base64, padding optional', () => {
    expect(text(decodeBase64('aGVsbG8gd29ybGQ='))).toBe('hello world')
    expect(text(decodeBase64('aGVsbG8gd29ybGQ'))).toBe('hello world')
    expect(text(decodeBase64('Pz8_Pz8-'))).toBe('?????>')
    expect(decodeBase64('not base64!')).toBeNull()
  })

  it('decodes RFC 4648 base32', () => {
    expect(text(decodeBase32('NBSWY3DPEB3W64TMMQ======'))).toBe('hello world')
    expect(decodeBase32('lowercase')).toBeNull()
  })

  it('decodes hex pairs', () => {
    expect(text(decodeHex('68656c6c6f'))).toBe('hello')
  })

  it('tells printable text from binary', () => {
    expect(printable(new TextEncoder().encode('plain words'))).toBe('plain words')
    expect(printable(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull()
  })

  it('decodes percent-encoding, leaving invalid UTF-8 as it is', () => {
    expect(decodePercent('Caf%C3%A9%20Central')).toBe('Café Central')
    expect(decodePercent('bad %FF here')).toBe('bad %FF here')
  })

  it('decodes numeric and common named HTML entities', () => {
    expect(decodeEntities('&#105;&#x67;n &lt;img&gt; &quot;x&quot; &amp; &unknown;')).toBe(
      'ign <img> "x" & &unknown;',
    )
  })

  it('decodes \\u, \\u{…} and \\x escapes', () => {
    expect(decodeEscapes('\\u0069\\u{67}\\x6e')).toBe('ign')
  })

  it('undoes ROT13 and reversal', () => {
    expect(rot13('Vtaber cerivbhf')).toBe('Ignore previous')
    expect(rot13(rot13('Round Trip'))).toBe('Round Trip')
    expect(reverse('snoitcurtsni 🙂')).toBe('🙂 instructions')
  })
})
