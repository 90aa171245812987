/**
 * `importFrom` of a generated ChatGPT export in headless Chromium: a module worker holding a
 * real `MemoryEngine` over the browser's IndexedDB imports the export (the same seeded bytes
 * as `scripts/bench-import.ts`), and this script reads the worker's heap over the DevTools
 * protocol (`Runtime.getHeapUsage` on the worker target: JS heap plus ArrayBuffer backing
 * stores) every 250 ms. Heap growth is the peak less the reading taken after a forced GC,
 * with the engine open and the export fetched as a `Blob` (kept outside the heap); "retained"
 * is the reading after a forced GC once the import is done, the engine still open: what its
 * indexes hold, garbage aside.
 *
 *   node --import tsx scripts/bench-import-browser.ts [--mb 50] [--seed 29] [--profile out.cpuprofile [--profile-window 150:210]]
 *
 * Prints MB/s by the wall clock and, on Linux, the CPU-seconds the import cost, read from
 * `/proc` (`scripts/bench/page-process-cpu.ts`): the worker thread's own and all of Chromium's
 * (its IndexedDB work runs in other processes). On a loaded machine the wall clock counts other
 * jobs' time; MB per CPU-second still compares (it prints the 1-minute load average too).
 * `BENCH_JS_FLAGS` is passed to Chromium as `--js-flags` (`--trace-gc`, with
 * `DEBUG=pw:browser` to see its lines).
 */

import { existsSync } from 'node:fs'
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleWorker } from './bench/browser/bundle-worker.ts'
import { browserCpu } from './bench/page-process-cpu.ts'
import type { ImportBenchMessage } from './bench-import-browser-worker.ts'
import { exportPath, generateChatgptExport } from './bench-import-data.ts'
import { launchChromium } from './chromium.ts'
import { serveStatic } from './serve-static.ts'

const argv = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1]! : fallback
}
const mb = Number(arg('mb', '50'))
const seed = Number(arg('seed', '29'))
const file = arg('file', exportPath(mb, seed))
/** Where to write the worker's CPU profile (`.cpuprofile`, for DevTools), if anywhere. */
const profile = arg('profile', '')
/**
 * With `--profile`: profile only this window of the import (seconds from its start, `S:T`),
 * write the profile and stop there, to see what a slow stretch of a long import is doing.
 */
const profileWindow = arg('profile-window', '')
// Outside the repository: a bundle under it would be linted and formatted as source.
const OUT = join(tmpdir(), `engram-bench-import-browser-${process.pid}`)
const WORKER = 'bench-import-worker.js'

const PAGE = `<!doctype html>
<meta charset="utf-8" />
<title>Engram import benchmark</title>
<script type="module">
  const worker = new Worker('./${WORKER}', { type: 'module' })
  worker.onmessage = (event) => window.benchMessage(event.data)
  worker.onerror = (event) => window.benchMessage({ error: event.message || 'worker failed' })
  window.benchSend = (message) => worker.postMessage(message)
</script>
`

async function buildWorker(): Promise<void> {
  await bundleWorker(join(import.meta.dirname, 'bench-import-browser-worker.ts'), OUT, WORKER)
  await writeFile(join(OUT, 'index.html'), PAGE)
}

type Browser = Awaited<ReturnType<typeof launchChromium>>

/** Sends DevTools commands to the worker target (a non-flat session, as Playwright carries it). */
async function workerSession(
  browser: Browser,
): Promise<(method: string) => Promise<Record<string, unknown> | undefined>> {
  const cdp = await browser.newBrowserCDPSession()
  type Target = { targetId: string; type: string; url: string }
  let worker: Target | undefined
  for (let i = 0; i < 100 && !worker; i++) {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Target[] }
    worker = targetInfos.find((t) => t.type === 'worker' && t.url.includes(WORKER))
    if (!worker) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (!worker) throw new Error('the benchmark worker never appeared as a DevTools target')
  const { sessionId } = (await cdp.send('Target.attachToTarget', {
    targetId: worker.targetId,
    flatten: false,
  })) as { sessionId: string }
  let next = 0
  const waiting = new Map<number, (result: Record<string, unknown> | undefined) => void>()
  cdp.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: Record<string, unknown> }
    if (message.id !== undefined) waiting.get(message.id)?.(message.result)
  })
  return async (method) => {
    const id = ++next
    const reply = new Promise<Record<string, unknown> | undefined>((resolve) =>
      waiting.set(id, resolve),
    )
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method }),
    })
    const result = await reply
    waiting.delete(id)
    return result
  }
}

