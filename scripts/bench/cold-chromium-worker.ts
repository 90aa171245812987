/// <reference lib="webworker" />
/**
 * The worker side of `cold-chromium.ts`: imports the first `size` texts into a fresh memory over
 * the browser's real IndexedDB, closes it (which saves the snapshot), then times each stage of
 * the open by hand in the order `engine/index/snapshot.ts` and `upkeep.ts` run them (the key
 * lists only run when the agreement check's counts differ), `runs` rounds, and a real open and
 * its first hybrid answer, `runs` times. Wall ms, and CPU ms of Chromium's processes as the
 * driver reads them (a worker has no CPU clock): run before/after pairs back to back.
 */
import type { Memory } from '../../src/core/types.ts'
import { VectorIndex } from '../../src/core/vector/index.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { IndexSet } from '../../src/engine/index/index-set.ts'
import { KeywordIndex } from '../../src/engine/index/keyword-index.ts'
import {
  type CatalogueSegment,
  segmentRows,
  type VectorSegment,
  vectorParts,
} from '../../src/engine/index/segments.ts'
import { EngramDatabase, storedKeys } from '../../src/storage/index.ts'
import { request } from './idb.ts'
import { EngramSystem } from './systems/engram.ts'

export interface ColdRequest {
  size: number
  runs: number
  tag: string
}

const scope = self as unknown as DedicatedWorkerGlobalScope
const log = (line: string) => scope.postMessage({ log: line })

/** The manifest's fields these phases read, as `engine/index/snapshot.ts` writes them. */
interface ManifestView {
  keyword: never
  catalogue: string[]
  vector: never
  vectorHead: never
  vectors: string[]
  groups: [string, number][]
}

