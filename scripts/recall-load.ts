/**
 * Many recalls at once against one Node store (fake-indexeddb, the n-gram embedder): the wall
 * time until every one has settled, the peak heap while they run, and how many were refused
 * (`RecallBusyError`). Issue 22 §13 measured 1,000 at once on 20k memories this way.
 *
 *   node --expose-gc --import tsx scripts/recall-load.ts [--size 20000] [--recalls 1000]
 *     [--concurrency N] [--queue N]
 *
 * `--concurrency` and `--queue` set `EngineOptions.recallQueue`; left out, the engine's defaults
 * apply.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import type { EngineOptions } from '../src/engine/engine-options.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'
import { buildCorpus } from './bench/corpus.ts'

const arg = (name: string): number | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : undefined
}
const size = arg('size') ?? 20_000
const recalls = arg('recalls') ?? 1000
const queue: Record<string, number> = {}
const concurrency = arg('concurrency')
const maxQueued = arg('queue')
if (concurrency !== undefined) queue.concurrency = concurrency
if (maxQueued !== undefined) queue.maxQueued = maxQueued

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0)

const corpus = buildCorpus(size, recalls)
const options: EngineOptions = {
  name: 'recall-load',
  indexedDB: new IDBFactory(),
  IDBKeyRange,
  // A benchmark measures its own operations: no review in its quiet spells.
  autoReview: false,
  embedder: new NgramEmbedder(),
  ...(Object.keys(queue).length > 0 ? ({ recallQueue: queue } as object) : {}),
}
const engine = await MemoryEngine.open(options)
let t = performance.now()
for (let i = 0; i < corpus.texts.length; i += 2000) {
  await engine.rememberMany(
    corpus.texts.slice(i, i + 2000).map((text) => ({ text, poison: 'flag' as const })),
  )
}
console.log(`stored ${size} memories in ${((performance.now() - t) / 1000).toFixed(1)} s`)
await engine.recall(corpus.queries[0]!, { log: false })

gc()
const base = process.memoryUsage()
let peak = base.heapUsed
let peakRss = base.rss
// A sampler, not a test: every 100 ms it collects garbage first, so the peak is the heap the
// recalls in flight (and those waiting) hold alive, not how far V8 let garbage pile up.
const sampler = setInterval(() => {
  gc()
  const now = process.memoryUsage()
  peak = Math.max(peak, now.heapUsed)
  peakRss = Math.max(peakRss, now.rss)
}, 100)
t = performance.now()
const settled = await Promise.allSettled(
  corpus.queries.slice(0, recalls).map((q) => engine.recall(q)),
)
const wall = performance.now() - t
clearInterval(sampler)
const refused = settled.filter(
  (s) => s.status === 'rejected' && (s.reason as Error).name === 'RecallBusyError',
).length
const failed = settled.filter((s) => s.status === 'rejected').length - refused
console.log(
  `${recalls} recalls at once: ${(wall / 1000).toFixed(1)} s, answered ${recalls - refused - failed}, ` +
    `refused ${refused}, failed ${failed}; heap ${mb(base.heapUsed)} MB before, live peak +${mb(peak - base.heapUsed)} MB; ` +
    `rss peak +${mb(peakRss - base.rss)} MB`,
)
await engine.close()
process.exit(0)
