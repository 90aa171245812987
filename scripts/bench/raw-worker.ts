/**
 * Runs a self-contained function as a classic worker in headless Chromium and answers its one
 * message: the harness of the raw IndexedDB benchmarks (`idb-floor.ts`, `idb-commit.ts`), which
 * time the browser's own calls with no engine and no bundler. `main` must close over nothing:
 * its source text is the worker. It is posted `input` and replies once.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchChromium } from '../chromium.ts'
import { serveStatic } from '../serve-static.ts'

export async function runInChromiumWorker<T>(
  main: () => void,
  input: unknown,
): Promise<{ result: T; browserVersion: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'engram-raw-worker-'))
  // tsx keeps function names through an `__name` helper the worker lacks: define it there.
  await writeFile(join(dir, 'worker.js'), `const __name = (f) => f;\n(${main.toString()})()`)
  await writeFile(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8">')
  const server = await serveStatic({ root: dir })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(`${server.url}index.html`)
    const result = await page.evaluate(
      (input) =>
        new Promise((resolve, reject) => {
          const worker = new Worker('worker.js')
          worker.onmessage = (event) => resolve(event.data)
          worker.onerror = (event) => reject(new Error(event.message))
          worker.postMessage(input)
        }),
      input,
    )
    return { result: result as T, browserVersion: browser.version() }
  } finally {
    await browser.close()
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
}
