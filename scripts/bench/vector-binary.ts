/**
 * `tsx scripts/bench/vector-binary.ts`: the binary first pass of `VectorIndex.search` (sign codes
 * by Hamming distance, then int8 + residual re-scoring of a pool) against the int8 scan, both
 * against an exact float32 scan (issue 25 §2). For each set, size and pool it prints recall@10
 * and the time of one search (p50 / p99 µs, query already embedded, group filter and `accept`
 * as the engine passes them).
 *
 *   tsx scripts/bench/vector-binary.ts [--sets clustered,real] [--sizes 100000]
 *     [--pools 1000,2000,4000] [--queries 100] [--k 10,120] [--wasm true]
 *
 * Sets as `vector.ts` (`vector-sets.ts`); `real` is MSC + LoCoMo through the n-gram embedder,
 * as many texts as there are (about 33k) whatever the size asked.
 */
import { VectorIndex } from '../../src/core/vector/index.ts'
import { percentile } from './measure.ts'
import { DIMS, exactTop, SETS, type SetName } from './vector-sets.ts'

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback
}

const sets = arg('sets', 'clustered,real').split(',') as SetName[]
const sizes = arg('sizes', '100000').split(',').map(Number)
const pools = arg('pools', '1000,2000,4000').split(',').map(Number)
const queryCount = Number(arg('queries', '100'))
const ks = arg('k', '10,120').split(',').map(Number)
const wasm = arg('wasm', 'true') !== 'false'

const ENGINE_FILTER = { groups: new Set([0]), accept: (_id: string) => true }
const idOf = (row: number) => String(row).padStart(8, '0')

/** p50 / p99 of wall time, then the mean CPU time of this thread (steadier on a shared machine). */
function timed(index: VectorIndex, queries: readonly Float32Array[], k: number): string {
  const samples: number[] = []
  const cpu = process.cpuUsage()
  for (let round = 0; round < 3; round++) {
    for (const query of queries) {
      const t = performance.now()
      index.search(query, k, ENGINE_FILTER)
      samples.push(1000 * (performance.now() - t))
    }
  }
  const used = process.cpuUsage(cpu)
  const mean = (used.user + used.system) / samples.length
  return `${percentile(samples, 50).toFixed(0)} / ${percentile(samples, 99).toFixed(0)} (cpu ${mean.toFixed(0)})`
}

console.log(
  `| set | n | first pass | pool | recall@10 | ${ks.map((k) => `k=${k} p50 / p99 (cpu mean) µs`).join(' | ')} | MiB |`,
)
console.log(`| --- | --- | --- | --- | --- | ${ks.map(() => '---').join(' | ')} | --- |`)
for (const set of sets) {
  for (const n of sizes) {
    let t = performance.now()
    const data = SETS[set](n, queryCount)
    const exact = data.queries.map((q) => new Set(exactTop(q, data.vectors, 10).map(idOf)))
    console.error(
      `${set} ${data.vectors.length}: data and exact top-10 in ${((performance.now() - t) / 1000).toFixed(0)} s`,
    )
    const scan = new VectorIndex(DIMS, { wasm, binaryAbove: Number.POSITIVE_INFINITY })
    scan.reserve(data.vectors.length)
    data.vectors.forEach((v, r) => {
      scan.add(idOf(r), v)
    })
    const snapshot = scan.serialize()
    const runs: { label: string; pool: number | string; index: VectorIndex }[] = [
      { label: 'int8 scan', pool: '—', index: scan },
    ]
    for (const pool of pools) {
      const index = VectorIndex.deserialize(snapshot, { wasm, binaryAbove: 0, binaryPool: pool })
      t = performance.now()
      index.search(data.queries[0] as Float32Array, 1)
      console.error(`codes for ${index.size} rows: ${(performance.now() - t).toFixed(0)} ms`)
      runs.push({ label: 'binary', pool, index })
    }
    for (const { label, pool, index } of runs) {
      let found = 0
      let wanted = 0
      data.queries.forEach((query, q) => {
        const want = exact[q] as Set<string>
        for (const hit of index.search(query, 10)) if (want.has(hit.id)) found++
        wanted += want.size
      })
      console.log(
        `| ${set} | ${data.vectors.length} | ${label} | ${pool} | ${(found / wanted).toFixed(4)} | ${ks.map((k) => timed(index, data.queries, k)).join(' | ')} | ${(index.memoryBytes() / 2 ** 20).toFixed(0)} |`,
      )
    }
  }
}
