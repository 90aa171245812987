/**
 * Where the worker heap goes at `size` memories (default 100k), in Node: each in-memory
 * structure of the index set built alone from the same rows (MSC + LoCoMo texts of
 * `buildCorpus`, rows shaped as the write path makes them, n-gram 384-d vectors), its live heap
 * measured after gc, then the whole `IndexSet` as `put` fills it. `heap` is V8's `heapUsed`;
 * `buffers` is `arrayBuffers` (typed arrays and WebAssembly memory; Chromium's worker figure
 * counts the first, not the second).
 *
 * `tsx scripts/bench/heap-breakdown.ts [size=100000] [--only=catalogue,...]`
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { monotonicFactory } from 'ulidx'
import { dedupKey } from '../../src/core/text.ts'
import type { Memory } from '../../src/core/types.ts'
import { VectorIndex } from '../../src/core/vector/index.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { Catalogue } from '../../src/engine/index/catalogue.ts'
import { IndexSet } from '../../src/engine/index/index-set.ts'
import { KeywordIndex } from '../../src/engine/index/keyword-index.ts'
import { PhraseKeys } from '../../src/engine/index/phrase-keys.ts'
import { buildCorpus } from './corpus.ts'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

const size = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000)
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',')
const MB = 1e6

interface Live {
  heap: number
  buffers: number
}

function live(): Live {
  for (let i = 0; i < 3; i++) collect()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return { heap: heapUsed, buffers: arrayBuffers }
}

const rowsOut: string[] = []

/** Builds a structure, measures what it holds once built, then lets it go. */
function measure(name: string, build: () => unknown): void {
  if (only && !only.includes(name)) return
  const before = live()
  const cpu = process.cpuUsage()
  let kept: unknown = build()
  const ms = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000
  const after = live()
  const heap = (after.heap - before.heap) / MB
  const buffers = (after.buffers - before.buffers) / MB
  const line = `| ${name} | ${heap.toFixed(1)} MB | ${buffers.toFixed(1)} MB | ${((heap * MB) / size).toFixed(0)} B | ${(ms / 1000).toFixed(1)} s |`
  rowsOut.push(line)
  console.log(line)
  kept = undefined
  void kept
}

const cpuStart = process.cpuUsage()
const corpus = buildCorpus(size, 0)
const texts = corpus.texts
corpus.texts = []
const newId = monotonicFactory(() => 0.5)
const ids = texts.map((_, i) => newId(1_700_000_000_000 + i * 1000))
const NOW = 1_760_000_000_000

/** A row as `toMemory` makes it for a plain `rememberMany` item (fresh key, empty lists). */
function row(i: number): Memory {
  const text = texts[i]!
  return {
    id: ids[i]!,
    namespace: 'default',
    type: 'fact',
    text,
    key: dedupKey(text),
    tags: [],
    aliases: [],
    source: 'agent',
    trust: 'unverified',
    confidence: 0.6,
    tier: 'semantic',
    flags: [],
    createdAt: NOW + i,
    updatedAt: NOW + i,
    confirmedAt: NOW + i,
    confirmations: 1,
    recallCount: 0,
  }
}

const embedder = new NgramEmbedder({ dims: 384 })
console.log(
  `${size} memories (${corpus.source} corpus), mean text ${(texts.reduce((n, t) => n + t.length, 0) / size).toFixed(0)} chars; corpus built in ${(process.cpuUsage(cpuStart).user / 1e6).toFixed(1)} s CPU`,
)
console.log('| structure | heap | buffers | heap per memory | CPU |')
console.log('|---|---|---|---|---|')

measure('rows as objects (Map<string, Memory>)', () => {
  const map = new Map<string, Memory>()
  for (let i = 0; i < size; i++) map.set(ids[i]!, row(i))
  return map
})
measure('catalogue (columnar)', () => {
  const catalogue = new Catalogue()
  for (let i = 0; i < size; i++) catalogue.set(row(i))
  return catalogue
})
measure('keyword index (MiniSearch)', () => {
  const keyword = new KeywordIndex()
  for (let i = 0; i < size; i++) keyword.put(row(i))
  return keyword
})
measure('keyword index snapshot object (toJS)', () => {
  const keyword = new KeywordIndex()
  for (let i = 0; i < size; i++) keyword.put(row(i))
  return keyword.toJS()
})
measure('vector index (n-gram 384-d)', () => {
  const vectors = new VectorIndex(384)
  for (let i = 0; i < size; i++) vectors.add(ids[i]!, embedder.embedOne(texts[i]!), 0)
  return vectors
})
measure('phrase keys', () => {
  const phrases = new PhraseKeys()
  for (let i = 0; i < size; i++) phrases.put({ id: ids[i]!, text: texts[i]! })
  return phrases
})
measure('dedup identities (Map)', () => {
  const keys = new Map<string, string>()
  for (let i = 0; i < size; i++) keys.set(`default\u0000fact\u0000${dedupKey(texts[i]!)}`, ids[i]!)
  return keys
})
measure('index set, all of it (put with vector)', () => {
  const indexes = IndexSet.empty({}, 384)
  for (let i = 0; i < size; i++) indexes.put(row(i), embedder.embedOne(texts[i]!))
  return indexes
})

const textBytes = texts.reduce((n, t) => n + t.length, 0)
console.log(
  `\ntexts alone (held by the script, not in the figures above): ${(textBytes / MB).toFixed(1)} MB of one-byte characters; ids ${((size * 40) / MB).toFixed(1)} MB`,
)
