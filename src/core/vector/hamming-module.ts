import { uleb } from './leb128.ts'

/*
 * Hand-assembled WebAssembly with one function, `hamming(q, codes, rows, out)`: for each row,
 * out[r] (u16) = popcount(codes[r] XOR q), summed over the row's 64-bit words. The query's
 * words sit in locals and each row is unrolled in full, so a 384-bit row is six i64 loads,
 * xors and popcounts (one instruction each on x86-64 and ARM64) and one 16-bit store: 48 B of
 * codes a row against the 384 B of the int8 scan.
 */

const I32 = 0x7f
const I64 = 0x7e
const I64_LOAD = 0x29
const I64_XOR = 0x85
const I64_POPCNT = 0x7b
const I64_ADD = 0x7c
const I32_WRAP_I64 = 0xa7
const I32_STORE16 = 0x3b

/** Most 64-bit words a row's code may have for the unrolled module (2048 dims). */
export const MAX_HAMMING_WORDS64 = 32

const get = (local: number) => [0x20, local]
const set = (local: number) => [0x21, local]
const tee = (local: number) => [0x22, local]
const advance = (local: number, amount: number) => [
  ...get(local),
  0x41,
  ...uleb(amount),
  0x6a,
  ...set(local),
]

/** The module for codes of `words64` 64-bit words a row (1..{@link MAX_HAMMING_WORDS64}). */
export function hammingModuleBytes(words64: number): Uint8Array<ArrayBuffer> {
  // Parameters q, codes, rows, out; then the query's words as i64 locals, then the sum.
  const [Q, CODES, ROWS, OUT] = [0, 1, 2, 3]
  const word = (w: number) => 4 + w
  const SUM = 4 + words64
  const code: number[] = [
    ...vec([
      [words64, I64],
      [1, I64],
    ]),
  ]
  for (let w = 0; w < words64; w++)
    code.push(...get(Q), I64_LOAD, 3, ...uleb(8 * w), ...set(word(w)))
  code.push(0x02, 0x40, ...get(ROWS), 0x45, 0x0d, 0) // block; exit if rows == 0
  code.push(0x03, 0x40) // loop over rows
  for (let w = 0; w < words64; w++) {
    code.push(...get(CODES), I64_LOAD, 3, ...uleb(8 * w), ...get(word(w)), I64_XOR, I64_POPCNT)
    if (w > 0) code.push(I64_ADD)
  }
  code.push(...set(SUM), ...get(OUT), ...get(SUM), I32_WRAP_I64, I32_STORE16, 1, 0)
  code.push(...advance(OUT, 2), ...advance(CODES, 8 * words64))
  code.push(...get(ROWS), 0x41, 1, 0x6b, ...tee(ROWS), 0x0d, 0) // rows--; continue while != 0
  code.push(0x0b, 0x0b, 0x0b) // end loop, block, function
  const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))]
  const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content]
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32]]), 0]])), // (i32 × 4) -> ()
    ...section(2, vec([[...name('e'), ...name('m'), 0x02, 0x00, 1]])), // import memory
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('hamming'), 0x00, 0]])),
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ])
}

/** A WebAssembly vector: its length, then its items. */
function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()]
}
