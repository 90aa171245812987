import { sleb, uleb } from './leb128.ts'
import { MAX_UNROLL } from './quantise.ts'

/*
 * Hand-assembled WebAssembly (SIMD) with two functions over the kernel's memory.
 *
 * `scan(q, codes, rows, dots, steps, estimates)`: for each row, dots[r] = Σ codes[r][i] × q[i]
 * in int32 (q is int16) and estimates[r] = f32(dots[r]) × steps[r]. Per 16 codes: one load,
 * sign-extension of each half to int16, two i32x4.dot_i16x8_s against the query, two adds.
 * Blocks are unrolled in chunks of at most 32, which keeps the module far under the 4 KB that
 * browser main threads may compile synchronously.
 *
 * `collect(estimates, rows, threshold, out) -> count`: writes the rows whose estimate is >=
 * threshold to `out`, ascending: the selection's one pass over every row, at a fraction of the
 * cost of reading the estimates from JavaScript.
 *
 * `gather(q, _, list, count, dots, codes)`: dots[i] = Σ codes[list[i]][i] × q[i] for the
 * `count` rows listed, the scan's sum for a pool the binary first pass picked.
 */

const I32 = 0x7f
const F32 = 0x7d
const V128 = 0x7b
const I16X8_EXTEND_LOW_S = 0x87
const I16X8_EXTEND_HIGH_S = 0x88
const I32X4_DOT_I16X8_S = 0xba
const I32X4_ADD = 0xae
const I32X4_EXTRACT_LANE = 0x1b
const I32_STORE = [0x36, 2, 0]
const I32_LOAD = [0x28, 2, 0]
const F32_LOAD = [0x2a, 2, 0]
const F32_STORE = [0x38, 2, 0]

const get = (local: number) => [0x20, local]
const set = (local: number) => [0x21, local]
const tee = (local: number) => [0x22, local]
const simd = (op: number) => [0xfd, ...uleb(op)]
const load = (offset: number) => [...simd(0x00), 0, ...uleb(offset)]
/** `local += amount` for an i32 local. */
const advance = (local: number, amount: number) => [
  ...get(local),
  0x41,
  ...sleb(amount),
  0x6a,
  ...set(local),
]

/** The module for rows of `stride` bytes (a multiple of 16, see `strideFor`). */
export function scanModuleBytes(stride: number): Uint8Array<ArrayBuffer> {
  const blocks = stride / 16
  const unroll = blocks / Math.ceil(blocks / MAX_UNROLL)
  const scan = [
    ...vec([
      [2, V128],
      [3, I32],
    ]),
    ...scanBody(stride, unroll),
  ]
  const collect = [...vec([[2, I32]]), ...collectBody()]
  const gather = [
    ...vec([
      [2, V128],
      [3, I32],
    ]),
    ...gatherBody(stride, unroll),
  ]
  const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))]
  const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content]
  const body = (code: number[]) => [...uleb(code.length), ...code]
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(
      1,
      vec([
        [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0], // scan: (i32 × 6) -> ()
        [0x60, ...vec([[I32], [I32], [F32], [I32]]), ...vec([[I32]])], // collect -> i32
      ]),
    ),
    ...section(2, vec([[...name('e'), ...name('m'), 0x02, 0x00, 1]])), // import memory, min 1 page
    ...section(3, vec([[0], [1], [0]])),
    ...section(
      7,
      vec([
        [...name('scan'), 0x00, 0],
        [...name('collect'), 0x00, 1],
        [...name('gather'), 0x00, 2],
      ]),
    ),
    ...section(10, vec([body(scan), body(collect), body(gather)])),
  ])
}

/** Parameters, then v128 `V`, `ACC`, then i32 `QP` (query cursor), `END`, `DOT`. */
const [Q, CODES, ROWS, OUT, STEPS, EST, V, ACC, QP, END, DOT] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

/** For each row: the chunk loop, the horizontal sum stored at `out`, the estimate at `est`. */
function scanBody(stride: number, unroll: number): number[] {
  const lane = (i: number) => [...get(ACC), ...simd(I32X4_EXTRACT_LANE), i]
  return [
    ...[0x02, 0x40, ...get(ROWS), 0x45, 0x0d, 0], // block; exit if rows == 0
    ...[0x03, 0x40], // loop over rows
    ...[...simd(0x0c), ...new Array<number>(16).fill(0), ...set(ACC)], // acc = 0
    ...[...get(Q), ...set(QP), ...get(CODES), 0x41, ...sleb(stride), 0x6a, ...set(END)],
    ...chunkLoop(unroll),
    ...[...get(OUT), ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a],
    ...[...tee(DOT), ...I32_STORE],
    ...[...get(EST), ...get(DOT), 0xb2, ...get(STEPS), ...F32_LOAD, 0x94, ...F32_STORE],
    ...[...advance(OUT, 4), ...advance(STEPS, 4), ...advance(EST, 4)],
    ...[...get(ROWS), 0x41, 1, 0x6b, ...tee(ROWS), 0x0d, 0], // rows--; continue while rows != 0
    ...[0x0b, 0x0b, 0x0b], // end row loop, block, function
  ]
}

