/**
 * `tsx scripts/bench/near-dedup.ts`: near-duplicate detection through the vector index's SimHash
 * buckets (`searchNear` at the threshold) and through its binary pass (`searchNear` at the
 * `related` floor, which the engine runs while `related` is on) against the scan they replace
 * (issue 25 §1), over one import-shaped pass: each vector is checked against the rows before
 * it, then added, as `nearDedup` does with a `rememberMany` batch.
 *
 *   tsx scripts/bench/near-dedup.ts [--source real|clustered] [--n 30000] [--threshold 0.97]
 *     [--floor 0.8] [--recall true] [--related-every 10]
 *
 * - `real`: MSC persona facts (every split, distinct) then LoCoMo turns from `../shared/eval`,
 *   embedded by the n-gram test embedder (384 dims); `clustered`: the anisotropic synthetic set
 *   of `vector.ts`, with every tenth vector a near copy of an earlier one.
 * - With `--recall`, each item is also checked by the scan on the same rows (the engine's search
 *   before this change: the int8 scan re-scoring `NEAR_DUPLICATE_RESCORE` candidates), and the
 *   report counts the duplicates the scan found that the buckets (and the binary pass) found
 *   too; every `--related-every`-th item also compares `related` hits (cosine in
 *   [floor, threshold)) of the binary pass with the scan's.
 * - Without it, only the bucket pass runs and is timed (the scan pass is quadratic).
 * - `--mode batch`: instead, the whole set as one `rememberMany` batch compares it with itself
 *   (`batchNearPairs`, core/vector/batch-near.ts: SimHash bands from 512 rows) and the walk
 *   `nearDedup` makes over its pairs (each row against the earlier rows kept as new) is run
 *   over them and over every pair scored exactly (`exactBatchPairs`): duplicates found by both,
 *   and the CPU time of each.
 */
import { NEAR_DUPLICATE_RESCORE } from '../../src/core/options.ts'
import {
  type BatchPair,
  batchNearPairs,
  exactBatchPairs,
} from '../../src/core/vector/batch-near.ts'
import { VectorIndex } from '../../src/core/vector/index.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { normal, uniform } from '../models/rng.ts'
import { realTexts } from './vector-sets.ts'

const DIMS = 384
const SEED = 0x5eed

const args = new Map<string, string>()
for (let i = 2; i < process.argv.length; i += 2) {
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '')
}
const source = args.get('source') ?? 'real'
const n = Number(args.get('n') ?? 30_000)
const threshold = Number(args.get('threshold') ?? 0.97)
const floor = Number(args.get('floor') ?? 0.8)
const withRecall = (args.get('recall') ?? 'true') === 'true'
const relatedEvery = Number(args.get('related-every') ?? 10)
const mode = args.get('mode') ?? 'stream'

function normalise(v: Float32Array): Float32Array {
  let norm = 0
  for (let i = 0; i < v.length; i++) norm += (v[i] as number) ** 2
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv
  return v
}

function clustered(count: number): Float32Array[] {
  const next = uniform(SEED)
  const scale = normal(SEED + 1, DIMS, 0.5).map(Math.exp)
  const mean = normalise(normal(SEED + 2, DIMS, 1))
  const centres = Array.from({ length: Math.max(10, count / 100) }, (_, c) =>
    normalise(normal(SEED + 1000 + c, DIMS, 1)),
  )
  const out: Float32Array[] = []
  for (let i = 0; i < count; i++) {
    const noise = normalise(normal(SEED + 10_000_000 + i, DIMS, 1))
    const v = new Float32Array(DIMS)
    if (i > 0 && i % 10 === 0) {
      const base = out[Math.floor(next() * i)] as Float32Array
      const eps = 0.05 + 0.25 * next()
      for (let d = 0; d < DIMS; d++) v[d] = (base[d] as number) + eps * (noise[d] as number)
    } else {
      const centre = centres[Math.floor(next() * centres.length)] as Float32Array
      for (let d = 0; d < DIMS; d++) {
        const x = 0.8 * (mean[d] as number) + (centre[d] as number) + 0.7 * (noise[d] as number)
        v[d] = x * (scale[d] as number)
      }
    }
    out.push(normalise(v))
  }
  return out
}

let t = performance.now()
const vectors =
  source === 'clustered'
    ? clustered(n)
    : (() => {
        const embedder = new NgramEmbedder({ dims: DIMS })
        return realTexts(n).map((text) => embedder.embedOne(text))
      })()
console.log(
  `${source}: ${vectors.length} vectors in ${((performance.now() - t) / 1000).toFixed(1)} s`,
)