async function run(r: ColdRequest): Promise<Record<string, number[]>> {
  const { texts, queries } = (await (await fetch('corpus.json')).json()) as {
    texts: string[]
    queries: string[]
  }
  const embedder = new NgramEmbedder({ dims: 384 })
  const docs = texts
    .slice(0, r.size)
    .map((text, id) => ({ id, text, vector: embedder.embedOne(text) }))
  const query = queries
    .slice(0, r.runs * 2)
    .map((text) => ({ text, vector: embedder.embedOne(text) }))
  const env = { indexedDB: scope.indexedDB, IDBKeyRange }
  const name = `cold-${r.tag}`
  const system = new EngramSystem(env as never, name)
  let t = performance.now()
  await system.create()
  await system.importAll(docs)
  await system.close()
  log(`imported ${r.size} in ${(performance.now() - t).toFixed(0)} ms`)

  const spent: Record<string, number[]> = {}
  const note = (label: string, ms: number) => {
    spent[label] = [...(spent[label] ?? []), ms]
  }
  const phase = async <T>(label: string, task: () => Promise<T> | T): Promise<T> => {
    const c0 = await cpuMark()
    const t0 = performance.now()
    const out = await task()
    note(label, performance.now() - t0)
    note(`${label} (cpu)`, (await cpuMark()) - c0)
    return out
  }
  for (let round = 0; round < r.runs; round++) {
    const db = new EngramDatabase(name, env)
    await phase('db open', () => db.open())
    const row = (await phase('read manifest row', () => db.snapshots.get('indexes')))!
    const manifest = row.data as ManifestView
    if (round === 0) {
      const rows = (await db.snapshots.toCollection().primaryKeys()) as string[]
      log(`snapshot rows ${rows.join(', ')}`)
    }
    const keyword = await phase('keyword load', () => new KeywordIndex({}, manifest.keyword))
    const catalogueRows = await phase('read catalogue segments', () =>
      db.snapshots.bulkGet(manifest.catalogue.map((_, i) => `indexes:catalogue:${i}`)),
    )
    if (round === 0) {
      const segs = catalogueRows.map((s) => (s!.data as CatalogueSegment).rows)
      const wide = segs.filter((s) => isWide(s)).length
      const chars = segs.reduce((n, s) => n + s.length, 0)
      log(`catalogue: ${segs.length} segments, ${chars} chars, ${wide} two-byte`)
    }
    const memories = await phase('parse catalogue', () =>
      catalogueRows.flatMap((s) => segmentRows(s!.data as CatalogueSegment) as Memory[]),
    )
    const vectors = await phase('read + deserialise vectors', async () => {
      if (!manifest.vectorHead)
        return manifest.vector ? VectorIndex.deserialize(manifest.vector) : null
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
    await phase('adopt transaction', () =>
      db.transaction('r', [db.memories, db.changes, db.snapshots], async () => [
        await db.snapshots.get('recall-counters'),
        await db.changes.orderBy('seq').last(),
      ]),
    )
    await phase('replay probe', () => db.changes.where('seq').above(row.seq).first())
    await phase('agreement counts', () =>
      db.transaction('r', db.memories, db.vectors, () =>
        Promise.all([
          db.memories.count(),
          db.vectors.where('model').equals(embedder.model).count(),
        ]),
      ),
    )
    // Read by the open only when a count differs (`engine/index/agree.ts`).
    await phase('memory keys', () => storedKeys(db, db.memories))
    await phase('vector keys', () =>
      storedKeys(db, db.vectors, () => db.vectors.where('model').equals(embedder.model)),
    )
    await phase('vector counts', async () => [
      await db.vectors.count(),
      await db.vectors.where('model').equals(embedder.model).count(),
    ])
    await phase('memory rows (off path)', () => db.memories.toArray())
    db.close()
    const raw = await request(scope.indexedDB.open(`engram:${name}`))
    const store = (table: string) => raw.transaction(table).objectStore(table)
    await phase('raw: manifest get', () => request(store('snapshots').get('indexes')))
    await phase('raw: catalogue getAll', () =>
      request(
        store('snapshots').getAll(
          IDBKeyRange.bound('indexes:catalogue:', 'indexes:catalogue:\uffff'),
        ),
      ),
    )
    await phase('raw: manifest + catalogue in parallel', () => {
      const tx = raw.transaction('snapshots')
      const range = IDBKeyRange.bound('indexes:catalogue:', 'indexes:catalogue:\uffff')
      return Promise.all([
        request(tx.objectStore('snapshots').get('indexes')),
        request(tx.objectStore('snapshots').getAll(range)),
      ])
    })
    await phase('raw: memory getAllKeys', () => request(store('memories').getAllKeys()))
    await phase('raw: vector getAllKeys', () => request(store('vectors').getAllKeys()))
    await phase('raw: memory count', () => request(store('memories').count()))
    raw.close()
    if (round === 0) log(`manifest parts ${JSON.stringify(sizes(manifest))}`)
  }
  for (let i = 0; i < r.runs; i++) {
    const cold = new EngramSystem(env as never, name)
    const c0 = await cpuMark()
    const t0 = performance.now()
    await cold.open()
    const t1 = performance.now()
    const c1 = await cpuMark()
    // The mark is a round trip to the driver: the answer's clock starts after it.
    const marked = performance.now()
    await cold.recall(query[i]!, 'hybrid')
    const t2 = performance.now()
    const c2 = await cpuMark()
    note('real open (cpu)', c1 - c0)
    note('open to first answer (cpu)', c2 - c0)
    const second = performance.now()
    await cold.recall(query[r.runs + i]!, 'hybrid')
    const t3 = performance.now()
    note('real open', t1 - t0)
    note('first hybrid', t2 - marked)
    note('open to first answer', t1 - t0 + (t2 - marked))
    note('second hybrid', t3 - second)
    const stats = await cold.engineForBench().inspect.stats()
    if (i === 0) log(`open stats ${JSON.stringify(stats.open)}`)
    await cold.close()
  }
  t = performance.now()
  await system.destroy()
  return spent
}

/** Whether a string holds a character past Latin-1 (V8 then stores and clones it as UTF-16). */
function isWide(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return true
  return false
}

/** Per top-level field: typed-array bytes, string units (and how many strings are two-byte), values. */
function sizes(value: object): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, v] of Object.entries(value)) {
    const tally = { bytes: 0, units: 0, wide: 0, values: 0 }
    const walk = (x: unknown) => {
      tally.values++
      if (ArrayBuffer.isView(x)) tally.bytes += x.byteLength
      else if (typeof x === 'string') {
        tally.units += x.length
        if (isWide(x)) tally.wide++
      } else if (x && typeof x === 'object') for (const y of Object.values(x)) walk(y)
    }
    walk(v)
    out[key] = `${tally.bytes}B ${tally.units}u ${tally.wide}w ${tally.values}v`
  }
  return out
}

/** CPU ms of Chromium's processes so far, read by the driver while this worker waits. */
let asks = 0
const replies = new Map<number, (cpu: number) => void>()
function cpuMark(): Promise<number> {
  const id = ++asks
  return new Promise((resolve) => {
    replies.set(id, resolve)
    scope.postMessage({ ask: id })
  })
}

scope.onmessage = async (event: MessageEvent<ColdRequest | { reply: number; cpu: number }>) => {
  if ('reply' in event.data) {
    replies.get(event.data.reply)?.(event.data.cpu)
    replies.delete(event.data.reply)
    return
  }
  try {
    scope.postMessage({ result: await run(event.data) })
  } catch (error) {
    scope.postMessage({
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
  }
}
