/// <reference lib="webworker" />
/**
 * The Chromium side of `scripts/bench-import-browser.ts`: a module worker holding a real
 * `MemoryEngine` over the browser's IndexedDB (what `openMemory`'s worker holds) with the
 * n-gram embedder, and `importFrom` beside it, reading the export as a `Blob` fetched from the
 * page's server. The importer runs here rather than in the page (where the PWA runs it), so the
 * heap measured holds both halves: an upper bound on the memory worker's own.
 */
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'
import { importFrom } from '../src/import/index.ts'

/**
 * What the driver asks: open and fetch the export at `url` (answered `ready`), then `start`
 * (answered `done`), then `close` once it has read what the heap holds with the engine open.
 */
export interface ImportBenchRequest {
  url: string
  name: string
}

export type ImportBenchMessage =
  | { ready: true }
  | { progress: { read: number; written: number; bytes: number; seconds: number } }
  | { done: { seconds: number; bytes: number; report: Record<string, unknown> } }
  | { closed: true }
  | { error: string }

const scope = self as unknown as DedicatedWorkerGlobalScope
const post = (message: ImportBenchMessage) => scope.postMessage(message)

let engine: MemoryEngine | undefined
let source: Blob | undefined

scope.onmessage = async (
  event: MessageEvent<ImportBenchRequest | { start: true } | { close: true }>,
) => {
  try {
    if ('close' in event.data) {
      await engine!.close()
      post({ closed: true })
      return
    }
    if ('url' in event.data) {
      // Opened and fetched before the driver's baseline heap reading: the import is what grows.
      engine = await MemoryEngine.open({
        name: event.data.name,
        autoReview: false,
        embedder: new NgramEmbedder(),
      })
      source = await (await fetch(event.data.url)).blob()
      post({ ready: true })
      return
    }
    const started = performance.now()
    const seconds = () => (performance.now() - started) / 1000
    let posted = 0
    const report = await importFrom(engine!, source!, {
      format: 'chatgpt',
      // A message a second: one per conversation was the benchmark's own cost (a structured
      // clone and a post each, 3% of the worker's time in a profile), not the import's.
      onProgress: (p) => {
        if (seconds() - posted < 1) return
        posted = seconds()
        post({ progress: { ...p, seconds: posted } })
      },
    })
    const { done, skipped, ...counts } = report
    post({
      done: {
        seconds: seconds(),
        bytes: source!.size,
        report: { ...counts, done: done.length, skipped: skipped.length },
      },
    })
  } catch (error) {
    post({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) })
  }
}
