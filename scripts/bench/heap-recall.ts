/**
 * What the catalogue's layout costs recall: imports `size` memories (default 10k) into an engine
 * over fake-indexeddb through `rememberMany`, then times every bench query in each mode,
 * `passes` times over, as CPU time of the process (so a loaded machine moves the figures less
 * than wall time would) and as wall time; prints p50 and p99 of each, then the live heap.
 *
 * `tsx scripts/bench/heap-recall.ts [size=10000] [queries=200] [passes=3]`
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { prepareData } from './data.ts'
import { EngramSystem } from './systems/engram.ts'
import type { Mode } from './types.ts'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

const [size = 10_000, queryCount = 200, passes = 3] = process.argv.slice(2).map(Number)
const data = prepareData(size, queryCount, 0)
const system = new EngramSystem({ indexedDB: new IDBFactory(), IDBKeyRange } as never, 'heap')
await system.create()
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
let c = cpuMs()
await system.importAll(data.docs)
console.log(`import ${size}: ${((cpuMs() - c) / 1000).toFixed(1)} s CPU`)

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
// One pass unmeasured first: the JIT and the lazily built structures settle.
for (const q of data.queries) await system.recall(q, 'hybrid')
for (const mode of ['keyword', 'vector', 'hybrid'] as Mode[]) {
  const cpu: number[] = []
  const wall: number[] = []
  for (let p = 0; p < passes; p++) {
    for (const q of data.queries) {
      c = cpuMs()
      const w = performance.now()
      await system.recall(q, mode)
      wall.push(performance.now() - w)
      cpu.push(cpuMs() - c)
    }
  }
  cpu.sort((a, b) => a - b)
  wall.sort((a, b) => a - b)
  console.log(
    `${mode}: CPU p50 ${quantile(cpu, 0.5).toFixed(2)} ms, p99 ${quantile(cpu, 0.99).toFixed(2)} ms; wall p50 ${quantile(wall, 0.5).toFixed(2)} ms, p99 ${quantile(wall, 0.99).toFixed(2)} ms`,
  )
}
collect()
collect()
console.log(
  `heapUsed ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB (fake-indexeddb's rows included)`,
)
await system.close()
