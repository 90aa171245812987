/**
 * Builds the published package into `dist/` (`npm run build`; `npm pack` runs it as prepack):
 *
 * - `dist/**.js` — the library, one module per source file (rolldown, `preserveModules`), with
 *   its runtime dependencies (comlink, dexie, minisearch, …) left as imports for the consumer's
 *   bundler, and transformers.js imported as `#transformers` (package.json `imports`: the real
 *   `@huggingface/transformers` in Node, the vendored web build below everywhere else).
 * - `dist/worker/memory-worker.js` — the module worker, self-contained: every dependency is
 *   bundled in, so a dev server never has to discover and pre-bundle a worker's dependencies
 *   late (the cause of `vite dev`'s bare "the memory worker failed").
 * - `dist/vendor/transformers.js` + `dist/vendor/ort-wasm-simd-threaded.asyncify.wasm` —
 *   transformers.js' web build with ONNX Runtime Web inlined. ORT finds its wasm with
 *   `new URL('ort-wasm-….wasm', import.meta.url)`, which the consumer's bundler turns into one
 *   emitted file on the consumer's own origin.
 * - `dist/vendor/tfjs.js` — TF.js (core, WASM backend, graph converter) for `UseEmbedder` in
 *   the worker, which imports it only for `{ kind: 'use' }`. TF.js finds its own wasm through
 *   `wasmPaths`, so no asset is referenced here.
 * - `dist/vendor/pouchdb.js` — PouchDB as sync uses it (core, HTTP adapter, replicator, IndexedDB
 *   adapter; `src/sync/pouch.ts`) built for browsers, imported by `dist/sync/` as `#pouchdb`
 *   (package.json `imports`: `dist/sync/pouch.js` over the real packages in Node, which are
 *   optional peer dependencies there, and this file everywhere else). So an app that never
 *   syncs installs no PouchDB and its bundler still resolves every import.
 * - `dist/**.d.ts` — tsc declarations, their relative specifiers rewritten from `.ts` to `.js`.
 *
 * The build ends by checking that every relative import and `new URL(…, import.meta.url)` in
 * `dist/` names a file that exists.
 */