/** Parameters as `scan`'s: `ROWS` is the list, `OUT` the count, `STEPS` the dots, `EST` the codes. */
function gatherBody(stride: number, unroll: number): number[] {
  const [LIST, COUNT, DOTS, BASE] = [ROWS, OUT, STEPS, EST]
  const lane = (i: number) => [...get(ACC), ...simd(I32X4_EXTRACT_LANE), i]
  return [
    ...[0x02, 0x40, ...get(COUNT), 0x45, 0x0d, 0], // block; exit if count == 0
    ...[0x03, 0x40], // loop over the listed rows
    ...[...get(BASE), ...get(LIST), ...I32_LOAD, 0x41, ...sleb(stride), 0x6c, 0x6a, ...set(CODES)],
    ...[...simd(0x0c), ...new Array<number>(16).fill(0), ...set(ACC)], // acc = 0
    ...[...get(Q), ...set(QP), ...get(CODES), 0x41, ...sleb(stride), 0x6a, ...set(END)],
    ...chunkLoop(unroll),
    ...[...get(DOTS), ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a],
    ...I32_STORE,
    ...[...advance(DOTS, 4), ...advance(LIST, 4)],
    ...[...get(COUNT), 0x41, 1, 0x6b, ...tee(COUNT), 0x0d, 0], // count--; continue while != 0
    ...[0x0b, 0x0b, 0x0b], // end loop, block, function
  ]
}

/** `unroll` blocks of 16 codes added into `acc`, repeated until `codes` reaches `end`. */
function chunkLoop(unroll: number): number[] {
  const body = [0x03, 0x40, ...get(ACC)]
  for (let b = 0; b < unroll; b++) {
    body.push(...get(CODES), ...load(16 * b), ...set(V))
    body.push(...get(V), ...simd(I16X8_EXTEND_LOW_S), ...get(QP), ...load(32 * b))
    body.push(...simd(I32X4_DOT_I16X8_S))
    body.push(...get(V), ...simd(I16X8_EXTEND_HIGH_S), ...get(QP), ...load(32 * b + 16))
    body.push(...simd(I32X4_DOT_I16X8_S), ...simd(I32X4_ADD), ...simd(I32X4_ADD))
  }
  body.push(
    ...set(ACC),
    ...advance(QP, 32 * unroll),
    ...[...get(CODES), 0x41, ...sleb(16 * unroll), 0x6a, ...tee(CODES)], // codes += 16 × unroll
    ...[...get(END), 0x47, 0x0d, 0], // continue while codes != end
    0x0b, // end chunk loop; codes now points at the next row
  )
  return body
}

/** Parameters `est`, `rows`, `threshold`, `out`, then i32 `ROW`, `COUNT`. */
const [C_EST, C_ROWS, C_THRESHOLD, C_OUT, C_ROW, C_COUNT] = [0, 1, 2, 3, 4, 5]

function collectBody(): number[] {
  return [
    ...[0x02, 0x40, ...get(C_ROWS), 0x45, 0x0d, 0], // block; exit if rows == 0
    ...[0x03, 0x40], // loop over rows
    ...[...get(C_EST), ...F32_LOAD, ...get(C_THRESHOLD), 0x60, 0x04, 0x40], // if est >= threshold
    ...[...get(C_OUT), ...get(C_COUNT), 0x41, 2, 0x74, 0x6a, ...get(C_ROW), ...I32_STORE],
    ...[...advance(C_COUNT, 1), 0x0b], // count++; end if
    ...advance(C_EST, 4),
    ...[...get(C_ROW), 0x41, 1, 0x6a, ...tee(C_ROW), ...get(C_ROWS), 0x47, 0x0d, 0], // while row != rows
    ...[0x0b, 0x0b], // end loop, block
    ...[...get(C_COUNT), 0x0b], // return count
  ]
}

/** A WebAssembly vector: its length, then its items. */
function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()]
}
