/**
 * Shared set-up of the browser tests: build the app once (a lock and a stamp make parallel
 * test files share one `vite build`), serve `dist/` with the tiny static server (stoppable, to
 * go offline), and drive a real Chromium with playwright-core.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { chromiumPath, launchChromium } from '../../scripts/chromium.ts'
import { ensureModel } from '../../scripts/make-models.ts'
import {
  type StaticServer,
  type StaticServerOptions,
  serveStatic,
} from '../../scripts/serve-static.ts'

/** `ENGRAM_SKIP_BROWSER=1` skips the browser suite (a machine where Chromium cannot start). */
export const BROWSER_TESTS = !process.env.ENGRAM_SKIP_BROWSER

export const ROOT = join(import.meta.dirname, '..', '..')
export const DIST = join(ROOT, 'dist-app')
export const RESULTS = join(ROOT, 'test-results', 'browser')
const STAMP = join(DIST, '.engram-build.json')
const LOCK = join(ROOT, 'node_modules', '.cache', 'engram-browser-tests.lock')
const INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json']

/** Runs `task` while holding a cross-process lock (a directory: mkdir is atomic). */
async function withLock<T>(task: () => Promise<T>): Promise<T> {
  await mkdir(join(LOCK, '..'), { recursive: true })
  const deadline = Date.now() + 5 * 60_000
  for (;;) {
    try {
      await mkdir(LOCK)
      break
    } catch {
      const held = await stat(LOCK).catch(() => undefined)
      // A lock older than the slowest build belongs to a crashed run.
      if (held && Date.now() - held.mtimeMs > 4 * 60_000)
        await rm(LOCK, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${LOCK}`)
      await new Promise((done) => setTimeout(done, 200))
    }
  }
  try {
    return await task()
  } finally {
    await rm(LOCK, { recursive: true, force: true })
  }
}

async function inputsHash(): Promise<string> {
  const hash = createHash('sha256')
  const walk = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => undefined)
    if (!info) return
    if (info.isDirectory()) {
      for (const name of (await readdir(path)).sort()) await walk(join(path, name))
    } else {
      hash.update(`${relative(ROOT, path)}:${info.size}:${info.mtimeMs}\n`)
    }
  }
  for (const input of INPUTS) await walk(join(ROOT, input))
  return hash.digest('hex')
}

/**
 * Builds the app with `vite build` unless `dist/` already matches the sources, generates the
 * tiny test model, and unpacks Chromium; once for all test files. Returns `dist/`.
 */
export async function ensureBuilt(): Promise<string> {
  return withLock(async () => {
    const want = await inputsHash()
    const have = await readFile(STAMP, 'utf8').catch(() => '')
    if (have !== want) {
      const vite = join(ROOT, 'node_modules', '.bin', 'vite')
      await promisify(execFile)(vite, ['build', '--logLevel', 'warn'], {
        cwd: ROOT,
        // Vitest sets NODE_ENV=test, which would make import.meta.env.PROD false in the build.
        env: { ...process.env, NODE_ENV: 'production' },
        maxBuffer: 16 * 1024 * 1024,
      })
      await writeFile(STAMP, want)
    }
    await ensureModel('tiny', join(ROOT, '.models'))
    await chromiumPath()
    return DIST
  })
}

export interface BrowserRig {
  browser: Browser
  server: StaticServer
  /** Errors thrown in pages (uncaught), for failing tests with a reason. */
  pageErrors: string[]
  /** A URL of the app with these query parameters. */
  url(params?: Record<string, string>): string
  newContext(): Promise<BrowserContext>
  close(): Promise<void>
}

/** Builds (once), serves and launches Chromium for one test file. */
export async function startRig(
  serverOptions: Partial<StaticServerOptions> = {},
  launch: { args?: string[] } = {},
): Promise<BrowserRig> {
  const dist = await ensureBuilt()
  const server = await serveStatic({
    root: dist,
    mounts: { '/models/': join(ROOT, '.models') },
    ...serverOptions,
  })
  const browser = await launchChromium(launch.args)
  const pageErrors: string[] = []
  const contexts: BrowserContext[] = []
  return {
    browser,
    server,
    pageErrors,
    url(params = {}) {
      const url = new URL(server.url)
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
      return url.href
    },
    async newContext() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      context.on('weberror', (error) => pageErrors.push(String(error.error())))
      contexts.push(context)
      return context
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {})
      await browser.close().catch(() => {})
      await server.close()
    },
  }
}

/**
 * Starts a rig before a test file's tests and closes it after them (nothing when
 * `ENGRAM_SKIP_BROWSER` is set). Call it once at the top of the file; the getter gives the rig.
 */
export function useRig(...options: Parameters<typeof startRig>): () => BrowserRig {
  let rig: BrowserRig | undefined
  beforeAll(async () => {
    if (BROWSER_TESTS) rig = await startRig(...options)
  })
  afterAll(async () => {
    await rig?.close()
  })
  return () => {
    if (!rig) throw new Error('useRig(): the rig has not started (is ENGRAM_SKIP_BROWSER set?)')
    return rig
  }
}

/** Opens the app and waits until its memory is open (or it shows why not). */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await waitReady(page)
}

export async function waitReady(page: Page): Promise<void> {
  await page.waitForSelector('body[data-ready]', { timeout: 20_000 })
  const state = await page.getAttribute('body', 'data-ready')
  if (state !== 'true')
    throw new Error(`the app failed to open: ${await page.textContent('#fatal')}`)
}

/**
 * Waits until the Model card settles and expects it ready (a failed load fails the test). The
 * wait is on the card's `data-state` changing, bounded by the test's own timeout (`timeout: 0`,
 * Playwright's "no limit"): a model that loads slowly on a loaded machine makes the test slower,
 * not failed, and a model that never settles still fails it when the test times out.
 */
export async function modelReady(page: Page, timeout = 0): Promise<void> {
  await page.waitForSelector(
    '#model-state[data-state="ready"], #model-state[data-state="failed"]',
    { timeout },
  )
  expect(await page.textContent('#model-state')).toBe('ready')
}

/**
 * Takes the app offline: waits until the service worker controls the page (installed and
 * activated, so its precache is complete), runs `whileOnline` (a last online visit, checks of
 * what was fetched), stops the server, then reloads the page from the cache with its model
 * ready. Returns how many requests the server had served, for checking none came after.
 */
export async function goOffline(
  rig: BrowserRig,
  page: Page,
  options: { timeout?: number; whileOnline?: () => Promise<void> } = {},
): Promise<number> {
  // Like the model wait: bounded by the test's timeout unless told (0 is Playwright's no limit).
  const timeout = options.timeout ?? 0
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout })
  await options.whileOnline?.()
  await rig.server.close()
  const served = rig.server.requests.length
  await page.reload()
  await waitReady(page)
  await modelReady(page, timeout)
  return served
}

/** Types a fact into the Remember card and waits for its outcome line. */
export async function rememberInUi(
  page: Page,
  text: string,
  options: { tags?: string; type?: string } = {},
): Promise<string> {
  await page.fill('#remember-form [name="text"]', text)
  await page.fill('#remember-form [name="tags"]', options.tags ?? '')
  if (options.type) await page.fill('#remember-form [name="type"]', options.type)
  await page.evaluate(() => {
    document.querySelector('#remember-result')!.textContent = ''
  })
  await page.click('#remember-form button[type="submit"]')
  await page.waitForFunction(
    () =>
      (document.querySelector('#remember-result')?.textContent ?? '') !== '' ||
      [...document.querySelectorAll('#remember-form .field-error')].some(
        (e) => !(e as HTMLElement).hidden,
      ),
  )
  return (await page.textContent('#remember-result')) ?? ''
}

/** Asks the Recall card and returns the rendered hits. */
export async function recallInUi(
  page: Page,
  query: string,
): Promise<{ text: string; via: string; explanation: string }[]> {
  await page.fill('#recall-form [name="query"]', query)
  await page.evaluate(() => {
    document.querySelector('#recall-meta')!.textContent = ''
  })
  await page.click('#recall-form button[type="submit"]')
  await page.waitForFunction(
    () =>
      (document.querySelector('#recall-meta')?.textContent ?? '') !== '' ||
      [...document.querySelectorAll('#recall-form .field-error')].some(
        (e) => !(e as HTMLElement).hidden,
      ),
  )
  return page.$$eval('#recall-results .hit', (items) =>
    items.map((item) => ({
      text: item.querySelector('.hit-text')?.textContent ?? '',
      via: item.querySelector('.via')?.textContent ?? '',
      explanation: item.querySelector('.explanation')?.textContent ?? '',
    })),
  )
}

/** Calls the page's memory client (`window.engram.memory`) and returns the result. */
export function inPage<T>(page: Page, body: string): Promise<T> {
  return page.evaluate(
    `(async () => { const memory = globalThis.engram.memory; ${body} })()`,
  ) as Promise<T>
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS, { recursive: true })
  const path = join(RESULTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

let counter = 0
/** A memory name no other test uses, so tests can share a browser context safely. */
export function uniqueMemory(label: string): string {
  return `${label}-${process.pid}-${++counter}-${Date.now().toString(36)}`
}