if (mode === 'batch') {
  const groups = new Uint16Array(vectors.length)
  /** Row → the earlier kept row it repeats, as `nearDedup` walks a batch's pairs. */
  const walk = (pairs: Map<number, BatchPair[]>) => {
    const kept = new Uint8Array(vectors.length)
    const repeats = new Map<number, number>()
    for (let i = 0; i < vectors.length; i++) {
      const first = pairs.get(i)?.find((p) => kept[p.row] === 1)
      if (first) repeats.set(i, first.row)
      else kept[i] = 1
    }
    return repeats
  }
  const cpuOf = <T>(task: () => T): [T, number] => {
    const c = process.cpuUsage()
    const out = task()
    const u = process.cpuUsage(c)
    return [out, (u.user + u.system) / 1e6]
  }
  const [banded, bandedCpu] = cpuOf(() => batchNearPairs(vectors, groups, threshold))
  const [exact, exactCpu] = cpuOf(() => exactBatchPairs(vectors, groups, threshold))
  const got = walk(banded)
  const want = walk(exact)
  const both = [...want].filter(([i, j]) => got.get(i) === j).length
  const extra = [...got.keys()].filter((i) => !want.has(i)).length
  console.log(
    `one batch of ${vectors.length} at ${threshold}: bands found ${both} of the exact pairs' ${want.size} duplicates (${(both / Math.max(1, want.size)).toFixed(4)}), ${extra} the exact walk does not make; CPU bands ${bandedCpu.toFixed(2)} s, every pair ${exactCpu.toFixed(1)} s`,
  )
  process.exit(0)
}

const near = { minScore: threshold, rescore: NEAR_DUPLICATE_RESCORE }
const index = new VectorIndex(DIMS)
let dupsScan = 0
let dupsBoth = 0
let dupsBands = 0
let relatedScan = 0
let relatedBoth = 0
let dupsBinary = 0
let dupsBinaryBoth = 0
let binaryMs = 0
let bandMs = 0
let scanMs = 0
t = performance.now()
for (let i = 0; i < vectors.length; i++) {
  const v = vectors[i] as Float32Array
  let a = performance.now()
  const [hit] = index.searchNear(v, 1, near)
  bandMs += performance.now() - a
  if (hit) dupsBands++
  a = performance.now()
  const low = index.searchNear(v, 3, { ...near, minScore: floor })
  binaryMs += performance.now() - a
  const lowDup = low[0] !== undefined && low[0].score >= threshold
  if (lowDup) dupsBinary++
  if (withRecall && index.size > 0) {
    a = performance.now()
    const [top] = index.search(v, 1, { rescore: NEAR_DUPLICATE_RESCORE })
    scanMs += performance.now() - a
    if (top && top.score >= threshold) {
      dupsScan++
      if (hit) dupsBoth++
      if (lowDup) dupsBinaryBoth++
    }
    if (i % relatedEvery === 0) {
      const inRange = (h: { score: number }) => h.score >= floor && h.score < threshold
      const scan = index.search(v, 3, { rescore: NEAR_DUPLICATE_RESCORE }).filter(inRange)
      const got = new Set(low.filter(inRange).map((h) => h.id))
      relatedScan += scan.length
      relatedBoth += scan.filter((h) => got.has(h.id)).length
    }
  }
  if (!hit) index.add(String(i), v)
}
const total = (performance.now() - t) / 1000
console.log(
  `floor ${floor}: binary pass found ${dupsBinary} duplicates; searches ${(binaryMs / 1000).toFixed(1)} s (${((1000 * binaryMs) / vectors.length).toFixed(0)} µs each)`,
)
console.log(
  `threshold ${threshold}: buckets found ${dupsBands} duplicates; bucket searches ${(bandMs / 1000).toFixed(1)} s` +
    ` (${((1000 * bandMs) / vectors.length).toFixed(0)} µs each), pass ${total.toFixed(1)} s, index ${index.size} rows, ${(index.memoryBytes() / 2 ** 20).toFixed(1)} MiB`,
)
if (withRecall) {
  console.log(
    `dedup recall vs scan: buckets ${dupsBoth} / ${dupsScan} = ${(dupsBoth / Math.max(1, dupsScan)).toFixed(4)}, binary pass ${dupsBinaryBoth} / ${dupsScan} = ${(dupsBinaryBoth / Math.max(1, dupsScan)).toFixed(4)}; scan searches ${(scanMs / 1000).toFixed(1)} s`,
  )
  console.log(
    `related recall (floor ${floor}, every ${relatedEvery}th item): ${relatedBoth} / ${relatedScan} = ${(relatedBoth / Math.max(1, relatedScan)).toFixed(4)}`,
  )
}
