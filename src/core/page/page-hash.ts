/**
 * A fingerprint of a page's text for page-level dedup: storing and indexing a 2 MB key is out of
 * the question, a 64-bit hash is not. Two pages with one hash are compared in full before one
 * counts as the other, so a collision costs a comparison, never a lost page.
 */

/**
 * 16 hex digits: two 32-bit FNV-1a-style hashes of the UTF-16 units with different offsets and
 * multipliers. Pure and synchronous (`crypto.subtle.digest` is neither).
 *
 * @example
 * pageHash('# Guide\n\nRun it.') === pageHash('# Guide\n\nRun it.')
 * // => true
 */
export function pageHash(page: string): string {
  let a = 0x811c9dc5
  let b = 0x9747b28c
  for (let i = 0; i < page.length; i++) {
    const unit = page.charCodeAt(i)
    a = Math.imul(a ^ unit, 0x01000193)
    b = Math.imul(b ^ unit, 0x5bd1e995)
    b ^= b >>> 15
  }
  a ^= page.length
  b ^= page.length
  return hex(a) + hex(b)
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0')
}
