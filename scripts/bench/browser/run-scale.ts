/**
 * Drives the scale cell (`scripts/bench/scale.ts`) in the bench worker: the same bundle, server
 * and headless Chromium as the other Chromium cells, one page, one request, no Playwright
 * timeout (the cell caps its own steps).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serveStatic } from '../../serve-static.ts'
import type { ScaleResult } from '../scale.ts'
import type { ScaleRequest } from './bench-worker.ts'
import { buildWorker, launchBench, OUT, workerHeap } from './run-chromium.ts'

export interface ScaleChromiumOptions {
  texts: string[]
  queries: string[]
  capMs: number
  recallBudgetMs: number
  batch: number
  coldRuns: number
  log(line: string): void
}

export async function runScaleChromium(
  o: ScaleChromiumOptions,
): Promise<{ version: string; result: ScaleResult }> {
  o.log('scale: building the bench worker')
  await buildWorker()
  await mkdir(join(OUT, 'data'), { recursive: true })
  await writeFile(
    join(OUT, 'data', 'corpus.json'),
    JSON.stringify({ texts: o.texts, queries: o.queries }),
  )
  const server = await serveStatic({ root: OUT })
  const browser = await launchBench()
  try {
    const page = await (await browser.newContext()).newPage()
    // How far the import got, from its progress lines, for a worker that dies on the way.
    let reached = 0
    const started = Date.now()
    page.on('console', (message) => {
      const text = message.text()
      if (!text.startsWith('[bench] ')) return
      o.log(`scale: ${text.slice(8)}`)
      const progress = /imported ([\d,]+)/.exec(text)
      if (progress) reached = Number(progress[1]!.replaceAll(',', ''))
    })
    page.on('pageerror', (error) => o.log(`scale: page error ${error.message}`))
    let heap: (() => Promise<number | undefined>) | undefined
    await page.exposeFunction('benchHeap', () => heap?.())
    await page.goto(`${server.url}index.html`)
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady)
    heap = await workerHeap(browser)
    const request: ScaleRequest = {
      scale: true,
      size: o.texts.length,
      queries: o.queries.length,
      capMs: o.capMs,
      recallBudgetMs: o.recallBudgetMs,
      batch: o.batch,
      coldRuns: o.coldRuns,
      tag: Date.now().toString(36),
    }
    const result = (await page
      .evaluate(
        (r) =>
          (window as unknown as { benchSize(r: ScaleRequest): Promise<ScaleResult> }).benchSize(r),
        request,
      )
      .catch(
        (error: unknown): ScaleResult => ({
          target: request.size,
          reached,
          capMs: o.capMs,
          recall: {},
          stopped: `the worker failed after about ${reached.toLocaleString('en')} memories: ${String(error).slice(0, 300)}`,
          wallMs: Date.now() - started,
        }),
      )) as ScaleResult
    return { version: browser.version(), result }
  } finally {
    await browser.close().catch(() => {})
    await server.close()
    await rm(OUT, { recursive: true, force: true })
  }
}
