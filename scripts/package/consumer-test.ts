/**
 * What a web developer who installs Engram gets, checked end to end: build and pack the package
 * (from a staging copy, so the repo's own `dist/` is never touched), lint it (publint, Are the
 * Types Wrong), create a fresh Vite + TypeScript app with a strict tsconfig
 * (scripts/package/consumer-app/), install the tarball beside vite and typescript from the npm
 * registry (measured), type-check it, `vite build` it, then open the served build and the
 * `vite dev` server in Chromium: the worker must start, the tiny generated model must load from
 * the app's own origin on WASM, remember/recall must work, and every request — page, worker,
 * wasm, model — must go to the app's own origin.
 *
 * `npx tsx scripts/package/consumer-test.ts` prints the report; test/package runs it in
 * `npm test`. Network: the npm registry only (through npm and its cache).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import {
  copyFile,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../chromium.ts'
import { ensureModel } from '../make-models.ts'
import { serveStatic } from '../serve-static.ts'
import { buildPackage, ROOT } from './build.ts'
import type { Outcome } from './consumer-app/src/main.ts'

const run = promisify(execFile)

/** Packages a browser app must never install through Engram (native runtimes, image codecs). */
export const FORBIDDEN_PACKAGES = [
  'onnxruntime-node',
  'onnxruntime-web',
  '@huggingface/transformers',
  'sharp',
]

const MODEL = 'engram-test/tiny'

export interface PageCheck {
  /** What the app wrote to `document.body.dataset.outcome`. */
  outcome: Outcome | undefined
  /** Every request the page and its workers made, in order. */
  requests: string[]
  /** Requests to any origin but the app's (all were aborted). */
  foreign: string[]
  /** Script URLs of the workers the page started. */
  workers: string[]
  /** Uncaught page errors. */
  errors: string[]
}

export interface ConsumerReport {
  tarball: { name: string; bytes: number; unpackedBytes: number; files: string[] }
  publint: string
  attw: string
  install: {
    ms: number
    /** All of the app's node_modules (Engram, vite, typescript and their dependencies). */
    bytes: number
    /** Engram and the packages it brings. */
    engramBytes: number
    engramPackages: string[]
    packages: string[]
  }
  typecheck: { ms: number }
  build: { ms: number; files: { path: string; bytes: number }[] }
  served: PageCheck | undefined
  dev: PageCheck | undefined
  ms: number
}

export interface ConsumerOptions {
  root?: string
  /** Folder for the staged package and the app. @default a new folder in the OS temp dir */
  workDir?: string
  /** Skip the Chromium checks (a machine where Chromium cannot start). */
  browser?: boolean
  /** Keep the work folder afterwards. */
  keep?: boolean
  log?: (line: string) => void
}

/** Runs every stage and returns what each found; it throws only when a stage cannot run. */
export async function runConsumerTest(options: ConsumerOptions = {}): Promise<ConsumerReport> {
  const root = options.root ?? ROOT
  const log = options.log ?? (() => {})
  const started = performance.now()
  const work = options.workDir ?? (await mkdtemp(join(tmpdir(), 'engram-consumer-')))
  try {
    const stage = join(work, 'package')
    const tarball = await stageAndPack(root, stage, work)
    log(`packed ${tarball.name}: ${tarball.files.length} files, ${mb(tarball.bytes)}`)
    const publint = await tool(root, 'publint', ['--strict', stage])
    const attw = await tool(root, 'attw', [
      join(work, tarball.name),
      '--profile',
      'esm-only',
      '--format',
      'ascii',
    ])
    log('publint and attw passed')
    const app = join(work, 'app')
    await createApp(root, app)
    const install = await installApp(root, app, join(work, tarball.name))
    log(
      `installed in ${install.ms} ms: ${mb(install.bytes)} (Engram's share ${mb(install.engramBytes)})`,
    )
    const typecheck = await timed(() => run(bin(app, 'tsc'), ['--noEmit', '-p', app], { cwd: app }))
    log(`tsc --noEmit passed in ${typecheck.ms} ms`)
    const build = await buildApp(app)
    log(`vite build in ${build.ms} ms`)
    let served: PageCheck | undefined
    let dev: PageCheck | undefined
    if (options.browser !== false) {
      const browser = await launchChromium()
      try {
        served = await checkServedBuild(browser, app)
        log(`served build: ${served.outcome?.ok ? 'ok' : (served.outcome?.error ?? 'no outcome')}`)
        dev = await checkDevServer(browser, app)
        log(`vite dev: ${dev.outcome?.ok ? 'ok' : (dev.outcome?.error ?? 'no outcome')}`)
      } finally {
        await browser.close()
      }
    }
    return {
      tarball,
      publint,
      attw,
      install,
      typecheck: { ms: typecheck.ms },
      build,
      served,
      dev,
      ms: Math.round(performance.now() - started),
    }
  } finally {
    if (!options.keep && !options.workDir) await rm(work, { recursive: true, force: true })
  }
}