async function main(): Promise<void> {
  if (!existsSync(file)) generateChatgptExport(file, mb * 1024 * 1024, seed)
  await buildWorker()
  await mkdir(join(OUT, 'data'), { recursive: true })
  await copyFile(file, join(OUT, 'data', 'conversations.json'))
  const server = await serveStatic({ root: OUT })
  const browser = await launchChromium([
    '--headless=new',
    ...(process.env.BENCH_JS_FLAGS ? [`--js-flags=${process.env.BENCH_JS_FLAGS}`] : []),
  ])
  try {
    const page = await (await browser.newContext()).newPage()
    let settle: ((m: ImportBenchMessage) => void) | undefined
    const next = () => new Promise<ImportBenchMessage>((resolve) => (settle = resolve))
    let lastProgress = 0
    const progress: string[] = []
    await page.exposeFunction('benchMessage', (message: ImportBenchMessage) => {
      if ('progress' in message) {
        const p = message.progress
        if (p.seconds - lastProgress >= 10) {
          lastProgress = p.seconds
          progress.push(
            `  ${(p.bytes / 1e6).toFixed(1)} MB read, ${p.read} conversations in ${p.seconds.toFixed(0)} s`,
          )
          console.log(progress.at(-1))
        }
        return
      }
      settle?.(message)
    })
    page.on('pageerror', (error) => console.log(`page error: ${error.message}`))
    await page.goto(`${server.url}index.html`)
    const send = await workerSession(browser)
    let reply = next()
    await page.evaluate(() =>
      (window as unknown as { benchSend(m: unknown): void }).benchSend({
        url: 'data/conversations.json',
        name: `bench-import-${Date.now().toString(36)}`,
      }),
    )
    const ready = await reply
    if ('error' in ready) throw new Error(ready.error)
    // The JS heap and ArrayBuffer backing stores are also kept apart: their peaks come from
    // different things (garbage awaiting a major GC; typed arrays such as vectors and buffers).
    let jsPeak = 0
    let buffersPeak = 0
    const heap = async () => {
      const r = (await send('Runtime.getHeapUsage')) as Record<string, number> | undefined
      if (!r) return Number.NaN
      jsPeak = Math.max(jsPeak, r.usedSize ?? 0)
      buffersPeak = Math.max(buffersPeak, r.backingStorageSize ?? 0)
      return (r.usedSize ?? 0) + (r.backingStorageSize ?? 0)
    }
    await send('HeapProfiler.collectGarbage')
    const base = await heap()
    jsPeak = 0
    buffersPeak = 0
    let peak = base
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const used = await heap()
        if (used > peak) peak = used
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    })()
    if (profile && !profileWindow) {
      await send('Profiler.enable')
      await send('Profiler.start')
    }
    reply = next()
    const cpuBefore = browserCpu()
    await page.evaluate(() =>
      (window as unknown as { benchSend(m: unknown): void }).benchSend({ start: true }),
    )
    if (profile && profileWindow) {
      const [from, to] = profileWindow.split(':').map(Number) as [number, number]
      await new Promise((resolve) => setTimeout(resolve, from * 1000))
      await send('Profiler.enable')
      await send('Profiler.start')
      await new Promise((resolve) => setTimeout(resolve, (to - from) * 1000))
      await writeFile(profile, JSON.stringify((await send('Profiler.stop'))?.profile))
      console.log(`profile of ${from}-${to} s written; load ${loadavg()[0]!.toFixed(1)}`)
      sampling = false
      await sampler
      return
    }
    const done = await reply
    const cpuAfter = browserCpu()
    sampling = false
    await sampler
    if (profile) await writeFile(profile, JSON.stringify((await send('Profiler.stop'))?.profile))
    if ('error' in done) throw new Error(done.error)
    if (!('done' in done)) throw new Error('unexpected message from the worker')
    const { seconds, bytes, report } = done.done
    // What stays: the engine's indexes (catalogue, keyword index, vectors) with it still open.
    await send('HeapProfiler.collectGarbage')
    const held = await heap()
    reply = next()
    await page.evaluate(() =>
      (window as unknown as { benchSend(m: unknown): void }).benchSend({ close: true }),
    )
    await reply
    console.log(JSON.stringify(report))
    console.log(
      `chromium ${browser.version()} worker: ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s = ` +
        `${(bytes / 1e6 / seconds).toFixed(2)} MB/s; worker heap ${(base / 1e6).toFixed(0)} MB before, ` +
        `growth (peak) ${((peak - base) / 1e6).toFixed(0)} MB, retained after GC with the engine open ` +
        `${((held - base) / 1e6).toFixed(0)} MB; load ${loadavg()[0]!.toFixed(1)}`,
    )
    console.log(
      `peaks apart (not at the same moment): JS heap ${(jsPeak / 1e6).toFixed(0)} MB, ` +
        `ArrayBuffer backing stores ${(buffersPeak / 1e6).toFixed(0)} MB`,
    )
    const workerCpu = cpuAfter.worker - cpuBefore.worker
    const allCpu = cpuAfter.browser - cpuBefore.browser
    console.log(
      `CPU: the worker thread ${workerCpu.toFixed(1)} s = ${(bytes / 1e6 / workerCpu).toFixed(2)} MB per ` +
        `worker CPU-second; all of Chromium ${allCpu.toFixed(1)} s = ${(bytes / 1e6 / allCpu).toFixed(2)} MB per CPU-second`,
    )
  } finally {
    await browser.close().catch(() => {})
    await server.close()
    // A profile's line numbers point into the bundle: kept beside it.
    if (profile) await copyFile(join(OUT, WORKER), `${profile}.js`)
    await rm(OUT, { recursive: true, force: true })
  }
}

await main()
