/**
 * Times each bench query in each mode against one Node store (fake-indexeddb), slowest first:
 * where recall's tail comes from. `tsx scripts/bench/profile-recall.ts [size]`.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { prepareData } from './data.ts'
import { EngramSystem } from './systems/engram.ts'
import type { Mode } from './types.ts'

const size = Number(process.argv[2] ?? 10_000)
const data = prepareData(size, 100, 0)
const system = new EngramSystem({ indexedDB: new IDBFactory(), IDBKeyRange } as never, 'profile')
await system.create()
let t = performance.now()
await system.importAll(data.docs.slice(0, size))
console.log(`import ${size}: ${(performance.now() - t).toFixed(0)} ms`)
for (const mode of ['keyword', 'vector', 'hybrid'] as Mode[]) {
  const times: [number, number][] = []
  for (const [i, q] of data.queries.entries()) {
    t = performance.now()
    await system.recall(q, mode)
    times.push([performance.now() - t, i])
  }
  times.sort((a, b) => b[0] - a[0])
  const sorted = times.map((x) => x[0]).sort((a, b) => a - b)
  const top = times.slice(0, 5).map(([ms, i]) => `#${i} ${ms.toFixed(1)}`)
  console.log(`${mode}: p50 ${sorted[50]!.toFixed(2)} max ${top.join(', ')}`)
}
for (const i of [7, 27, 2, 30]) {
  for (const mode of ['keyword', 'vector', 'hybrid'] as Mode[]) {
    const times: string[] = []
    for (let r = 0; r < 5; r++) {
      t = performance.now()
      await system.recall(data.queries[i]!, mode)
      times.push((performance.now() - t).toFixed(1))
    }
    console.log(`#${i} ${mode}: ${times.join(' ')}  ${data.queries[i]!.text}`)
  }
}
await system.close()
