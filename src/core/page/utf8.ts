/** UTF-8 sizes of page ranges, counted without slicing or encoding. */

/**
 * UTF-8 bytes of `page.slice(start, end)`, counted without slicing. A lone surrogate counts 3,
 * as `TextEncoder` writes it as U+FFFD.
 *
 * @example
 * bytesBetween('aé👍', 0, 4)
 * // => 7
 */
export function bytesBetween(page: string, start: number, end: number): number {
  let bytes = 0
  for (let i = start; i < end; i++) {
    const unit = page.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (isHighSurrogate(unit) && i + 1 < end && isLowSurrogate(page.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/**
 * Whether `page.slice(start, end)` is at most `limit` bytes of UTF-8, in time bounded by the
 * limit rather than the range (every UTF-16 unit is 1..3 bytes, a pair 4).
 *
 * @example
 * fitsBytes('a'.repeat(1_000_000), 0, 1_000_000, 4096)
 * // => false
 */
export function fitsBytes(page: string, start: number, end: number, limit: number): boolean {
  if (end - start > limit) return false
  if ((end - start) * 3 <= limit) return true
  return bytesBetween(page, start, end) <= limit
}

export function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}

export function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}