/** The files `npm publish` would ship, built into a copy, packed without lifecycle scripts. */
async function stageAndPack(
  root: string,
  stage: string,
  out: string,
): Promise<ConsumerReport['tarball']> {
  await mkdir(stage, { recursive: true })
  await buildPackage({ root, outDir: join(stage, 'dist') })
  for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
    await copyFile(join(root, file), join(stage, file))
  }
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', out],
    { cwd: stage, maxBuffer: 16 * 1024 * 1024 },
  )
  const [packed] = JSON.parse(stdout) as {
    filename: string
    size: number
    unpackedSize: number
    files: { path: string }[]
  }[]
  if (!packed) throw new Error(`npm pack printed no result: ${stdout}`)
  return {
    name: packed.filename,
    bytes: packed.size,
    unpackedBytes: packed.unpackedSize,
    files: packed.files.map((f) => f.path).sort(),
  }
}

/** Runs a lint tool from the repo's node_modules; its output, or a throw with it. */
async function tool(root: string, name: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(bin(root, name), args, { cwd: root })
    return `${stdout}${stderr}`
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`${name} failed:\n${stdout}${stderr}`, { cause: error })
  }
}

/** The template app, its package.json (vite and typescript at the repo's versions), the model. */
async function createApp(root: string, app: string): Promise<void> {
  await cp(join(root, 'scripts/package/consumer-app'), app, { recursive: true })
  await writeJson(join(app, 'package.json'), {
    name: 'engram-consumer',
    private: true,
    type: 'module',
  })
  const model = await ensureModel('tiny', join(root, '.models'))
  const target = join(app, 'public/models', MODEL)
  await cp(model, target, { recursive: true })
  // What `dtype: 'q8'` (the WASM default) fetches; a copy of the fp32 graph loads the same.
  // Without it a dev server's HTML fallback would answer for the missing file.
  await copyFile(join(target, 'onnx/model.onnx'), join(target, 'onnx/model_quantized.onnx'))
}

async function installApp(
  root: string,
  app: string,
  tarball: string,
): Promise<ConsumerReport['install']> {
  const versions = await devVersions(root, ['vite', 'typescript'])
  const { ms } = await timed(() =>
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...versions], {
      cwd: app,
      maxBuffer: 16 * 1024 * 1024,
    }),
  )
  const modules = join(app, 'node_modules')
  const packages = await installedPackages(modules)
  const engramPackages = await dependencyClosure(modules, 'engram')
  let engramBytes = 0
  for (const name of engramPackages) engramBytes += await folderBytes(join(modules, name))
  return { ms, bytes: await folderBytes(modules), engramBytes, engramPackages, packages }
}

async function buildApp(app: string): Promise<ConsumerReport['build']> {
  const { ms } = await timed(() =>
    run(bin(app, 'vite'), ['build', '--logLevel', 'warn'], {
      cwd: app,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 16 * 1024 * 1024,
    }),
  )
  const dist = join(app, 'dist')
  const files = await filesUnder(dist)
  return { ms, files }
}

async function checkServedBuild(browser: Browser, app: string): Promise<PageCheck> {
  const server = await serveStatic({ root: join(app, 'dist') })
  try {
    return await checkPage(browser, server.url)
  } finally {
    await server.close()
  }
}

