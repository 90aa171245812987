/**
 * Where a Chromium worker's cold start goes, over real IndexedDB: builds
 * `cold-chromium-worker.ts`, serves it and the bench corpus on 127.0.0.1, and has the worker
 * import `size` memories, then time each stage of the open (`runs` rounds) and a real open to
 * its first hybrid answer (`runs` times); prints each stage's median and every round, wall ms
 * and CPU ms. The CPU is every Chromium process's (the browser process runs IndexedDB, the
 * renderer the worker), read from /proc at each stage's ends while the worker waits: on a
 * shared machine wall-clock moves with the load, CPU much less (10 ms ticks per process).
 * `tsx scripts/bench/cold-chromium.ts [size=10000] [runs=5]`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serveStatic } from '../serve-static.ts'
import { bundleWorker } from './browser/bundle-worker.ts'
import { launchBench } from './browser/run-chromium.ts'
import type { ColdRequest } from './cold-chromium-worker.ts'
import { buildCorpus } from './corpus.ts'

const size = Number(process.argv[2] ?? 10_000)
const runs = Number(process.argv[3] ?? 5)
const OUT = join(tmpdir(), `engram-cold-chromium-${process.pid}`)

await bundleWorker(join(import.meta.dirname, 'cold-chromium-worker.ts'), OUT, 'cold-worker.js')
await mkdir(OUT, { recursive: true })
const corpus = buildCorpus(size, runs * 2)
await writeFile(
  join(OUT, 'corpus.json'),
  JSON.stringify({ texts: corpus.texts, queries: corpus.queries }),
)
await writeFile(join(OUT, 'index.html'), '<!doctype html><meta charset="utf-8"><title>cold</title>')
const server = await serveStatic({ root: OUT })
const browser = await launchBench()
try {
  const page = await browser.newPage()
  page.on('console', (m) => console.log(`page: ${m.text()}`))
  await page.exposeFunction('cpuMark', chromiumCpuMs)
  await page.goto(`${server.url}index.html`)
  const request: ColdRequest = { size, runs, tag: Date.now().toString(36) }
  const spent = await page.evaluate(
    (r) =>
      new Promise<Record<string, number[]>>((resolve, reject) => {
        const worker = new Worker('./cold-worker.js', { type: 'module' })
        worker.onmessage = (event) => {
          const m = event.data as {
            ask?: number
            log?: string
            result?: Record<string, number[]>
            error?: string
          }
          if (m.ask !== undefined) {
            const mark = (window as unknown as { cpuMark(): Promise<number> }).cpuMark
            mark().then((cpu) => worker.postMessage({ reply: m.ask, cpu }))
          } else if (m.log) console.log(m.log)
          else if (m.error) reject(new Error(m.error))
          else if (m.result) resolve(m.result)
        }
        worker.onerror = (event) => reject(new Error(event.message || 'worker failed'))
        worker.postMessage(r)
      }),
    request,
  )
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0
  console.log(
    `chromium ${browser.version()}, ${size} memories, ${runs} rounds (wall ms; cpu ms of Chromium's processes)`,
  )
  for (const [name, xs] of Object.entries(spent)) {
    console.log(
      `${name}: median ${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})`,
    )
  }
} finally {
  await browser.close().catch(() => {})
  await server.close()
  await rm(OUT, { recursive: true, force: true })
}

/** CPU ms so far of this process's descendants (Chromium's processes), from /proc. */
function chromiumCpuMs(): number {
  const parent = new Map<number, number>()
  const ticks = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after the command's closing parenthesis: state, ppid, ..., utime (14), stime (15).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parent.set(Number(entry), Number(fields[1]))
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0
  for (const [pid, t] of ticks) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        total += t
        break
      }
    }
  }
  return total * 10
}
