/**
 * Where a Chromium worker's cold start goes, over real IndexedDB: builds
 * `cold-chromium-worker.ts`, serves it and the bench corpus on 127.0.0.1, and has the worker
 * import `size` memories, then time each stage of the open (`runs` rounds) and a real open to
 * its first hybrid answer (`runs` times); prints each stage's median and every round, wall ms.
 * `tsx scripts/bench/cold-chromium.ts [size=10000] [runs=5]`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { serveStatic } from '../serve-static.ts'
import { launchBench } from './browser/run-chromium.ts'
import type { ColdRequest } from './cold-chromium-worker.ts'
import { buildCorpus } from './corpus.ts'

const size = Number(process.argv[2] ?? 10_000)
const runs = Number(process.argv[3] ?? 5)
const OUT = join(tmpdir(), `engram-cold-chromium-${process.pid}`)

await rm(OUT, { recursive: true, force: true })
await build({
  configFile: false,
  root: import.meta.dirname,
  logLevel: 'error',
  publicDir: false,
  build: {
    outDir: OUT,
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    reportCompressedSize: false,
    lib: {
      entry: join(import.meta.dirname, 'cold-chromium-worker.ts'),
      formats: ['es'],
      fileName: () => 'cold-worker.js',
    },
  },
})
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
  await page.goto(`${server.url}index.html`)
  const request: ColdRequest = { size, runs, tag: Date.now().toString(36) }
  const spent = await page.evaluate(
    (r) =>
      new Promise<Record<string, number[]>>((resolve, reject) => {
        const worker = new Worker('./cold-worker.js', { type: 'module' })
        worker.onmessage = (event) => {
          const m = event.data as {
            log?: string
            result?: Record<string, number[]>
            error?: string
          }
          if (m.log) console.log(m.log)
          else if (m.error) reject(new Error(m.error))
          else if (m.result) resolve(m.result)
        }
        worker.onerror = (event) => reject(new Error(event.message || 'worker failed'))
        worker.postMessage(r)
      }),
    request,
  )
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0
  console.log(`chromium ${browser.version()}, ${size} memories, ${runs} rounds (wall ms)`)
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
