/**
 * The parts joined into a new array, in order, with a buffer of its own (so `.buffer` holds
 * exactly these bytes, as TF.js weights need).
 *
 * @example
 * concatBytes([new Uint8Array([1, 2]), new Uint8Array([3])])
 * // => Uint8Array [1, 2, 3]
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}
