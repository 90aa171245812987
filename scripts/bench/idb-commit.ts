/**
 * What one small `readwrite` transaction costs in a Chromium worker by its durability hint: the
 * records one `remember` writes (a memory row with the memories table's indexes, a 384-d vector
 * row, a change row), `count` transactions one after the other into a store already holding
 * `filled` of them. Medians and p99 of each hint, and of the default hint after the steps every
 * engine write takes first (the catch-up's probe of the change log, under a Web Lock), the modes
 * taking turns; then the probe alone, by a cursor and by a count, once all but the last 100
 * changes are deleted, as a snapshot prunes the log.
 *
 * `tsx scripts/bench/idb-commit.ts [filled=0] [count=60]`
 */
import { runInChromiumWorker } from './raw-worker.ts'

const filled = Number(process.argv[2] ?? 0)
const count = Number(process.argv[3] ?? 60)

/** Runs in the worker: one database, three stores. */
function workerMain() {
  const id = (i: number) => `01J${String(i).padStart(23, '0')}`
  const memory = (i: number) => ({
    id: id(i),
    namespace: 'default',
    type: 'fact',
    text: `The owner prefers metric units, note ${i}`,
    key: `the owner prefers metric units note ${i}`,
    tags: [],
    createdAt: 1.79e12 + i,
    updatedAt: 1.79e12 + i,
  })
  const vector = (i: number) => {
    const v = new Float32Array(384)
    for (let d = 0; d < 384; d++) v[d] = Math.sin(i * 31 + d)
    return v
  }
  const request = <T>(r: IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
  const open = (name: string) => {
    const r = indexedDB.open(name, 1)
    r.onupgradeneeded = () => {
      const db = r.result
      const memories = db.createObjectStore('memories', { keyPath: 'id' })
      memories.createIndex('[namespace+type+key]', ['namespace', 'type', 'key'], { unique: true })
      memories.createIndex('[namespace+type]', ['namespace', 'type'])
      memories.createIndex('namespace', 'namespace')
      memories.createIndex('tags', 'tags', { multiEntry: true })
      db.createObjectStore('vectors', { keyPath: 'id' }).createIndex('model', 'model')
      db.createObjectStore('changes', { keyPath: 'seq', autoIncrement: true }).createIndex(
        'id',
        'id',
      )
    }
    return request(r)
  }
  const write = (db: IDBDatabase, from: number, to: number, durability: IDBTransactionDurability) =>
    new Promise<void>((resolve, reject) => {
      const tx = db.transaction(['memories', 'vectors', 'changes'], 'readwrite', { durability })
      for (let i = from; i < to; i++) {
        tx.objectStore('memories').put(memory(i))
        tx.objectStore('vectors').put({ id: id(i), model: 'm', dims: 384, vector: vector(i) })
        tx.objectStore('changes').put({ op: 'put', id: id(i), at: 1.79e12 })
      }
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error)
    })
  // What every write asks first (the catch-up): anything in the change log past the last seq?
  // By a cursor, as the engine asks (the first entry past it); by a count too, below, after a prune.
  const probe = (db: IDBDatabase, by: 'count' | 'cursor' = 'cursor', after = 1e12) => {
    const store = db.transaction('changes', 'readonly').objectStore('changes')
    const range = IDBKeyRange.lowerBound(after, true)
    return by === 'count' ? request(store.count(range)) : request(store.openCursor(range))
  }
  // What a snapshot does to the log: every change but the last 100 deleted.
  const prune = (db: IDBDatabase, upTo: number) =>
    new Promise<void>((resolve, reject) => {
      const tx = db.transaction('changes', 'readwrite')
      tx.objectStore('changes').delete(IDBKeyRange.upperBound(upTo))
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error)
    })
  const modes: Record<string, (db: IDBDatabase, i: number) => Promise<void>> = {
    default: (db, i) => write(db, i, i + 1, 'default'),
    relaxed: (db, i) => write(db, i, i + 1, 'relaxed'),
    strict: (db, i) => write(db, i, i + 1, 'strict'),
    'probe, then default': async (db, i) => {
      await probe(db)
      await write(db, i, i + 1, 'default')
    },
    'Web Lock, probe, then default': (db, i) =>
      navigator.locks.request('commit', async () => {
        await probe(db)
        await write(db, i, i + 1, 'default')
      }),
  }
  const scope = self as unknown as DedicatedWorkerGlobalScope
  scope.onmessage = async (event: MessageEvent<{ filled: number; count: number }>) => {
    const { filled, count } = event.data
    await request(indexedDB.deleteDatabase('commit'))
    const db = await open('commit')
    for (let i = 0; i < filled; i += 5000) await write(db, i, Math.min(filled, i + 5000), 'relaxed')
    const out: Record<string, number[]> = Object.fromEntries(
      Object.keys(modes).map((mode) => [mode, [] as number[]]),
    )
    let next = filled
    for (let k = 0; k < count; k++) {
      for (const [mode, run] of Object.entries(modes)) {
        const t = performance.now()
        await run(db, next++)
        out[mode]?.push(performance.now() - t)
      }
    }
    // Seqs are 1-based: the last one written is `next`.
    await prune(db, next - 100)
    for (const by of ['cursor', 'count'] as const) {
      const times: number[] = []
      for (let k = 0; k < count; k++) {
        const t = performance.now()
        await probe(db, by, next)
        times.push(performance.now() - t)
      }
      out[`the probe alone by ${by}, after a prune`] = times
    }
    db.close()
    await request(indexedDB.deleteDatabase('commit'))
    scope.postMessage(out)
  }
}

const at = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] as number
const { result, browserVersion } = await runInChromiumWorker<Record<string, number[]>>(workerMain, {
  filled,
  count,
})
console.log(
  `Chromium ${browserVersion}, ${count} one-memory writes a mode into ${filled.toLocaleString('en')} stored\n`,
)
console.log('| durability, steps | p50 | p99 |')
console.log('|---|---:|---:|')
for (const [mode, times] of Object.entries(result)) {
  console.log(`| ${mode} | ${at(times, 0.5).toFixed(2)} ms | ${at(times, 0.99).toFixed(2)} ms |`)
}
