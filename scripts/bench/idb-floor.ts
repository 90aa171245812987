/**
 * What IndexedDB itself costs the import, in a Chromium worker: `n` rows of each record kind a
 * `rememberMany` writes (a memory row with the memories table's five indexes, a 384-d float32
 * vector row, a change-log row), each kind in one `readwrite` transaction of raw IndexedDB
 * calls, against the layouts that would write fewer records (vectors packed 256 to a row, the
 * change log as one row per transaction). No engine runs: these are the floor under any engine
 * that keeps one record per memory, vector and change. Medians of `runs` rounds; each figure is
 * the transaction from its first `put` to `complete` (`puts` alone: the loop that queues them).
 *
 * `tsx scripts/bench/idb-floor.ts [n=10000] [runs=3]`
 */
import { runInChromiumWorker } from './raw-worker.ts'

const n = Number(process.argv[2] ?? 10_000)
const runs = Number(process.argv[3] ?? 3)

/** Runs in the worker: one case is one database, one store, one transaction. */
function workerMain() {
  type Index = [name: string, keyPath: string | string[], options?: IDBIndexParameters]
  interface Case {
    name: string
    store: string
    keyPath: string
    auto?: boolean
    indexes: Index[]
    rows: (n: number) => unknown[]
  }
  const id = (i: number) => `01J${String(i).padStart(23, '0')}`
  const memory = (i: number) => ({
    id: id(i),
    namespace: 'default',
    type: 'fact',
    text: `The owner prefers metric units, note ${i}`,
    key: `the owner prefers metric units note ${i}`,
    tags: [],
    aliases: [],
    source: 'agent',
    trust: 'unverified',
    confidence: 0.6,
    tier: 'semantic',
    flags: [],
    createdAt: 1.79e12 + i,
    updatedAt: 1.79e12 + i,
    confirmedAt: 1.79e12 + i,
    confirmations: 1,
    recallCount: 0,
  })
  const vector = (i: number, dims: number) => {
    const v = new Float32Array(dims)
    for (let d = 0; d < dims; d++) v[d] = Math.sin(i * 31 + d)
    return v
  }
  const MEMORY_INDEXES: Index[] = [
    ['[namespace+type+key]', ['namespace', 'type', 'key'], { unique: true }],
    ['[namespace+type]', ['namespace', 'type']],
    ['namespace', 'namespace'],
    ['tags', 'tags', { multiEntry: true }],
    ['pageId', 'pageId'],
  ]
  const cases: Case[] = [
    {
      name: 'memory rows (5 indexes)',
      store: 'memories',
      keyPath: 'id',
      indexes: MEMORY_INDEXES,
      rows: (n) => Array.from({ length: n }, (_, i) => memory(i)),
    },
    {
      name: 'memory rows (3 indexes: no namespace, [namespace+type])',
      store: 'memories',
      keyPath: 'id',
      indexes: MEMORY_INDEXES.filter(
        ([name]) => name !== 'namespace' && name !== '[namespace+type]',
      ),
      rows: (n) => Array.from({ length: n }, (_, i) => memory(i)),
    },
    {
      name: 'memory rows (no index)',
      store: 'memories',
      keyPath: 'id',
      indexes: [],
      rows: (n) => Array.from({ length: n }, (_, i) => memory(i)),
    },
    {
      name: 'vector rows (one a memory)',
      store: 'vectors',
      keyPath: 'id',
      indexes: [['model', 'model']],
      rows: (n) =>
        Array.from({ length: n }, (_, i) => ({
          id: id(i),
          model: 'engram/ngram-hash',
          dims: 384,
          vector: vector(i, 384),
        })),
    },
    {
      name: 'vector blocks (256 a row)',
      store: 'vectors',
      keyPath: 'id',
      indexes: [],
      rows: (n) =>
        Array.from({ length: Math.ceil(n / 256) }, (_, b) => {
          const count = Math.min(256, n - b * 256)
          const block = new Float32Array(count * 384)
          for (let r = 0; r < count; r++) block.set(vector(b * 256 + r, 384), r * 384)
          return {
            id: `block:${b}`,
            ids: Array.from({ length: count }, (_, r) => id(b * 256 + r)),
            vectors: block,
          }
        }),
    },
    {
      name: 'change rows (one a memory)',
      store: 'changes',
      keyPath: 'seq',
      auto: true,
      indexes: [['id', 'id']],
      rows: (n) => Array.from({ length: n }, (_, i) => ({ op: 'put', id: id(i), at: 1.79e12 })),
    },
    {
      name: 'change row (one a transaction)',
      store: 'changes',
      keyPath: 'seq',
      auto: true,
      indexes: [['ids', 'ids', { multiEntry: true }]],
      rows: (n) => [{ op: 'put', ids: Array.from({ length: n }, (_, i) => id(i)), at: 1.79e12 }],
    },
  ]
  const request = <T>(r: IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
  const open = (name: string, c: Case) => {
    const r = indexedDB.open(name, 1)
    r.onupgradeneeded = () => {
      const store = r.result.createObjectStore(c.store, {
        keyPath: c.keyPath,
        autoIncrement: c.auto ?? false,
      })
      for (const [index, keyPath, options] of c.indexes) store.createIndex(index, keyPath, options)
    }
    return request(r)
  }
  const scope = self as unknown as DedicatedWorkerGlobalScope
  scope.onmessage = async (event: MessageEvent<{ n: number; runs: number }>) => {
    const { n, runs } = event.data
    const out: Record<string, { rows: number; puts: number[]; total: number[] }> = {}
    for (let run = 0; run < runs; run++) {
      for (const [k, c] of cases.entries()) {
        const name = `floor-${k}`
        await request(indexedDB.deleteDatabase(name))
        const db = await open(name, c)
        const rows = c.rows(n)
        const t0 = performance.now()
        let puts = 0
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(c.store, 'readwrite')
          const store = tx.objectStore(c.store)
          for (const row of rows) store.put(row)
          puts = performance.now() - t0
          tx.oncomplete = () => resolve()
          tx.onerror = () => reject(tx.error)
        })
        const total = performance.now() - t0
        db.close()
        await request(indexedDB.deleteDatabase(name))
        out[c.name] ??= { rows: rows.length, puts: [], total: [] }
        const entry = out[c.name] as (typeof out)[string]
        entry.puts.push(puts)
        entry.total.push(total)
      }
    }
    scope.postMessage(out)
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const { result, browserVersion } = await runInChromiumWorker<
  Record<string, { rows: number; puts: number[]; total: number[] }>
>(workerMain, { n, runs })
console.log(
  `Chromium ${browserVersion}, ${n.toLocaleString('en')} memories' records, medians of ${runs}\n`,
)
console.log('| records | rows | puts queued | to `complete` | per memory |')
console.log('|---|---:|---:|---:|---:|')
for (const [name, r] of Object.entries(result)) {
  const total = median(r.total)
  console.log(
    `| ${name} | ${r.rows.toLocaleString('en')} | ${median(r.puts).toFixed(0)} ms | ${total.toFixed(0)} ms | ${((total / n) * 1000).toFixed(0)} µs |`,
  )
}
