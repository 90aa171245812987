/**
 * `tsx scripts/bench/import-near-dedup.ts [--n 20000] [--into 0]`: one `rememberMany` of n
 * distinct MSC persona facts (`../shared/eval`, every split) with n-gram vectors and the poison
 * screen on, over fake-indexeddb, in process: the shape of the benchmark's import, whose
 * near-duplicate check used to scan the batch once per item. With `--into m`, the first m facts
 * are remembered first (untimed) and the next n are the timed batch: a batch into a stored
 * memory, whose `related` neighbours used to cost a scan of the store per item.
 */

import { readFileSync } from 'node:fs'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'

const argOf = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? Number(process.argv[at + 1]) : fallback
}
const n = argOf('n', 20_000)
const into = argOf('into', 0)
const texts = new Set<string>()
const raw = JSON.parse(readFileSync('../shared/eval/msc/msc_personas_all.json', 'utf8')) as Record<
  string,
  Record<string, unknown>[]
>
for (const split of Object.values(raw))
  for (const persona of split)
    for (const facts of Object.values(persona))
      if (Array.isArray(facts)) for (const f of facts) if (typeof f === 'string') texts.add(f)
const all = [...texts]
const embedder = new NgramEmbedder()
const itemsOf = (docs: string[]) =>
  docs.map((text) => ({
    text,
    vector: embedder.embedOne(text),
    poison: 'flag' as const,
  }))
const first = itemsOf(all.slice(0, into))
const docs = all.slice(into, into + n)
const items = itemsOf(docs)
const engine = await MemoryEngine.open({
  name: 'import',
  indexedDB: new IDBFactory(),
  IDBKeyRange,
  // A benchmark measures its own operations: no review in its quiet spells.
  autoReview: false,
  embedder,
})
if (first.length > 0) await engine.rememberMany(first)
const t = performance.now()
const results = await engine.rememberMany(items)
const seconds = (performance.now() - t) / 1000
const merged = results.filter((r) => r.status !== 'created').length
const related = results.reduce((sum, r) => sum + (r.related?.length ?? 0), 0)
console.log(
  `rememberMany of ${docs.length} into ${first.length}: ${seconds.toFixed(1)} s, ${merged} not created, ${related} related`,
)
await engine.close()
