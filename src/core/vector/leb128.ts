/**
 * LEB128, the variable-length integer encoding of WebAssembly binaries: seven bits a byte, low
 * bits first, the high bit set on every byte but the last.
 */

/** Unsigned LEB128 of a 32-bit value. */
export function uleb(value: number): number[] {
  const out: number[] = []
  let n = value >>> 0
  do {
    let byte = n & 0x7f
    n >>>= 7
    if (n !== 0) byte |= 0x80
    out.push(byte)
  } while (n !== 0)
  return out
}

/** Signed LEB128 of a 32-bit value: ends once the rest is pure sign extension. */
export function sleb(value: number): number[] {
  const out: number[] = []
  let n = value | 0
  for (;;) {
    const byte = n & 0x7f
    n >>= 7
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}
