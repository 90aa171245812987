/**
 * Cold start to the first hybrid answer, in Node over fake-indexeddb: imports `size` memories
 * through the engine, closes it (which saves the snapshot), then opens a new engine on the same
 * database and times the open and the first hybrid recall, `runs` times. Issue 25, point 4.
 * `tsx scripts/bench/cold-start.ts [size=10000] [runs=5]`.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { prepareData } from './data.ts'
import { median } from './measure.ts'
import { EngramSystem } from './systems/engram.ts'

const size = Number(process.argv[2] ?? 10_000)
const runs = Number(process.argv[3] ?? 5)
const data = prepareData(size, 20, 0)
const env = { indexedDB: new IDBFactory(), IDBKeyRange } as never
const system = new EngramSystem(env, 'cold-start')
await system.create()
let t = performance.now()
await system.importAll(data.docs)
console.log(`import ${size}: ${(performance.now() - t).toFixed(0)} ms`)
await system.close()

const opens: number[] = []
const firsts: number[] = []
// The machine may be shared: CPU time is the figure that does not move with its load.
const cpuOpens: number[] = []
const cpuFirsts: number[] = []
for (let run = 0; run < runs; run++) {
  const query = data.queries[run % data.queries.length]!
  const cold = new EngramSystem(env, 'cold-start')
  const cpu0 = process.cpuUsage()
  t = performance.now()
  await cold.open()
  const cpuOpen = process.cpuUsage(cpu0)
  const opened = performance.now()
  const hits = await cold.recall(query, 'hybrid')
  const answered = performance.now()
  const cpuFirst = process.cpuUsage(cpu0)
  const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000
  cpuOpens.push(ms(cpuOpen))
  cpuFirsts.push(ms(cpuFirst))
  opens.push(opened - t)
  firsts.push(answered - t)
  console.log(
    `run ${run}: open ${(opened - t).toFixed(0)} ms (cpu ${ms(cpuOpen).toFixed(0)}), first hybrid answer ${(answered - t).toFixed(0)} ms (cpu ${ms(cpuFirst).toFixed(0)}; ${hits.length} hits)`,
  )
  await cold.close()
}
console.log(
  `${size}: open median ${median(opens).toFixed(0)} ms (cpu ${median(cpuOpens).toFixed(0)}); cold start to first hybrid answer median ${median(firsts).toFixed(0)} ms (cpu ${median(cpuFirsts).toFixed(0)})`,
)
