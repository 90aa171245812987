/**
 * How vectors become integers. A stored vector is int8 codes (round(x / step), step = max |x| /
 * 127, one step per row) plus `bits` bit planes of the rounding residual, which the refiner reads
 * back to re-score candidates; a query is int16 codes, fine enough that its own rounding is
 * negligible next to the rows'.
 */

/** Largest |code| of a stored component. */
export const CODE_MAX = 127

/** Most 16-byte blocks the WebAssembly scan unrolls in one chunk (keeps the module small). */
export const MAX_UNROLL = 32

/** Most residual bit planes a row may keep. */
export const MAX_REFINE_BITS = 8

/** Where a row's parts live in the index's arrays. */
export interface RowLayout {
  readonly dims: number
  /** Bytes of codes per row: `dims` padded for the scan (see {@link strideFor}). */
  readonly stride: number
  /** 32-bit words per residual bit plane: ceil(dims / 32). */
  readonly words: number
  /** Residual bit planes per row, 0..{@link MAX_REFINE_BITS}. */
  readonly bits: number
}

export function rowLayout(dims: number, bits: number): RowLayout {
  return { dims, stride: strideFor(dims), words: Math.ceil(dims / 32), bits }
}

/**
 * Row length in bytes: dims padded to 16-byte SIMD blocks, and to a whole number of unrolled
 * chunks of at most 32 blocks (384 → 384, 1536 → 1536, 100 → 112).
 */
export function strideFor(dims: number): number {
  const blocks = Math.ceil(dims / 16)
  const chunks = Math.ceil(blocks / MAX_UNROLL)
  return chunks * Math.ceil(blocks / chunks) * 16
}

/**
 * Writes `vector` into `row`: its codes (padding zeroed) and the residual level
 * floor((residual + 0.5) × 2^bits), one bit per plane, planes row-major. Returns the row's step.
 */
export function quantiseRow(
  vector: Float32Array,
  layout: RowLayout,
  codes: Int8Array,
  residuals: Uint32Array,
  row: number,
): number {
  const { dims, stride, words, bits } = layout
  let max = 0
  for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(vector[i] as number))
  const inv = max > 0 ? CODE_MAX / max : 0
  const base = row * stride
  const planes = row * bits * words
  const levels = 1 << bits
  residuals.fill(0, planes, planes + bits * words)
  // Padding must be zero: WebAssembly memory reused from the scratch scores is not.
  codes.fill(0, base + dims, base + stride)
  for (let i = 0; i < dims; i++) {
    const t = (vector[i] as number) * inv
    const code = Math.round(t)
    codes[base + i] = code
    if (bits === 0) continue
    const level = Math.max(0, Math.min(levels - 1, Math.floor((t - code + 0.5) * levels)))
    const word = planes + (i >>> 5)
    const bit = 1 << (i & 31)
    for (let p = 0; p < bits; p++) {
      if ((level >>> p) & 1)
        residuals[word + p * words] = (residuals[word + p * words] as number) | bit
    }
  }
  return max / CODE_MAX
}

/** Largest |query code|: keeps Σ over the row of 127 × q within int32 (no wrap in i32 lanes). */
export function queryMax(stride: number): number {
  return Math.min(32_767, Math.floor(0x7fffffff / (stride * CODE_MAX)))
}

/** Writes round(query × scale) into `out` and returns the scale (0 for a zero query). */
export function quantiseQuery(query: Float32Array, out: Int16Array, stride: number): number {
  let max = 0
  for (let i = 0; i < query.length; i++) max = Math.max(max, Math.abs(query[i] as number))
  const scale = max > 0 ? queryMax(stride) / max : 0
  for (let i = 0; i < query.length; i++) out[i] = Math.round((query[i] as number) * scale)
  return scale
}
