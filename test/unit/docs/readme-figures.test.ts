/** The README's install sentence: read, rewritten and measured from a consumer-test report. */
import { describe, expect, it } from 'vitest'
import { installFigures, readmeFigures, withFigures } from '../../../scripts/docs/readme-figures.ts'

const README =
  "An install is <!-- install-figures -->7 packages and 33 MB (27 MB of it ONNX Runtime's wasm)<!-- /install-figures --> in all."

describe('README install figures', () => {
  it('reads the marked sentence and rewrites only it', () => {
    expect(readmeFigures(README)).toEqual({ packages: 7, megabytes: 33, wasmMegabytes: 27 })
    const next = withFigures(README, { packages: 9, megabytes: 38, wasmMegabytes: 27 })
    expect(next).toBe(
      "An install is <!-- install-figures -->9 packages and 38 MB (27 MB of it ONNX Runtime's wasm)<!-- /install-figures --> in all.",
    )
    expect(readmeFigures('no marked sentence')).toBeUndefined()
    expect(() => withFigures('no marked sentence', readmeFigures(README)!)).toThrow(
      /install-figures/,
    )
  })

  it('counts the packages Engram brings and rounds their size and the wasm to whole MB', () => {
    const figures = installFigures({
      install: {
        ms: 1,
        bytes: 9e7,
        engramBytes: 37_600_000,
        engramPackages: ['engram', 'dexie', 'comlink'],
        packages: [],
      },
      build: {
        ms: 1,
        files: [
          { path: 'assets/index.js', bytes: 1000 },
          { path: 'assets/ort-wasm-simd-threaded.asyncify-x.wasm', bytes: 26_861_777 },
        ],
      },
    })
    expect(figures).toEqual({ packages: 3, megabytes: 38, wasmMegabytes: 27 })
  })
})
