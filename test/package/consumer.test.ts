/**
 * The package as a web developer installs it (scripts/package/consumer-test.ts): packed, linted,
 * installed into a fresh Vite + strict TypeScript app, type-checked, built, and run in Chromium
 * both built and under `vite dev`. Needs the npm registry (through npm's cache) for vite and
 * typescript; `ENGRAM_SKIP_PACKAGE=1` skips it, `ENGRAM_SKIP_BROWSER=1` skips the Chromium part.
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { installFigures, readmeFigures } from '../../scripts/docs/readme-figures.ts'
import {
  type ConsumerReport,
  FORBIDDEN_PACKAGES,
  type PageCheck,
  runConsumerTest,
} from '../../scripts/package/consumer-test.ts'

const SKIP = Boolean(process.env.ENGRAM_SKIP_PACKAGE)
const BROWSER = !process.env.ENGRAM_SKIP_BROWSER
const WASM = 'ort-wasm-simd-threaded.asyncify'

let report: ConsumerReport

/** What both the served build and the dev server must show. */
function expectWorkingApp(check: PageCheck | undefined): void {
  expect(check?.errors).toEqual([])
  expect(check?.outcome?.error).toBeUndefined()
  const outcome = check!.outcome!
  expect(outcome.ok).toBe(true)
  expect(outcome.device).toBe('wasm')
  expect(outcome.dims).toBe(outcome.expectedDims)
  expect(outcome.dims).toBeGreaterThan(0)
  expect(outcome.vectors).toBe(2)
  expect(outcome.events).toContain('model-ready')
  expect(outcome.sync).toBe('BAD_OPTION')
  expect(outcome.hits?.[0]).toEqual({
    text: 'Priya prefers green tea in the afternoon',
    via: 'both',
  })
}

/** Every script, wasm and model file came from the app's own origin; nothing else was asked. */
function expectOneOrigin(check: PageCheck | undefined): void {
  expect(check?.foreign).toEqual([])
  const origin = new URL(check!.requests[0]!).origin
  for (const url of [...check!.requests, ...check!.workers]) {
    expect(new URL(url).origin, url).toBe(origin)
  }
  expect(check!.workers).toHaveLength(1)
  expect(
    check!.requests.filter((url) => url.includes(`${WASM}`) && url.includes('.wasm')),
  ).toHaveLength(1)
  expect(check!.requests.some((url) => url.endsWith('/onnx/model_quantized.onnx'))).toBe(true)
}

describe.skipIf(SKIP)('the published package in a fresh Vite + TypeScript app', () => {
  beforeAll(async () => {
    report = await runConsumerTest({ browser: BROWSER })
  }, 400_000)

  it('packs only dist/, the README, LICENSE and CHANGELOG', () => {
    const { files } = report.tarball
    const top = new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'])
    expect(files.filter((file) => !file.startsWith('dist/') && !top.has(file))).toEqual([])
    for (const file of top) expect(files).toContain(file)
    for (const entry of [
      'index',
      'embedder/index',
      'sync/index',
      'engine/index',
      'worker/memory-worker',
    ]) {
      expect(files).toContain(`dist/${entry}.js`)
      expect(files).toContain(`dist/${entry}.d.ts`)
    }
    expect(files).toContain('dist/vendor/transformers.js')
    // PouchDB for browsers, so an app that never syncs installs none of it (see #pouchdb).
    expect(files).toContain('dist/vendor/pouchdb.js')
    expect(files).toContain(`dist/vendor/${WASM}.wasm`)
    expect(files.filter((file) => file.endsWith('.wasm'))).toHaveLength(1)
    expect(files.some((file) => /(^|\/)(models|test|scripts|src)\//.test(file))).toBe(false)
  })

  it('packs to a tarball under 10 MB, most of it ONNX Runtime’s wasm', () => {
    expect(report.tarball.bytes).toBeLessThan(10e6)
    expect(report.tarball.unpackedBytes).toBeLessThan(35e6)
  })

  it('passes publint (strict) and Are the Types Wrong for ESM consumers', () => {
    expect(report.publint).toMatch(/All good/)
    const entries = [
      '"engram"',
      '"engram/embedder"',
      '"engram/agent"',
      '"engram/import"',
      '"engram/connect"',
      '"engram/sync"',
      '"engram/engine"',
      '"engram/worker"',
    ]
    for (const entry of entries) {
      expect(report.attw).toContain(entry)
      const section = report.attw.slice(report.attw.indexOf(entry)).split('***')[0]!
      expect(section).toMatch(/node16 \(from ESM\): 🟢/)
      expect(section).toMatch(/bundler: 🟢/)
    }
  })

  it('installs without a native ONNX runtime, transformers.js, sharp or PouchDB', () => {
    for (const name of FORBIDDEN_PACKAGES) expect(report.install.packages).not.toContain(name)
    // PouchDB is an optional peer: the browser build carries its own (dist/vendor/pouchdb.js).
    expect(report.install.packages.filter((name) => name.startsWith('pouchdb'))).toEqual([])
    expect(report.install.engramPackages).toEqual(
      [
        '@noble/ciphers',
        '@noble/hashes',
        '@streamparser/json',
        'comlink',
        'dexie',
        'engram',
        'fflate',
        'layerr',
        'minisearch',
        'stemmer',
        'ulidx',
      ].sort(),
    )
    expect(report.install.engramBytes).toBeLessThan(40e6)
  })

  it('measures the install figures the README states (scripts/docs/readme-figures.ts --write)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    expect(readmeFigures(readme)).toEqual(installFigures(report))
  })

  it("type-checks under the consumer's strict tsconfig and builds with vite", () => {
    expect(report.typecheck.ms).toBeGreaterThan(0)
    const wasm = report.build.files.filter((file) => file.path.endsWith('.wasm'))
    expect(wasm).toHaveLength(1)
    expect(wasm[0]!.path).toMatch(new RegExp(`^assets/${WASM}-[\\w-]+\\.wasm$`))
    expect(report.build.files.some((file) => file.path.startsWith('assets/memory-worker'))).toBe(
      true,
    )
  })

  describe.skipIf(!BROWSER)('in Chromium', () => {
    it('runs the built app: worker, model on WASM, remember and recall', () => {
      expectWorkingApp(report.served)
    })

    it('loads every file of the built app from its own origin', () => {
      expectOneOrigin(report.served)
    })

    it('runs the app under vite dev with no Engram-specific configuration', () => {
      expectWorkingApp(report.dev)
    })

    it('loads every file under vite dev from the dev server', () => {
      expectOneOrigin(report.dev)
    })
  })
})
