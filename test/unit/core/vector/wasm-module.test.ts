import { describe, expect, it } from 'vitest'
import { strideFor } from '../../../../src/core/vector/quantise.ts'
import { scanModuleBytes } from '../../../../src/core/vector/wasm-module.ts'

describe('scanModuleBytes', () => {
  it('assembles a valid module exporting scan, collect and gather for every stride up to 16384 dims', () => {
    const strides = new Set(Array.from({ length: 1024 }, (_, i) => strideFor(16 * (i + 1))))
    for (const stride of strides) {
      const bytes = scanModuleBytes(stride)
      expect(WebAssembly.validate(bytes)).toBe(true)
      // Browser main threads refuse to compile modules over 4 KB synchronously.
      expect(bytes.length).toBeLessThan(4096)
      const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name)
      expect(names).toEqual(['scan', 'collect', 'gather'])
    }
  })
})
