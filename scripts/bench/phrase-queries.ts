/**
 * Quoted-phrase recall latency over one in-process index set (no storage: recall reads only the
 * indexes): p50/p99 of hybrid and keyword recalls whose query quotes a phrase cut from a stored
 * text, plus the same queries unquoted for comparison. Issue 25, point 5.
 * `tsx scripts/bench/phrase-queries.ts [size=10000] [queries=200]`.
 */
import { DEFAULT_LIFECYCLE, DEFAULT_LIMITS, DEFAULT_RETRIEVAL } from '../../src/core/options.ts'
import { dedupKey, storedText } from '../../src/core/text.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { IndexSet } from '../../src/engine/index/index-set.ts'
import { runRecall } from '../../src/engine/recall/index.ts'
import { checkRecallOptions } from '../../src/engine/recall/options.ts'
import { toMemory } from '../../src/engine/write/plan.ts'
import { buildCorpus, seeded } from './corpus.ts'
import { latency } from './measure.ts'

const size = Number(process.argv[2] ?? 10_000)
const queryCount = Number(process.argv[3] ?? 200)
const corpus = buildCorpus(size, 0)
const embedder = new NgramEmbedder({ dims: 384 })
const indexes = IndexSet.empty({}, embedder.dims)
let t = performance.now()
corpus.texts.map(storedText).forEach((text, i) => {
  const memory = toMemory(
    `m${i}`,
    {
      text,
      key: dedupKey(text),
      namespace: 'default',
      type: 'fact',
      tags: [],
      aliases: [],
      source: 'agent',
      trust: 'unverified',
      confidence: 0.6,
      flags: [],
    },
    0,
  )
  indexes.put(memory, embedder.embedOne(text))
})
console.log(`indexed ${size} in ${(performance.now() - t).toFixed(0)} ms`)

// Two to four neighbouring words of a random stored text, quoted, and a word from another.
const next = seeded(25)
const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T
const queries: string[] = []
while (queries.length < queryCount) {
  const words = pick(corpus.texts).split(/\s+/)
  const length = 2 + Math.floor(next() * 3)
  if (words.length < length) continue
  const from = Math.floor(next() * (words.length - length + 1))
  const phrase = words
    .slice(from, from + length)
    .join(' ')
    .replace(/["“”„]/g, '')
  queries.push(`"${phrase}" ${pick(pick(corpus.texts).split(/\s+/))}`)
}

const ctx = {
  indexes,
  embedder,
  vectorBlocker: () => null,
  retrieval: DEFAULT_RETRIEVAL,
  limits: DEFAULT_LIMITS,
  lifecycle: DEFAULT_LIFECYCLE,
  now: 0,
}
for (const mode of ['hybrid', 'keyword'] as const) {
  for (const quoted of [true, false]) {
    const times: number[] = []
    let hits = 0
    let digest = 0
    for (const raw of queries) {
      const query = quoted ? raw : raw.replaceAll('"', '')
      const o = checkRecallOptions(query, { mode, k: 10 }, {}, DEFAULT_LIMITS)
      t = performance.now()
      const outcome = await runRecall(ctx, query, o)
      times.push(performance.now() - t)
      hits += outcome.hits.length
      for (const hit of outcome.hits) digest = (digest * 31 + Number(hit.memory.id.slice(1))) | 0
    }
    const { p50, p99 } = latency(times)
    const label = `${mode} ${quoted ? 'quoted' : 'unquoted'}`
    console.log(
      `${size} ${label.padEnd(16)} p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  hits ${hits} (ids digest ${digest})`,
    )
  }
}
