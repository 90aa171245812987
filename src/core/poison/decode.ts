/**
 * Decoders for the encodings an instruction hides in. Each is pure and total: malformed input
 * gives `null` (opaque encodings) or is left as it is (readable ones).
 */
import { utf8 } from './hidden.ts'

const B64 = new Int8Array(128).fill(-1)
for (let i = 0; i < 64; i++) {
  B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i
}
B64['-'.charCodeAt(0)] = 62
B64['_'.charCodeAt(0)] = 63

/** Standard or URL-safe base64, padding optional. */
export function decodeBase64(run: string): Uint8Array | null {
  return decodeBits(run.replace(/=+$/, ''), B64, 6)
}

const B32 = new Int8Array(128).fill(-1)
for (let i = 0; i < 32; i++) B32['ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.charCodeAt(i)] = i

/** RFC 4648 base32 (upper case), padding optional. */
export function decodeBase32(run: string): Uint8Array | null {
  return decodeBits(run.replace(/=+$/, ''), B32, 5)
}

function decodeBits(chars: string, table: Int8Array, width: number): Uint8Array | null {
  const bytes = new Uint8Array(Math.floor((chars.length * width) / 8))
  let bits = 0
  let acc = 0
  let n = 0
  for (let i = 0; i < chars.length; i++) {
    const v = table[chars.charCodeAt(i)] ?? -1
    if (v < 0) return null
    acc = ((acc << width) | v) & 0xffffff
    bits += width
    if (bits >= 8) {
      bits -= 8
      bytes[n++] = (acc >> bits) & 0xff
    }
  }
  return bytes.subarray(0, n)
}

/** Pairs of hex digits; separators (spaces, colons, `\x`) already removed. */
export function decodeHex(run: string): Uint8Array {
  const bytes = new Uint8Array(run.length >> 1)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

/** The bytes as text when they are (almost all) printable; binary data gives `null`. */
export function printable(bytes: Uint8Array): string | null {
  let control = 0
  let high = 0
  for (const byte of bytes) {
    if (byte >= 0x80) high++
    else if ((byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 13) || byte === 0x7f) control++
  }
  if (control > 0 || high > bytes.length / 4) return null
  return utf8(bytes)
}

export function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = run.match(/%[0-9a-fA-F]{2}/g) ?? []
    return utf8(bytes.map((b) => Number.parseInt(b.slice(1), 16))) ?? run
  })
}

const NAMED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sol: '/',
  colon: ':',
  equals: '=',
  quest: '?',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  excl: '!',
  period: '.',
  num: '#',
  percnt: '%',
  lbrace: '{',
  rbrace: '}',
}

/** Numeric (`&#105;`, `&#x69;`) and the common named entities (`&lt;img&gt;`). */
export function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#([xX][0-9a-fA-F]{1,6}|[0-9]{1,7})|([a-zA-Z]{2,6}));/g,
    (entity, code: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name.toLowerCase()] ?? entity
      const cp =
        code?.[0] === 'x' || code?.[0] === 'X'
          ? Number.parseInt(code.slice(1), 16)
          : Number(code ?? '')
      return fromCode(cp, entity)
    },
  )
}

/** `\u0069`, `\u{69}` and `\x69` escapes. */
export function decodeEscapes(text: string): string {
  return text.replace(
    /\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})|\\x([0-9a-fA-F]{2})/g,
    (sequence, four, braced, byte) =>
      fromCode(Number.parseInt(four ?? braced ?? byte, 16), sequence),
  )
}

const fromCode = (cp: number, fallback: string) =>
  cp <= 0x10ffff ? String.fromCodePoint(cp) : fallback

/** ROT13 of the Latin letters; everything else as it is. */
export function rot13(text: string): string {
  return text.replace(/[a-zA-Z]/g, (ch) => {
    const code = ch.charCodeAt(0)
    const base = code >= 97 ? 97 : 65
    return String.fromCharCode(((code - base + 13) % 26) + base)
  })
}

/** The text read backwards, by code point. */
export function reverse(text: string): string {
  return Array.from(text).reverse().join('')
}
