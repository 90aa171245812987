/**
 * Recall latency at one store size in Node (in-process engine, fake-indexeddb), excluding query
 * embedding: query vectors are computed before timing and served from a cache.
 *
 *   npx tsx scripts/bench-recall.ts [--size 10000] [--queries 200]
 */
import { readFileSync } from 'node:fs'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { Embedder, EmbedderStats, EmbedKind } from '../src/core/types.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const size = arg('size', 10_000)
const queryCount = arg('queries', 200)

/** MSC persona facts, repeated with a numbered suffix when more are needed. */
function corpus(n: number): string[] {
  const raw = JSON.parse(readFileSync('../shared/eval/msc/msc_personas_all.json', 'utf8'))
  const facts = new Set<string>()
  for (const split of Object.values(raw) as Record<string, string[]>[][]) {
    for (const dialog of split)
      for (const list of Object.values(dialog)) for (const f of list) facts.add(f)
  }
  const base = [...facts]
  const out: string[] = []
  for (let i = 0; out.length < n; i++) {
    const f = base[i % base.length]!
    out.push(i < base.length ? f : `${f} (variant ${Math.floor(i / base.length)})`)
  }
  return out
}

/** Serves precomputed vectors so timing excludes embedding. */
class CachedEmbedder implements Embedder {
  readonly #inner = new NgramEmbedder()
  readonly #cache = new Map<string, Float32Array>()
  readonly model = this.#inner.model
  readonly dims = this.#inner.dims
  readonly state = 'ready' as const
  async load() {}
  warm(texts: string[]) {
    for (const t of texts) this.#cache.set(t, this.#inner.embedOne(t))
  }
  async embed(texts: string[], _o: { kind: EmbedKind }) {
    return texts.map((t) => this.#cache.get(t) ?? this.#inner.embedOne(t))
  }
  stats(): EmbedderStats {
    return this.#inner.stats()
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

const texts = corpus(size)
const embedder = new CachedEmbedder()
const engine = await MemoryEngine.open({
  name: 'bench',
  indexedDB: new IDBFactory(),
  IDBKeyRange,
  embedder,
})
let t = performance.now()
for (let i = 0; i < texts.length; i += 500) {
  await engine.rememberMany(
    texts.slice(i, i + 500).map((text) => ({ text, poison: 'off' as const })),
  )
}
const importMs = performance.now() - t
const queries = Array.from({ length: queryCount }, (_, i) =>
  texts[(i * 7919) % texts.length]!.split(' ').slice(0, 4).join(' '),
)
embedder.warm(queries)
console.log(
  `# recall latency, Node ${process.version}, ${size} memories (import ${(importMs / 1000).toFixed(1)} s)`,
)
console.log('| mode | p50 ms | p99 ms |\n|---|---|---|')
for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
  const times: number[] = []
  for (const q of queries.slice(0, 20)) await engine.recall(q, { mode, log: false })
  for (const q of queries) {
    t = performance.now()
    await engine.recall(q, { mode, log: false })
    times.push(performance.now() - t)
  }
  console.log(`| ${mode} | ${pct(times, 50).toFixed(2)} | ${pct(times, 99).toFixed(2)} |`)
}
await engine.close()
