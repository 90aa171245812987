import { quantiseQuery } from './quantise.ts'

/** What a scan leaves for selection and re-scoring, in buffers the next scan reuses. */
export interface ScanResult {
  /** Per row: Σ code × query code, exact in int32. */
  dots: Int32Array
  /** Per row: float32(dot) × step, rounded to float32 — the same bits from every kernel. */
  estimates: Float32Array
}

/**
 * A scan kernel: int32 dot products of every row's int8 codes with an int16 query. The kernel
 * owns the rows' codes and steps, so a WebAssembly kernel can keep them in its linear memory.
 */
export interface ScanKernel {
  readonly kind: 'wasm' | 'js'
  /** capacity × stride codes; replaced when the kernel grows. */
  readonly codes: Int8Array
  /** Per row: the value of one code step; replaced when the kernel grows. */
  readonly steps: Float32Array
  reserve(capacity: number): void
  /** Quantises `query` as round(query × scale) for the next scans and returns the scale. */
  prepare(query: Float32Array): number
  /** Scores rows [0, rows) against the prepared query. */
  scan(rows: number): ScanResult
  /** Rows of [0, rows), ascending, whose last estimate is >= `threshold` (a float32 value). */
  collect(threshold: number, rows: number): Int32Array
  /** The dot product {@link ScanKernel.scan} gives `row`, for that row alone. */
  dotRow(row: number): number
  /** The dot products {@link ScanKernel.scan} gives the listed rows, in list order (reused buffer). */
  dotRows(rows: readonly number[]): Int32Array
  bytes(): number
}

/**
 * Σ codes[base + i] × query[i] over one row. Integers stay below 2^31, so this equals the SIMD
 * kernel's sum exactly.
 */
export function rowDot(codes: Int8Array, base: number, query: Int16Array, stride: number): number {
  let a0 = 0
  let a1 = 0
  let a2 = 0
  let a3 = 0
  for (let i = 0; i < stride; i += 4) {
    a0 += (codes[base + i] as number) * (query[i] as number)
    a1 += (codes[base + i + 1] as number) * (query[i + 1] as number)
    a2 += (codes[base + i + 2] as number) * (query[i + 2] as number)
    a3 += (codes[base + i + 3] as number) * (query[i + 3] as number)
  }
  return a0 + a1 + a2 + a3
}

/** The plain JavaScript scan: where WebAssembly SIMD is unavailable, with the same results. */
export class JsKernel implements ScanKernel {
  readonly kind = 'js'
  codes = new Int8Array(0)
  steps = new Float32Array(0)
  #stride: number
  #query: Int16Array
  #dots = new Int32Array(0)
  #estimates = new Float32Array(0)
  #picked = new Int32Array(0)

  constructor(stride: number) {
    this.#stride = stride
    this.#query = new Int16Array(stride)
  }

  reserve(capacity: number): void {
    const codes = new Int8Array(capacity * this.#stride)
    codes.set(this.codes.subarray(0, codes.length))
    this.codes = codes
    const steps = new Float32Array(capacity)
    steps.set(this.steps.subarray(0, capacity))
    this.steps = steps
    this.#dots = new Int32Array(capacity)
    this.#estimates = new Float32Array(capacity)
    this.#picked = new Int32Array(capacity)
  }

  prepare(query: Float32Array): number {
    return quantiseQuery(query, this.#query, this.#stride)
  }

  scan(rows: number): ScanResult {
    const dots = this.#dots
    const estimates = this.#estimates
    for (let r = 0; r < rows; r++) {
      const dot = this.dotRow(r)
      dots[r] = dot
      // fround(dot) × step is exact in float64; the store rounds it once, as f32.mul does.
      estimates[r] = Math.fround(dot) * (this.steps[r] as number)
    }
    return { dots, estimates }
  }

  collect(threshold: number, rows: number): Int32Array {
    const estimates = this.#estimates
    let count = 0
    for (let r = 0; r < rows; r++) {
      if ((estimates[r] as number) >= threshold) this.#picked[count++] = r
    }
    return this.#picked.subarray(0, count)
  }

  dotRow(row: number): number {
    return rowDot(this.codes, row * this.#stride, this.#query, this.#stride)
  }

  dotRows(rows: readonly number[]): Int32Array {
    const dots = this.#dots
    for (let i = 0; i < rows.length; i++) dots[i] = this.dotRow(rows[i] as number)
    return dots.subarray(0, rows.length)
  }

  bytes(): number {
    return (
      this.codes.byteLength +
      this.steps.byteLength +
      this.#query.byteLength +
      this.#dots.byteLength +
      this.#estimates.byteLength +
      this.#picked.byteLength
    )
  }
}
