/**
 * Sync bench (issue 18): initial sync of N memories through a real CouchDB-protocol server on
 * 127.0.0.1 (express-pouchdb over LevelDB, in a child process), then steady-state lag: how long
 * a single write on one device takes to be recallable on another while both sync live.
 *
 *   npx tsx scripts/bench/sync.ts [--memories 10000] [--writes 30]
 *
 * Engines run in process over fake-indexeddb, mirrors in PouchDB's memory adapter, without an
 * embedder (vectors do not sync by default), so the figures are sync's own cost: sealing,
 * keyed ids, the mirror, HTTP replication and the engine's write path.
 */
import { parseArgs } from 'node:util'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import memoryAdapter from 'pouchdb-adapter-memory'
import { hashSeed, uniform } from '../../scripts/models/rng.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'
import { startSync } from '../../src/sync/index.ts'
import { Pouch, type PouchDatabase } from '../../src/sync/pouch.ts'
import { CouchServer } from '../../test/helpers/couch-server.ts'

Pouch.plugin(memoryAdapter)

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '10000' },
    writes: { type: 'string', default: '30' },
  },
})
const N = Number(values.memories)
const WRITES = Number(values.writes)

const WORDS =
  'amber basil cedar delta ember fjord garnet harbor indigo juniper kestrel lagoon meadow nectar onyx prairie quartz raven saffron tundra umber velvet willow xenon yarrow zephyr'.split(
    ' ',
  )

/** Seeded distinct sentences: an index keeps them apart, the words make them text. */
function corpus(n: number): string[] {
  const next = uniform(hashSeed('sync-bench'))
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 8 }, () => WORDS[Math.floor(next() * WORDS.length)])
    return `Note ${i}: ${words.join(' ')}`
  })
}

let devices = 0
async function device(): Promise<{ engine: MemoryEngine; mirror: PouchDatabase }> {
  const n = ++devices
  const engine = await MemoryEngine.open({
    name: `bench-${n}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    // A benchmark measures its own operations: no review in its quiet spells.
    autoReview: false,
  })
  return { engine, mirror: new Pouch(`bench-mirror-${n}`, { adapter: 'memory' }) as PouchDatabase }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

const server = await CouchServer.start()
try {
  const url = server.url('bench')
  const key = await crypto.subtle.importKey('raw', new Uint8Array(32).fill(9), 'HKDF', false, [
    'deriveKey',
  ])
  const a = await device()
  const b = await device()
  const texts = corpus(N)
  for (let i = 0; i < N; i += 1000) {
    await a.engine.rememberMany(texts.slice(i, i + 1000).map((text) => ({ text })))
  }
  const stored = await a.engine.count({})

  let started = performance.now()
  const push = await startSync(a.engine, { url, key, mirror: a.mirror, live: false })
  await push.done
  const pushMs = performance.now() - started

  started = performance.now()
  const pull = await startSync(b.engine, { url, key, mirror: b.mirror, live: false })
  await pull.done
  const pullMs = performance.now() - started
  const pulled = await b.engine.count({})

  const liveA = await startSync(a.engine, { url, key, mirror: a.mirror, pollMs: 25 })
  const liveB = await startSync(b.engine, { url, key, mirror: b.mirror, pollMs: 25 })
  const lags: number[] = []
  for (let i = 0; i < WRITES; i++) {
    const written = performance.now()
    const { id } = await a.engine.remember(
      `Steady-state write ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`,
    )
    const memory = (await a.engine.get(id))!
    while (b.engine.replica.idForKey(memory) === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    lags.push(performance.now() - written)
  }
  await liveA.stop()
  await liveB.stop()
  lags.sort((x, y) => x - y)
  const report = {
    memories: stored,
    pulled,
    initialPushMs: Math.round(pushMs),
    initialPullMs: Math.round(pullMs),
    pushPerSecond: Math.round(stored / (pushMs / 1000)),
    pullPerSecond: Math.round(pulled / (pullMs / 1000)),
    steadyLagMs: {
      writes: WRITES,
      p50: Math.round(percentile(lags, 0.5)),
      p95: Math.round(percentile(lags, 0.95)),
      max: Math.round(lags[lags.length - 1]!),
    },
  }
  console.log(JSON.stringify(report, null, 2))
  await a.engine.close()
  await b.engine.close()
} finally {
  await server.close()
}
