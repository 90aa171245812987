/**
 * Where a cold start's time goes, in Node over fake-indexeddb: imports `size` memories, closes
 * (which saves the snapshot), then times (CPU ms, wall ms) each stage of the open by hand, in the
 * order the open runs them: the manifest read, the keyword index loaded, the catalogue segments
 * read, parsed and adopted, the vector segments read and deserialised, the agreement check's
 * counts and the id lists it reads only when one differs, the vector counts, `runs` rounds (medians printed); then a real open and its
 * first hybrid answer, a second one, and the first `remember` (whose near-duplicate check builds
 * the sign codes), `runs` times. `tsx scripts/bench/cold-phases.ts [size=10000] [runs=5]`.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { Memory } from '../../src/core/types.ts'
import { VectorIndex } from '../../src/core/vector/index.ts'
import { IndexSet } from '../../src/engine/index/index-set.ts'
import { KeywordIndex } from '../../src/engine/index/keyword-index.ts'
import {
  type CatalogueSegment,
  segmentRows,
  type VectorSegment,
  vectorParts,
} from '../../src/engine/index/segments.ts'
import { EngramDatabase, storedKeys } from '../../src/storage/index.ts'
import { prepareData } from './data.ts'
import { EngramSystem } from './systems/engram.ts'

const size = Number(process.argv[2] ?? 10_000)
const runs = Number(process.argv[3] ?? 5)
const data = prepareData(size, 20, runs)
const env = { indexedDB: new IDBFactory(), IDBKeyRange }
const system = new EngramSystem(env as never, 'phases')
await system.create()
await system.importAll(data.docs)
await system.close()

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
/** CPU ms of each phase in each round: the medians are printed at the end. */
const spent = new Map<string, number[]>()
const phase = async <T>(name: string, task: () => Promise<T> | T): Promise<T> => {
  const c = cpu()
  const out = await task()
  spent.set(name, [...(spent.get(name) ?? []), cpu() - c])
  return out
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0

/** The manifest's fields these phases read, as `engine/index/snapshot.ts` writes them. */
interface ManifestView {
  keyword: never
  catalogue: string[]
  vector: never
  vectorHead: never
  vectors: string[]
  groups: [string, number][]
}
for (let round = 0; round < runs; round++) {
  const db = new EngramDatabase('phases', env)
  await db.open()
  if (round === 0) {
    const rows = (await db.snapshots.toCollection().primaryKeys()) as string[]
    console.log(`${size}: snapshot rows ${rows.join(', ')}`)
  }
  const manifest = (await phase('read manifest row', () => db.snapshots.get('indexes')))!
    .data as ManifestView
  const keyword = await phase('keyword load', () => new KeywordIndex({}, manifest.keyword))
  const catalogueRows = await phase('read catalogue segments', () =>
    db.snapshots.bulkGet(manifest.catalogue.map((_, i) => `indexes:catalogue:${i}`)),
  )
  const memories = await phase('parse catalogue', () =>
    catalogueRows.flatMap((row) => segmentRows(row!.data as CatalogueSegment) as Memory[]),
  )
  const vectors = await phase('read + deserialise vectors', async () => {
    if (!manifest.vectorHead) {
      return manifest.vector ? VectorIndex.deserialize(manifest.vector) : null
    }
    const segments = await db.snapshots.bulkGet(
      manifest.vectors.map((_, i) => `indexes:vectors:${i}`),
    )
    return VectorIndex.deserialize(
      vectorParts(
        manifest.vectorHead,
        segments.map((s) => s!.data as VectorSegment),
      ),
    )
  })
  const indexes = new IndexSet(keyword, vectors, manifest.groups)
  await phase('adopt catalogue', () => indexes.adoptCatalogue(memories))
  await phase('agreement counts', () =>
    db.transaction('r', db.memories, db.vectors, () =>
      Promise.all([db.memories.count(), db.vectors.where('model').equals('x').count()]),
    ),
  )
  // Read by the open only when a count differs (`engine/index/agree.ts`).
  await phase('memory keys', () => storedKeys(db, db.memories))
  await phase('vector keys', () => storedKeys(db, db.vectors))
  await phase('vector counts', async () => [
    await db.vectors.count(),
    await db.vectors.where('model').equals('x').count(),
  ])
  db.close()
}
for (const [name, xs] of spent) {
  console.log(
    `${name}: cpu median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`,
  )
}

const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000
for (let run = 0; run < runs; run++) {
  const cold = new EngramSystem(env as never, 'phases')
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  await cold.open()
  const cOpen = ms(process.cpuUsage(c0))
  const t1 = performance.now()
  await cold.recall(data.queries[run % data.queries.length]!, 'hybrid')
  const cFirst = ms(process.cpuUsage(c0))
  const t2 = performance.now()
  const c1 = process.cpuUsage()
  await cold.recall(data.queries[(run + 1) % data.queries.length]!, 'hybrid')
  const cSecond = ms(process.cpuUsage(c1))
  // The first write's near-duplicate check builds the sign codes (from NEAR_SCAN_BELOW rows).
  const c2 = process.cpuUsage()
  await cold.remember(data.probes[run]!)
  const cWrite = ms(process.cpuUsage(c2))
  console.log(
    `run ${run}: open cpu ${cOpen.toFixed(0)} (wall ${(t1 - t0).toFixed(0)}), first hybrid cpu ${(cFirst - cOpen).toFixed(0)} (wall ${(t2 - t1).toFixed(0)}), second hybrid cpu ${cSecond.toFixed(0)}, first remember cpu ${cWrite.toFixed(0)}; open to first answer cpu ${cFirst.toFixed(0)} ms (wall ${(t2 - t0).toFixed(0)})`,
  )
  spent.set('first remember', [...(spent.get('first remember') ?? []), cWrite])
  spent.set('real open', [...(spent.get('real open') ?? []), cOpen])
  spent.set('open to first hybrid answer', [
    ...(spent.get('open to first hybrid answer') ?? []),
    cFirst,
  ])
  await cold.close()
}
for (const name of ['real open', 'open to first hybrid answer', 'first remember']) {
  console.log(`${size}: ${name}: cpu median ${median(spent.get(name)!).toFixed(0)} ms`)
}