import { execFile } from 'node:child_process'
import { copyFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { build, type Plugin } from 'rolldown'

const run = promisify(execFile)

export const ROOT = resolve(import.meta.dirname, '..', '..')

/** The wasm of the ONNX Runtime Web build transformers.js' web build imports (`onnxruntime-web/webgpu`). */
export const ORT_WASM = 'ort-wasm-simd-threaded.asyncify.wasm'

const SPECIFIER_TRANSFORMERS = '@huggingface/transformers'
const TARGET = 'es2022'

/** Bare specifiers: packages and `node:` built-ins, anything not relative or absolute. */
const isBare = (id: string): boolean =>
  !id.startsWith('.') && !id.startsWith('/') && !/^\w:/.test(id)

export interface BuildResult {
  outDir: string
  /** Every file written, relative to `outDir`, with its size in bytes. */
  files: { path: string; bytes: number }[]
  ms: number
}

/** Builds the package into `outDir` (default `<root>/dist`), replacing what was there. */
export async function buildPackage(
  options: { root?: string; outDir?: string; log?: (line: string) => void } = {},
): Promise<BuildResult> {
  const root = options.root ?? ROOT
  const outDir = options.outDir ?? join(root, 'dist')
  const log = options.log ?? (() => {})
  const started = performance.now()
  await rm(outDir, { recursive: true, force: true })
  await buildLibrary(root, outDir)
  log('library modules built')
  await buildWorker(root, outDir)
  log('worker bundle built')
  await buildVendor(root, outDir)
  log('transformers.js web build vendored')
  await buildDeclarations(root, outDir)
  log('declarations emitted')
  const files = await listFiles(outDir)
  await checkReferences(outDir, files)
  log('references checked')
  return { outDir, files, ms: Math.round(performance.now() - started) }
}

/** `new URL('./x.ts', import.meta.url)` → `.js`, as `rewriteRelativeImportExtensions` does for imports. */
function urlExtensions(): Plugin {
  const pattern = /new URL\((['"])(\.{1,2}\/[^'"]+)\.ts\1,\s*import\.meta\.url\)/g
  return {
    name: 'engram:url-extensions',
    transform(code) {
      if (!code.includes('import.meta.url')) return null
      const out = code.replace(pattern, (_, q: string, path: string) => {
        return `new URL(${q}${path}.js${q}, import.meta.url)`
      })
      return out === code ? null : { code: out }
    },
  }
}

/** transformers.js resolves per environment through package.json `imports`. */
function transformersAs(target: string): Plugin {
  return {
    name: 'engram:transformers',
    resolveId(id) {
      return id === SPECIFIER_TRANSFORMERS ? { id: target, external: true } : null
    },
  }
}

/**
 * transformers.js' own minified web build. Minifying here instead would undo ORT's guard against
 * bundlers (`let t = URL; new t('ort.webgpu.bundle.min.mjs', import.meta.url)`, a Node-only
 * path) and make consumers' bundlers look for a file that does not exist.
 */
function transformersWebBuild(root: string): Plugin {
  const file = join(root, 'node_modules/@huggingface/transformers/dist/transformers.web.min.js')
  return {
    name: 'engram:transformers-web-build',
    resolveId(id) {
      return id === SPECIFIER_TRANSFORMERS ? file : null
    },
  }
}

/**
 * ORT names its own script (`ort.webgpu.bundle.min.mjs`) with `new URL(…, import.meta.url)` to
 * start pthread workers from a `file:` URL. Inlined here, its script is this very file; left as
 * it was, consumers' bundlers would look for a file that does not exist (webpack fails on it).
 */
function ortSelfUrl(): Plugin {
  const pattern = /new URL\((['"`])ort\.webgpu\.bundle\.min\.mjs\1,\s*import\.meta\.url\)/g
  return {
    name: 'engram:ort-self-url',
    renderChunk(code) {
      const out = code.replace(pattern, 'new URL(import.meta.url)')
      return out === code ? null : { code: out }
    },
  }
}

/** `src/sync/pouch.ts` as its importers see it: `#pouchdb` (see package.json `imports`). */
const POUCH_MODULE = 'src/sync/pouch.ts'

function pouchAs(root: string, target: string): Plugin {
  const file = join(root, POUCH_MODULE)
  return {
    name: 'engram:pouchdb',
    resolveId(id, importer) {
      if (!importer || !id.endsWith('/pouch.ts')) return null
      return resolve(dirname(importer), id) === file ? { id: target, external: true } : null
    },
  }
}

async function buildLibrary(root: string, outDir: string): Promise<void> {
  await build({
    input: {
      index: join(root, 'src/index.ts'),
      'embedder/index': join(root, 'src/embedder/index.ts'),
      'agent/index': join(root, 'src/agent/index.ts'),
      'import/index': join(root, 'src/import/index.ts'),
      'connect/index': join(root, 'src/connect/index.ts'),
      'sync/index': join(root, 'src/sync/index.ts'),
      'engine/index': join(root, 'src/engine/index.ts'),
      // Node's `#pouchdb`: imported by nothing here (the plugin answers `#pouchdb` instead).
      'sync/pouch': join(root, POUCH_MODULE),
    },
    platform: 'neutral',
    external: (id) => isBare(id) && id !== SPECIFIER_TRANSFORMERS,
    plugins: [transformersAs('#transformers'), pouchAs(root, '#pouchdb'), urlExtensions()],
    transform: { target: TARGET },
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warn',
    output: {
      dir: outDir,
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: join(root, 'src'),
      entryFileNames: '[name].js',
    },
  })
}

/**
 * The worker's TF.js packages, all answered by the vendored `dist/vendor/tfjs.js`, so the 1.7 MB
 * of TF.js is fetched only by a memory that chooses `{ kind: 'use' }`.
 */
const SPECIFIERS_TFJS = [
  '@tensorflow/tfjs-core',
  '@tensorflow/tfjs-backend-wasm',
  '@tensorflow/tfjs-converter',
]

function tfjsAs(target: string): Plugin {
  return {
    name: 'engram:tfjs',
    resolveId(id) {
      return SPECIFIERS_TFJS.includes(id) ? { id: target, external: true } : null
    },
  }
}

async function buildWorker(root: string, outDir: string): Promise<void> {
  await build({
    input: { 'memory-worker': join(root, 'src/worker/memory-worker.ts') },
    platform: 'browser',
    resolve: { conditionNames: ['browser', 'import', 'module', 'default'] },
    // Node built-ins are only reached behind Node-only branches (dynamic, @vite-ignore'd).
    external: (id) => id.startsWith('node:'),
    plugins: [
      transformersAs('../vendor/transformers.js'),
      tfjsAs('../vendor/tfjs.js'),
      urlExtensions(),
    ],
    transform: { target: TARGET },
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warn',
    output: {
      dir: join(outDir, 'worker'),
      format: 'es',
      entryFileNames: '[name].js',
      // One file: a worker that imports chunks needs `worker.format: 'es'` in Vite (and a chunk
      // importing the entry back would load a second worker instance under `vite dev`). The
      // vendored transformers.js and TF.js are separate, lazily imported files anyway.
      codeSplitting: false,
      // A module with no import or export of its own reads as CommonJS to tools (publint).
      footer: 'export {}',
    },
  })
}

async function buildVendor(root: string, outDir: string): Promise<void> {
  const vendor = join(outDir, 'vendor')
  const entry = join(root, 'scripts/package/transformers-entry.ts')
  await build({
    input: { transformers: entry },
    platform: 'browser',
    resolve: { conditionNames: ['browser', 'import', 'module', 'default'] },
    plugins: [transformersWebBuild(root), ortSelfUrl()],
    transform: { target: TARGET },
    logLevel: 'warn',
    output: { dir: vendor, format: 'es', entryFileNames: '[name].js' },
  })
  await build({
    input: { pouchdb: join(root, POUCH_MODULE) },
    platform: 'browser',
    resolve: { conditionNames: ['browser', 'import', 'module', 'default'] },
    transform: { target: TARGET },
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warn',
    output: { dir: vendor, format: 'es', entryFileNames: '[name].js', minify: true },
  })
  await build({
    input: { tfjs: join(root, 'scripts/package/tfjs-entry.ts') },
    platform: 'browser',
    resolve: { conditionNames: ['browser', 'import', 'module', 'default'] },
    transform: { target: TARGET },
    logLevel: 'warn',
    output: { dir: vendor, format: 'es', entryFileNames: '[name].js', minify: true },
  })
  const ortDist = join(root, 'node_modules/onnxruntime-web/dist')
  await copyFile(join(ortDist, ORT_WASM), join(vendor, ORT_WASM))
  // TF.js ships no licence file: Apache-2.0, named in its package.json and its source headers.
  const licences = [
    ['@huggingface/transformers', 'LICENSE'],
    ['onnxruntime-web', 'LICENSE'],
    ['@tensorflow/tfjs-core', 'LICENSE'],
    ['@tensorflow/tfjs-backend-wasm', 'LICENSE'],
    ['@tensorflow/tfjs-converter', 'LICENSE'],
    ['pouchdb-core', 'LICENSE'],
  ] as const
  const notices: string[] = []
  for (const [pkg, file] of licences) {
    const text = await readFile(join(root, 'node_modules', pkg, file), 'utf8').catch(() => '')
    const { version, license } = JSON.parse(
      await readFile(join(root, 'node_modules', pkg, 'package.json'), 'utf8'),
    ) as { version: string; license?: string }
    const body = text.trim() || `${license ?? 'licence'} (the package has no licence file)`
    notices.push(`${pkg} ${version}\n\n${body}\n`)
  }
  await writeFile(
    join(vendor, 'LICENSES.txt'),
    `Bundled into transformers.js, tfjs.js, pouchdb.js and ${ORT_WASM}:\n\n${notices.join('\n---\n\n')}`,
  )
}

async function buildDeclarations(root: string, outDir: string): Promise<void> {
  const tsc = join(root, 'node_modules/.bin/tsc')
  const config = join(root, 'tsconfig.build.json')
  try {
    await run(tsc, ['-p', config, '--outDir', outDir], { cwd: root })
  } catch (error) {
    const { stdout = '' } = error as { stdout?: string }
    throw new Error(`tsc could not emit the declarations:\n${stdout}`, { cause: error })
  }
  const files = await listFiles(outDir)
  const present = new Set(files.map((f) => f.path))
  for (const { path } of files) {
    if (!path.endsWith('.d.ts')) continue
    const file = join(outDir, path)
    const text = await readFile(file, 'utf8')
    const out = text.replace(RELATIVE_SPECIFIER, (whole, lead: string, q: string, spec: string) => {
      const js = declarationTarget(present, dirname(path), spec)
      return js === undefined ? whole : `${lead}${q}${js}${q}`
    })
    if (out !== text) await writeFile(file, out)
  }
}

/** `from './x'`, `import('./x')`: the relative module specifiers of a file. */
const RELATIVE_SPECIFIER = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g

/**
 * The `.js` specifier a declaration should use for `spec`: tsc keeps the sources' `.ts`, and
 * writes inferred types' imports with no extension at all, neither of which a consumer's
 * `moduleResolution: node16` (or a strict bundler setup) resolves.
 */
function declarationTarget(present: Set<string>, dir: string, spec: string): string | undefined {
  const bare = spec.replace(/\.(ts|js)$/, '')
  if (present.has(join(dir, `${bare}.d.ts`))) return `${bare}.js`
  if (present.has(join(dir, bare, 'index.d.ts'))) return `${bare}/index.js`
  return undefined
}

async function listFiles(dir: string, base = dir): Promise<{ path: string; bytes: number }[]> {
  const out: { path: string; bytes: number }[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await listFiles(full, base)))
    else out.push({ path: relative(base, full), bytes: (await stat(full)).size })
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

/** Fails the build when a relative import or asset URL in `dist/` points at nothing. */
async function checkReferences(outDir: string, files: { path: string }[]): Promise<void> {
  const present = new Set(files.map((f) => f.path))
  const missing: string[] = []
  const patterns = [
    /(?:from|import)\s*\(?\s*(['"])(\.{1,2}\/[^'"]+)\1/g,
    /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g,
  ]
  for (const { path } of files) {
    if (!path.endsWith('.js') && !path.endsWith('.d.ts')) continue
    const text = await readFile(join(outDir, path), 'utf8')
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        if (inComment(text, match.index)) continue
        const target = match[2]!
        if (/^[a-z]+:/.test(target)) continue
        const resolved = relative(outDir, join(dirname(join(outDir, path)), target))
        const types = resolved.replace(/\.js$/, '.d.ts')
        const found = present.has(resolved) || (path.endsWith('.d.ts') && present.has(types))
        if (!found) missing.push(`${path} -> ${target}`)
      }
    }
  }
  if (missing.length > 0) {
    throw new Error(`dist/ references files it does not contain:\n  ${missing.join('\n  ')}`)
  }
}

/** Whether `index` lies on a comment line (JSDoc examples name URLs that are not code). */
function inComment(text: string, index: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', index) + 1, index).trimStart()
  return line.startsWith('*') || line.startsWith('//') || line.startsWith('/*')
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  // stderr: `npm pack --json` runs this as prepack and must keep stdout to itself.
  const result = await buildPackage({ log: (line) => console.error(line) })
  const total = result.files.reduce((sum, f) => sum + f.bytes, 0)
  console.error(
    `dist/: ${result.files.length} files, ${(total / 1e6).toFixed(1)} MB, in ${result.ms} ms`,
  )
}
