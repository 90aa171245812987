import { describe, expect, it } from 'vitest'
import { JsKernel, type ScanKernel } from '../../../../src/core/vector/kernel.ts'
import { strideFor } from '../../../../src/core/vector/quantise.ts'
import { createKernel } from '../../../../src/core/vector/wasm-kernel.ts'
import { rng, unitVectors } from './fixtures.ts'

/** Both kinds of kernel for `stride`, holding the same seeded codes and steps. */
function kernels(stride: number, rows: number, seed: number): ScanKernel[] {
  const random = rng(seed)
  const codes = Int8Array.from({ length: rows * stride }, () => Math.round(254 * random()) - 127)
  const steps = Float32Array.from({ length: rows }, () => random() / 127)
  return [createKernel(stride, true), new JsKernel(stride)].map((kernel) => {
    kernel.reserve(rows)
    kernel.codes.set(codes)
    kernel.steps.set(steps)
    return kernel
  })
}

describe('scan kernels', () => {
  it('uses WebAssembly SIMD in Node, and JS when told not to', () => {
    expect(createKernel(384, true).kind).toBe('wasm')
    expect(createKernel(384, false).kind).toBe('js')
  })

  for (const dims of [7, 100, 384, 1000, 1536]) {
    it(`gives the same dots, estimates and collected rows from SIMD and JS (${dims} dims)`, () => {
      const stride = strideFor(dims)
      const [wasm, js] = kernels(stride, 700, dims) as [ScanKernel, ScanKernel]
      const query = unitVectors(1, stride, dims + 1)[0] as Float32Array
      expect(wasm.prepare(query)).toBe(js.prepare(query))
      const a = wasm.scan(700)
      const b = js.scan(700)
      expect(a.dots.subarray(0, 700)).toEqual(b.dots.subarray(0, 700))
      expect(a.estimates.subarray(0, 700)).toEqual(b.estimates.subarray(0, 700))
      for (const r of [0, 1, 350, 699]) {
        expect(wasm.dotRow(r)).toBe(a.dots[r])
        expect(a.estimates[r]).toBe(Math.fround(Math.fround(a.dots[r] as number) * js.steps[r]!))
      }
      const sorted = [...a.estimates.subarray(0, 700)].sort((x, y) => y - x)
      const threshold = sorted[69] as number
      const expected = [...a.estimates.subarray(0, 700).keys()].filter(
        (r) => (a.estimates[r] as number) >= threshold,
      )
      expect([...wasm.collect(threshold, 700)]).toEqual(expected)
      expect([...js.collect(threshold, 700)]).toEqual(expected)
      expect(expected.length).toBeGreaterThanOrEqual(70)
    })
  }

  it('scans and collects nothing for zero rows', () => {
    const [wasm] = kernels(16, 4, 1) as [ScanKernel]
    wasm.prepare(unitVectors(1, 16, 2)[0] as Float32Array)
    wasm.scan(0)
    expect([...wasm.collect(Number.NEGATIVE_INFINITY, 0)]).toEqual([])
  })

  for (const wasm of [true, false]) {
    it(`keeps codes and steps through growth (${wasm ? 'SIMD' : 'JS'})`, () => {
      const stride = 48
      const kernel = createKernel(stride, wasm)
      const random = rng(7)
      const codes = Int8Array.from({ length: 100 * stride }, () => Math.round(254 * random()) - 127)
      const steps = Float32Array.from({ length: 100 }, () => random())
      kernel.reserve(100)
      kernel.codes.set(codes)
      kernel.steps.set(steps)
      for (const capacity of [101, 5000, 80_000]) {
        kernel.reserve(capacity)
        expect(kernel.codes.length).toBe(capacity * stride)
        expect(kernel.steps.length).toBe(capacity)
        expect(kernel.codes.subarray(0, 100 * stride)).toEqual(codes)
        expect(kernel.steps.subarray(0, 100)).toEqual(steps)
      }
    })
  }
})
