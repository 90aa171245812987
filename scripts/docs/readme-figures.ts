/**
 * The README's install figures (how many packages and megabytes a browser app gets with Engram,
 * and how much of that is ONNX Runtime's wasm), measured by the package consumer test rather
 * than typed by hand. The figures sit between `<!-- install-figures -->` and
 * `<!-- /install-figures -->`; test/package checks them against each run.
 *
 * `npx tsx scripts/docs/readme-figures.ts` prints them; `--write` puts them in README.md.
 * Network: the npm registry (the consumer test installs the packed tarball into a fresh app).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ConsumerReport } from '../package/consumer-test.ts'

/** What the README says about an install. */
export interface InstallFigures {
  /** Engram and every package it brings. */
  packages: number
  /** Their size on disk, in whole megabytes (10^6 bytes). */
  megabytes: number
  /** Of which ONNX Runtime's wasm, as a built app emits it. */
  wasmMegabytes: number
}

const OPEN = '<!-- install-figures -->'
const CLOSE = '<!-- /install-figures -->'

/** The figures a consumer-test run measured. */
export function installFigures(report: Pick<ConsumerReport, 'install' | 'build'>): InstallFigures {
  const wasm = report.build.files.find((file) => file.path.endsWith('.wasm'))
  return {
    packages: report.install.engramPackages.length,
    megabytes: Math.round(report.install.engramBytes / 1e6),
    wasmMegabytes: Math.round((wasm?.bytes ?? 0) / 1e6),
  }
}

/**
 * @example
 * figureText({ packages: 9, megabytes: 38, wasmMegabytes: 27 })
 * // => "9 packages and 38 MB (27 MB of it ONNX Runtime's wasm)"
 */
export function figureText(f: InstallFigures): string {
  return `${f.packages} packages and ${f.megabytes} MB (${f.wasmMegabytes} MB of it ONNX Runtime's wasm)`
}

/** The figures a README states, or undefined when it has no marked sentence. */
export function readmeFigures(readme: string): InstallFigures | undefined {
  const start = readme.indexOf(OPEN)
  const end = readme.indexOf(CLOSE)
  if (start < 0 || end < start) return undefined
  const text = readme.slice(start + OPEN.length, end)
  const m = /^(\d+) packages and (\d+) MB \((\d+) MB of it ONNX Runtime's wasm\)$/.exec(text)
  if (!m) return undefined
  return { packages: Number(m[1]), megabytes: Number(m[2]), wasmMegabytes: Number(m[3]) }
}

/** The README with its marked sentence replaced by `f`. */
export function withFigures(readme: string, f: InstallFigures): string {
  const start = readme.indexOf(OPEN)
  const end = readme.indexOf(CLOSE)
  if (start < 0 || end < start) throw new Error(`README.md has no ${OPEN} … ${CLOSE} sentence`)
  return `${readme.slice(0, start + OPEN.length)}${figureText(f)}${readme.slice(end)}`
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { ROOT } = await import('../package/build.ts')
  const { runConsumerTest } = await import('../package/consumer-test.ts')
  const report = await runConsumerTest({ browser: false, log: (line) => console.error(line) })
  const figures = installFigures(report)
  console.log(figureText(figures))
  if (process.argv.includes('--write')) {
    const path = join(ROOT, 'README.md')
    writeFileSync(path, withFigures(readFileSync(path, 'utf8'), figures))
    console.log('README.md updated')
  }
}
