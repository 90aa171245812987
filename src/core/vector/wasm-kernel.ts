import { JsKernel, rowDot, type ScanKernel, type ScanResult } from './kernel.ts'
import { quantiseQuery } from './quantise.ts'
import { scanModuleBytes } from './wasm-module.ts'

const PAGE = 65_536

type ScanFn = (
  q: number,
  codes: number,
  rows: number,
  dots: number,
  steps: number,
  est: number,
) => void
type CollectFn = (est: number, rows: number, threshold: number, out: number) => number
type GatherFn = (
  q: number,
  unused: number,
  list: number,
  count: number,
  dots: number,
  codes: number,
) => void

/**
 * The WebAssembly SIMD scan (about 15× the JS one). Memory layout, for `capacity` rows:
 * [query int16 × stride][codes capacity × stride][steps f32][dots i32][estimates f32][picked i32],
 * the last four `capacity` long each.
 */
export class WasmKernel implements ScanKernel {
  readonly kind = 'wasm'
  codes = new Int8Array(0)
  steps = new Float32Array(0)
  #stride: number
  #capacity = 0
  #memory: WebAssembly.Memory
  #scanFn: ScanFn
  #collectFn: CollectFn
  #gatherFn: GatherFn
  #query = new Int16Array(0)
  #dots = new Int32Array(0)
  #estimates = new Float32Array(0)
  #picked = new Int32Array(0)

  constructor(module: WebAssembly.Module, stride: number) {
    this.#stride = stride
    this.#memory = new WebAssembly.Memory({ initial: 1 })
    const instance = new WebAssembly.Instance(module, { e: { m: this.#memory } })
    this.#scanFn = instance.exports.scan as ScanFn
    this.#collectFn = instance.exports.collect as CollectFn
    this.#gatherFn = instance.exports.gather as GatherFn
    this.reserve(0)
  }

  get #codesOffset(): number {
    return this.#stride * 2
  }

  reserve(capacity: number): void {
    if (capacity < this.#capacity) return
    const oldSteps = this.steps.byteOffset
    const oldCount = this.#capacity
    const stepsOffset = this.#codesOffset + capacity * this.#stride
    const needed = stepsOffset + capacity * 16
    const have = this.#memory.buffer.byteLength
    if (needed > have) this.#memory.grow(Math.ceil((needed - have) / PAGE))
    const buffer = this.#memory.buffer
    // Codes stay in place as the memory grows; the steps move up past them (memmove).
    new Uint8Array(buffer).copyWithin(stepsOffset, oldSteps, oldSteps + oldCount * 4)
    this.#capacity = capacity
    this.#query = new Int16Array(buffer, 0, this.#stride)
    this.codes = new Int8Array(buffer, this.#codesOffset, capacity * this.#stride)
    this.steps = new Float32Array(buffer, stepsOffset, capacity)
    this.#dots = new Int32Array(buffer, stepsOffset + capacity * 4, capacity)
    this.#estimates = new Float32Array(buffer, stepsOffset + capacity * 8, capacity)
    this.#picked = new Int32Array(buffer, stepsOffset + capacity * 12, capacity)
  }

  prepare(query: Float32Array): number {
    return quantiseQuery(query, this.#query, this.#stride)
  }

  scan(rows: number): ScanResult {
    const { byteOffset: steps } = this.steps
    this.#scanFn(
      0,
      this.#codesOffset,
      rows,
      this.#dots.byteOffset,
      steps,
      this.#estimates.byteOffset,
    )
    return { dots: this.#dots, estimates: this.#estimates }
  }

  collect(threshold: number, rows: number): Int32Array {
    const count = this.#collectFn(
      this.#estimates.byteOffset,
      rows,
      threshold,
      this.#picked.byteOffset,
    )
    return this.#picked.subarray(0, count)
  }

  dotRow(row: number): number {
    return rowDot(this.codes, row * this.#stride, this.#query, this.#stride)
  }

  dotRows(rows: readonly number[]): Int32Array {
    // The list goes where `collect` writes its rows; both are scratch between calls.
    const list = this.#picked
    const count = Math.min(rows.length, list.length)
    for (let i = 0; i < count; i++) list[i] = rows[i] as number
    this.#gatherFn(0, 0, list.byteOffset, count, this.#dots.byteOffset, this.#codesOffset)
    return this.#dots.subarray(0, count)
  }

  bytes(): number {
    return this.#memory.buffer.byteLength
  }
}

/** A kernel for rows of `stride` bytes: the SIMD one if asked for and available, else JS. */
export function createKernel(stride: number, wasm: boolean): ScanKernel {
  const module = wasm ? scanModule(stride) : undefined
  return module ? new WasmKernel(module, stride) : new JsKernel(stride)
}

const modules = new Map<number, WebAssembly.Module | null>()

/** The compiled scan for `stride`, or `undefined` where WebAssembly SIMD is unavailable. */
function scanModule(stride: number): WebAssembly.Module | undefined {
  let module = modules.get(stride)
  if (module === undefined) {
    try {
      module = new WebAssembly.Module(scanModuleBytes(stride))
    } catch {
      // No WebAssembly, no SIMD, or a CSP without 'wasm-unsafe-eval': the JS scan takes over.
      module = null
    }
    modules.set(stride, module)
  }
  return module ?? undefined
}