async function checkDevServer(browser: Browser, app: string): Promise<PageCheck> {
  const port = await freePort()
  const child = spawn(
    bin(app, 'vite'),
    ['--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  try {
    const url = await listening(child, `http://127.0.0.1:${port}/`)
    return await checkPage(browser, url)
  } finally {
    child.kill()
  }
}

/** Opens `url` in a fresh context where only its own origin answers, and waits for the outcome. */
async function checkPage(browser: Browser, url: string): Promise<PageCheck> {
  const origin = new URL(url).origin
  const context = await browser.newContext()
  const check: PageCheck = {
    outcome: undefined,
    requests: [],
    foreign: [],
    workers: [],
    errors: [],
  }
  try {
    const local = (href: string) => /^(blob|data):/.test(href) || new URL(href).origin === origin
    context.on('request', (request) => check.requests.push(request.url()))
    await context.route('**/*', (route) => {
      const href = route.request().url()
      if (local(href)) return route.continue()
      check.foreign.push(href)
      return route.abort('blockedbyclient')
    })
    const page = await context.newPage()
    page.on('pageerror', (error) => check.errors.push(error.message))
    page.on('worker', (worker) => check.workers.push(worker.url()))
    await page.goto(url)
    await page.waitForSelector('body[data-outcome]', { timeout: 90_000 })
    const text = await page.getAttribute('body', 'data-outcome')
    check.outcome = text ? (JSON.parse(text) as Outcome) : undefined
    return check
  } finally {
    await context.close()
  }
}

/** Resolves with `url` once the dev server answers it; rejects if the server exits first. */
function listening(child: ChildProcess, url: string): Promise<string> {
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += String(chunk)
  })
  child.stderr?.on('data', (chunk) => {
    output += String(chunk)
  })
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000
    const exited = () => reject(new Error(`vite dev exited:\n${output}`))
    child.once('exit', exited)
    const poll = async (): Promise<void> => {
      const ok = await fetch(url)
        .then((r) => r.ok)
        .catch(() => false)
      if (ok) {
        child.off('exit', exited)
        resolve(url)
      } else if (Date.now() > deadline) {
        reject(new Error(`vite dev did not answer ${url}:\n${output}`))
      } else setTimeout(() => void poll(), 200)
    }
    void poll()
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** `name@version` of the repo's own devDependencies, so the app installs what the npm cache has. */
async function devVersions(root: string, names: string[]): Promise<string[]> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>
  }
  return names.map((name) => `${name}@${pkg.devDependencies[name] ?? 'latest'}`)
}

/** Top-level package names under node_modules (scoped ones as `@scope/name`). */
async function installedPackages(modules: string): Promise<string[]> {
  const names: string[] = []
  for (const entry of await readdir(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    if (entry.name.startsWith('@')) {
      for (const inner of await readdir(join(modules, entry.name))) {
        names.push(`${entry.name}/${inner}`)
      }
    } else names.push(entry.name)
  }
  return names.sort()
}

/** `name` and everything its `dependencies` pull in, as installed (hoisted) under `modules`. */
async function dependencyClosure(modules: string, name: string): Promise<string[]> {
  const seen = new Set<string>()
  const visit = async (pkg: string): Promise<void> => {
    if (seen.has(pkg)) return
    seen.add(pkg)
    const manifest = JSON.parse(
      await readFile(join(modules, pkg, 'package.json'), 'utf8').catch(() => '{}'),
    ) as { dependencies?: Record<string, string> }
    for (const dep of Object.keys(manifest.dependencies ?? {})) await visit(dep)
  }
  await visit(name)
  return [...seen].sort()
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) total += await folderBytes(full)
    else if (entry.isFile()) total += (await stat(full)).size
  }
  return total
}

async function filesUnder(dir: string, base = dir): Promise<{ path: string; bytes: number }[]> {
  const out: { path: string; bytes: number }[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await filesUnder(full, base)))
    else out.push({ path: full.slice(base.length + 1), bytes: (await stat(full)).size })
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`)
}

async function timed<T>(task: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await task()
  return { value, ms: Math.round(performance.now() - started) }
}

function bin(dir: string, name: string): string {
  return join(dir, 'node_modules', '.bin', name)
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const report = await runConsumerTest({
    keep: process.argv.includes('--keep'),
    log: (line) => console.log(line),
  })
  const { files: _files, ...tarball } = report.tarball
  console.log(
    JSON.stringify(
      { ...report, tarball: { ...tarball, files: report.tarball.files.length } },
      null,
      2,
    ),
  )
}
