/**
 * `tsx scripts/bench/vector.ts`: the vector index alone, against an exact float32 scan. For each
 * size and distribution it prints recall@10 of `search` against brute-force dot products, the
 * time of one search (p50 / p99 in ms, query already embedded) and the bytes per vector of a
 * reopened index (restored from its snapshot, so sized exactly).
 *
 *   tsx scripts/bench/vector.ts [--sizes 10000,100000] [--queries 200] [--k 10,30,120]
 *     [--sets random,clustered,ngram] [--exact none,memory] [--refine-bits 3] [--rescore 200]
 *     [--wasm true]
 *
 * Distributions (all seeded, 384 dims, unit length):
 * - `random`: isotropic Gaussian directions, the hardest case: no real neighbours, so the top
 *   scores crowd within a quantisation step of each other.
 * - `clustered`: normalise(0.8 × shared mean + centre + 0.7 × noise) with per-dimension scales
 *   drawn log-normal, the anisotropy of real sentence embeddings (unrelated cosine about 0.3,
 *   same cluster about 0.75); queries are drawn the same way.
 * - `ngram`: synthetic sentences of Zipf-distributed pseudo-words through the n-gram test
 *   embedder: sparse vectors with exact zeros and duplicate texts.
 *
 * k = 10 is what recall@10 is measured on; 30 and 120 are the depths the engine asks for in
 * semantic and hybrid recall. Searches are timed with a group filter and an `accept` callback,
 * as the engine calls them.
 */
import { VectorIndex, type VectorIndexOptions } from '../../src/core/vector/index.ts'
import { percentile } from './measure.ts'
import { type Data, exactTop, SETS, type SetName } from './vector-sets.ts'

const DIMS = 384

/** What the engine passes: its namespace/type groups and an `accept` for the other filters. */
const ENGINE_FILTER = { groups: new Set([0]), accept: (_id: string) => true }

/** Ids whose string order is their row order, so the index's tie-break matches the scan's. */
const idOf = (row: number) => String(row).padStart(8, '0')

function measure(data: Data, options: VectorIndexOptions, ks: number[]) {
  const index = new VectorIndex(DIMS, options)
  index.reserve(data.vectors.length)
  data.vectors.forEach((v, r) => {
    index.add(idOf(r), v)
  })
  const reopened = VectorIndex.deserialize(index.serialize(), options)
  let found = 0
  let wanted = 0
  for (const query of data.queries) {
    const exact = new Set(exactTop(query, data.vectors, 10).map(idOf))
    for (const hit of reopened.search(query, 10)) if (exact.has(hit.id)) found++
    wanted += exact.size
  }
  const times: Record<number, string> = {}
  for (const k of ks) {
    const samples: number[] = []
    for (let round = 0; round < 3; round++) {
      for (const query of data.queries) {
        const t = performance.now()
        reopened.search(query, k, ENGINE_FILTER)
        samples.push(performance.now() - t)
      }
    }
    times[k] = `${percentile(samples, 50).toFixed(2)} / ${percentile(samples, 99).toFixed(2)}`
  }
  return {
    recall: found / wanted,
    bytesPerVector: reopened.memoryBytes() / data.vectors.length,
    backend: reopened.backend,
    times,
  }
}

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback
}

const sizes = arg('sizes', '10000,100000').split(',').map(Number)
const queryCount = Number(arg('queries', '200'))
const ks = arg('k', '10,30,120').split(',').map(Number)
const sets = arg('sets', 'random,clustered,ngram').split(',') as SetName[]
const exacts = arg('exact', 'none').split(',') as ('none' | 'memory')[]
const rescore = Number(arg('rescore', '0')) || undefined
const refineBits = arg('refine-bits', '') === '' ? undefined : Number(arg('refine-bits', ''))
const wasm = arg('wasm', 'true') !== 'false'

console.log(
  `| set | n | exact | recall@10 | ${ks.map((k) => `k=${k} p50 / p99 ms`).join(' | ')} | B/vector |`,
)
console.log(`| --- | --- | --- | --- | ${ks.map(() => '---').join(' | ')} | --- |`)
for (const set of sets) {
  for (const n of sizes) {
    const data = SETS[set](n, queryCount)
    for (const exact of exacts) {
      const options: VectorIndexOptions = { exact, wasm, rescore, refineBits }
      const r = measure(data, options, ks)
      console.log(
        `| ${set} | ${n} | ${exact} | ${r.recall.toFixed(4)} | ${ks.map((k) => r.times[k]).join(' | ')} | ${r.bytesPerVector.toFixed(0)} (${r.backend}) |`,
      )
    }
  }
}
