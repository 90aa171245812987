/**
 * Where a cold start's time goes, in Node over fake-indexeddb: imports `size` memories, closes,
 * then times (CPU ms) each stage of the open by hand: the snapshot rows read, the keyword index
 * loaded, the vectors deserialised, the catalogue parsed, the id lists read for the agreement
 * check. `tsx scripts/bench/cold-phases.ts [size=10000]`.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { Memory } from '../../src/core/types.ts'
import { VectorIndex } from '../../src/core/vector/index.ts'
import { IndexSet } from '../../src/engine/index/index-set.ts'
import { KeywordIndex } from '../../src/engine/index/keyword-index.ts'
import { EngramDatabase, storedKeys } from '../../src/storage/index.ts'
import { prepareData } from './data.ts'
import { EngramSystem } from './systems/engram.ts'

const size = Number(process.argv[2] ?? 10_000)
const data = prepareData(size, 1, 0)
const env = { indexedDB: new IDBFactory(), IDBKeyRange }
const system = new EngramSystem(env as never, 'phases')
await system.create()
await system.importAll(data.docs)
await system.close()

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const db = new EngramDatabase('phases', env)
await db.open()
const phase = async <T>(name: string, task: () => Promise<T> | T): Promise<T> => {
  const c = cpu()
  const w = performance.now()
  const out = await task()
  console.log(
    `${name}: cpu ${(cpu() - c).toFixed(0)} ms, wall ${(performance.now() - w).toFixed(0)} ms`,
  )
  return out
}
const rows = await phase('read snapshot rows', () => db.snapshots.toArray())
for (const row of rows) console.log(`  row ${row.name}`)
const head = rows.find((r) => r.name === 'indexes')!.data as never as {
  keyword: never
  vector: never
}
const catalogue = rows.find((r) => r.name === 'indexes-catalogue')?.data as { rows: string }
await phase('structuredClone keyword', () => structuredClone(head.keyword))
await phase('structuredClone vector', () => structuredClone(head.vector))
await phase('structuredClone catalogue', () => structuredClone(catalogue))
const keyword = await phase('keyword loadJS', () => new KeywordIndex({}, head.keyword))
const vectors = await phase('vector deserialize', () => VectorIndex.deserialize(head.vector))
const memories = await phase('catalogue parse', () => JSON.parse(catalogue.rows) as Memory[])
const indexes = new IndexSet(keyword, vectors)
await phase('adopt catalogue', () => indexes.adoptCatalogue(memories))
await phase('memory keys', () => storedKeys(db, db.memories))
await phase('vector keys', () => storedKeys(db, db.vectors))
await phase('memories toArray', () => db.memories.toArray())
db.close()
