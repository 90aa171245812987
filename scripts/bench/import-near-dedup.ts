/**
 * `tsx scripts/bench/import-near-dedup.ts [--n 20000]`: one `rememberMany` of the first n distinct
 * MSC persona facts (`../shared/eval`, every split) with n-gram vectors and the poison screen
 * on, into an empty memory over fake-indexeddb, in process: the shape of the benchmark's import,
 * whose near-duplicate check used to scan the batch once per item.
 */

import { readFileSync } from 'node:fs'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'

const n = Number(process.argv[process.argv.indexOf('--n') + 1] || 20_000)
const texts = new Set<string>()
const raw = JSON.parse(readFileSync('../shared/eval/msc/msc_personas_all.json', 'utf8')) as Record<
  string,
  Record<string, unknown>[]
>
for (const split of Object.values(raw))
  for (const persona of split)
    for (const facts of Object.values(persona))
      if (Array.isArray(facts)) for (const f of facts) if (typeof f === 'string') texts.add(f)
const docs = [...texts].slice(0, n)
const embedder = new NgramEmbedder()
const items = docs.map((text) => ({
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
const t = performance.now()
const results = await engine.rememberMany(items)
const seconds = (performance.now() - t) / 1000
const merged = results.filter((r) => r.status !== 'created').length
console.log(`rememberMany of ${docs.length}: ${seconds.toFixed(1)} s, ${merged} not created`)
await engine.close()
