/**
 * `tsx scripts/bench/import-near-dedup.ts [--n 20000] [--into 0] [--corpus msc|bench]
 * [--batch n] [--remember 0] [--minisearch]`: `rememberMany` of n distinct texts with n-gram
 * vectors and the poison screen on, over fake-indexeddb, in process: the shape of the
 * benchmark's import, whose near-duplicate check used to scan the batch once per item.
 *
 * - `--corpus msc` (the default): MSC persona facts (`../shared/eval`, every split);
 *   `--corpus bench`: the benchmark's corpus (scripts/bench/corpus.ts: MSC + LoCoMo, joined
 *   pairs past them, the generated one without `../shared`), so 100k and 1M can be run.
 * - `--into m`: the first m texts are remembered first (untimed) and the next n are timed: a
 *   batch into a stored memory, whose `related` neighbours used to cost a scan per item.
 * - `--batch b`: the timed texts go b to a `rememberMany` (the scale cell's 10k); one call
 *   without it.
 * - `--remember k`: then k further texts, one `remember` each, awaited one at a time into the
 *   filled store: their p50 / p99 (the benchmark's `remember` figure).
 * - `--minisearch`: MiniSearch indexing the same n texts, timed in the same process (the
 *   benchmark's ratio, without its IndexedDB save).
 *
 * Wall-clock figures, so run pairs under the same load and say which; the import's CPU time
 * (this process, user + system) is printed beside it, which load moves less.
 */

import { readFileSync } from 'node:fs'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import MiniSearch from 'minisearch'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'
import { buildCorpus } from './corpus.ts'

const argOf = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? Number(process.argv[at + 1]) : fallback
}
const stringArg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback
}
const n = argOf('n', 20_000)
const into = argOf('into', 0)
const batch = argOf('batch', Number.POSITIVE_INFINITY)
const rememberCount = argOf('remember', 0)
const corpus = stringArg('corpus', 'msc')

function mscFacts(): string[] {
  const texts = new Set<string>()
  const raw = JSON.parse(
    readFileSync('../shared/eval/msc/msc_personas_all.json', 'utf8'),
  ) as Record<string, Record<string, unknown>[]>
  for (const split of Object.values(raw))
    for (const persona of split)
      for (const facts of Object.values(persona))
        if (Array.isArray(facts)) for (const f of facts) if (typeof f === 'string') texts.add(f)
  return [...texts]
}

const all = corpus === 'bench' ? buildCorpus(into + n + rememberCount, 0).texts : mscFacts()
const embedder = new NgramEmbedder()
const itemsOf = (docs: string[]) =>
  docs.map((text) => ({
    text,
    vector: embedder.embedOne(text),
    poison: 'flag' as const,
  }))
const engine = await MemoryEngine.open({
  name: 'import',
  indexedDB: new IDBFactory(),
  IDBKeyRange,
  // A benchmark measures its own operations: no review in its quiet spells.
  autoReview: false,
  embedder,
})
for (let start = 0; start < into; start += 10_000) {
  await engine.rememberMany(itemsOf(all.slice(start, Math.min(into, start + 10_000))))
}
const docs = all.slice(into, into + n)
let seconds = 0
let cpuSeconds = 0
let merged = 0
let related = 0
for (let start = 0; start < docs.length; start += Math.min(batch, docs.length)) {
  const items = itemsOf(docs.slice(start, start + Math.min(batch, docs.length)))
  const t = performance.now()
  const cpu = process.cpuUsage()
  const results = await engine.rememberMany(items)
  seconds += (performance.now() - t) / 1000
  const used = process.cpuUsage(cpu)
  cpuSeconds += (used.user + used.system) / 1e6
  merged += results.filter((r) => r.status !== 'created').length
  related += results.reduce((sum, r) => sum + (r.related?.length ?? 0), 0)
}
console.log(
  `rememberMany of ${docs.length} into ${into} (${corpus}, batch ${Math.min(batch, docs.length)}): ${seconds.toFixed(1)} s (CPU ${cpuSeconds.toFixed(1)} s), ${merged} not created, ${related} related`,
)
if (rememberCount > 0) {
  const extra = all.slice(into + n, into + n + rememberCount)
  const times: number[] = []
  for (const text of extra) {
    const vector = embedder.embedOne(text)
    const t = performance.now()
    await engine.remember(text, { vector, poison: 'flag' })
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  console.log(
    `remember ×${times.length} into ${into + n}: p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms`,
  )
}
await engine.close()
if (process.argv.includes('--minisearch')) {
  const t = performance.now()
  const mini = new MiniSearch({ fields: ['text'], idField: 'id' })
  mini.addAll(docs.map((text, id) => ({ id, text })))
  console.log(
    `MiniSearch addAll of ${docs.length}: ${((performance.now() - t) / 1000).toFixed(2)} s`,
  )
}
