/**
 * Builds the bench worker with Vite's build API, serves it on 127.0.0.1 and drives it in a
 * headless Chromium (playwright-core), one store size per call. Results come back as the same
 * {@link SystemResult} rows as Node's.
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, chromiumPath } from '../../chromium.ts'
import { serveStatic } from '../../serve-static.ts'
import { pgliteTemplate } from '../node-env.ts'
import type { SystemKey } from '../suite.ts'
import type { SystemResult } from '../types.ts'
import type { WorkerRequest } from './bench-worker.ts'
import { bundleWorker } from './bundle-worker.ts'

const HERE = import.meta.dirname
// Outside the repository: a bundle under it would be linted and formatted as source.
export const OUT = join(tmpdir(), `engram-bench-browser-${process.pid}`)

export interface ChromiumOptions {
  sizes: number[]
  systems: readonly SystemKey[]
  /** Skip a system at sizes above this (PGlite's IndexedDB file system rewrites whole files). */
  maxSize?: Partial<Record<SystemKey, number>>
  texts: string[]
  queries: string[]
  probes: number
  recallBudgetMs: number
  coldRuns: (size: number) => number
  exactQueries: number
  log(line: string): void
}

export interface ChromiumRun {
  version: string
  results: SystemResult[]
}

/** Bundles `bench-worker.ts` and everything it imports (PGlite's wasm and data as files). */
export async function buildWorker(): Promise<void> {
  await bundleWorker(join(HERE, 'bench-worker.ts'), OUT, 'bench-worker.js')
  await copyFile(join(HERE, 'index.html'), join(OUT, 'index.html'))
}

export async function runChromium(options: ChromiumOptions): Promise<ChromiumRun> {
  const { log } = options
  log('chromium: building the bench worker')
  await buildWorker()
  await mkdir(join(OUT, 'data'), { recursive: true })
  await writeFile(
    join(OUT, 'data', 'corpus.json'),
    JSON.stringify({ texts: options.texts, queries: options.queries }),
  )
  const template = await pgliteTemplate()
  await writeFile(
    join(OUT, 'data', 'pglite-template.tar'),
    new Uint8Array(await template.arrayBuffer()),
  )
  const server = await serveStatic({ root: OUT })
  const browser = await launchBench()
  try {
    const context = await browser.newContext()
    const results: SystemResult[] = []
    for (const size of options.sizes) {
      const systems = options.systems.filter((s) => size <= (options.maxSize?.[s] ?? Infinity))
      // A fresh page (and worker) per size: nothing of the last size stays in its heap.
      const page = await context.newPage()
      page.on('console', (message) => {
        const text = message.text()
        if (text.startsWith('[bench] ')) log(`chromium: ${text.slice(8)}`)
      })
      page.on('pageerror', (error) => log(`chromium: page error ${error.message}`))
      let heap: (() => Promise<number | undefined>) | undefined
      await page.exposeFunction('benchHeap', () => heap?.())
      await page.goto(`${server.url}index.html`)
      await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady)
      heap = await workerHeap(browser)
      const request: WorkerRequest = {
        size,
        systems,
        queries: options.queries.length,
        probes: options.probes,
        recallBudgetMs: options.recallBudgetMs,
        coldRuns: options.coldRuns(size),
        exactQueries: options.exactQueries,
        tag: Date.now().toString(36),
      }
      try {
        results.push(
          ...(await page.evaluate(
            (r) =>
              (
                window as unknown as { benchSize(r: WorkerRequest): Promise<SystemResult[]> }
              ).benchSize(r),
            request,
          )),
        )
      } catch (error) {
        log(`chromium: size ${size} failed: ${error}`)
        for (const system of systems) {
          results.push({ system, size, recall: {}, error: `the worker failed: ${error}` })
        }
      }
      await page.close().catch(() => {})
      for (const skipped of options.systems.filter((s) => !systems.includes(s))) {
        results.push({
          system: skipped,
          size,
          recall: {},
          error: `not run above ${options.maxSize?.[skipped]?.toLocaleString('en')} memories`,
        })
      }
    }
    return { version: browser.version(), results }
  } finally {
    await browser.close().catch(() => {})
    await server.close()
    await rm(OUT, { recursive: true, force: true })
  }
}

/** Headless Chromium with `gc()` exposed and precise memory figures. */
export async function launchBench(): Promise<import('playwright-core').Browser> {
  return chromium.launch({
    executablePath: await chromiumPath(),
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--headless=new',
      '--js-flags=--expose-gc',
      '--enable-precise-memory-info',
    ],
  })
}

/**
 * Reads the bench worker's heap over the DevTools protocol: a browser session attached to the
 * worker target (non-flat, so Playwright's session can carry it).
 */
export async function workerHeap(
  browser: import('playwright-core').Browser,
): Promise<(() => Promise<number | undefined>) | undefined> {
  const cdp = await browser.newBrowserCDPSession()
  type Target = { targetId: string; type: string; url: string }
  let worker: Target | undefined
  for (let i = 0; i < 50 && !worker; i++) {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Target[] }
    worker = targetInfos.find((t) => t.type === 'worker' && t.url.includes('bench-worker'))
    if (!worker) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (!worker) return undefined
  const { sessionId } = (await cdp.send('Target.attachToTarget', {
    targetId: worker.targetId,
    flatten: false,
  })) as { sessionId: string }
  let next = 0
  const waiting = new Map<number, (message: { result?: Record<string, number> }) => void>()
  cdp.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: Record<string, number> }
    if (message.id !== undefined) waiting.get(message.id)?.(message)
  })
  return async () => {
    const id = ++next
    const reply = new Promise<{ result?: Record<string, number> }>((resolve) =>
      waiting.set(id, resolve),
    )
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }),
    })
    const { result } = await reply
    waiting.delete(id)
    return result ? (result.usedSize ?? 0) + (result.backingStorageSize ?? 0) : undefined
  }
}
