/**
 * The cost of encryption at rest, in Node (fake-indexeddb, the n-gram embedder, so vectors are
 * stored and sealed too): the same memories imported, the memory closed and opened again, and
 * the same queries recalled, once unencrypted and once encrypted (PBKDF2 at its default 600k
 * rounds). Reports import time, open time (with the restore part and, encrypted, the key
 * derivation inside it), recall p50/p99, and lock/unlock. Seeded corpus (scripts/bench/corpus.ts).
 * The two runs alternate `--rounds` times and each figure is the median, so a noisy machine
 * hurts both columns alike.
 *
 *   npx tsx scripts/bench-at-rest.ts [--size 10000] [--queries 300] [--rounds 3]
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { AtRestSecret } from '../src/core/types.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import type { EngineOptions } from '../src/engine/engine-options.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'
import { buildCorpus } from './bench/corpus.ts'
import { latency, median, timeEach } from './bench/measure.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const size = arg('size', 10_000)
const queryCount = arg('queries', 300)
const rounds = arg('rounds', 3)
const corpus = buildCorpus(size, queryCount)
const jsonl = corpus.texts.map((text) => JSON.stringify({ text })).join('\n')

interface Figures {
  importMs: number
  closeMs: number
  openMs: number
  restoreMs: number
  restored: string
  recall: { p50: number; p99: number }
  lockMs?: number
  unlockMs?: number
}

async function run(encryption: AtRestSecret | undefined): Promise<Figures> {
  const options: EngineOptions = {
    name: 'bench-at-rest',
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    // A benchmark measures its own operations: no review in its quiet spells.
    autoReview: false,
    embedder: new NgramEmbedder(),
    ...(encryption ? { encryption } : {}),
  }
  let engine = await MemoryEngine.open(options)
  let t = performance.now()
  await engine.transfer.import(jsonl)
  const importMs = performance.now() - t
  t = performance.now()
  await engine.close()
  const closeMs = performance.now() - t
  t = performance.now()
  engine = await MemoryEngine.open(options)
  const openMs = performance.now() - t
  const open = (await engine.inspect.stats()).open!
  const samples = await timeEach(corpus.queries.length, (i) =>
    engine.recall(corpus.queries[i]!, { log: false }),
  )
  const figures: Figures = {
    importMs,
    closeMs,
    openMs,
    restoreMs: open.ms,
    restored: open.restored,
    recall: latency(samples),
  }
  if (encryption) {
    t = performance.now()
    await engine.atRest.lock()
    figures.lockMs = performance.now() - t
    t = performance.now()
    await engine.atRest.unlock(encryption)
    figures.unlockMs = performance.now() - t
  }
  await engine.close()
  return figures
}

const ms = (n: number | undefined) => (n === undefined ? '—' : `${n.toFixed(n < 10 ? 2 : 0)} ms`)
const plainRuns: Figures[] = []
const sealedRuns: Figures[] = []
for (let i = 0; i < rounds; i++) {
  plainRuns.push(await run(undefined))
  sealedRuns.push(await run({ passphrase: 'correct horse battery staple' }))
}
console.log(
  `encryption at rest, ${size} memories (${corpus.source} corpus), Node ${process.versions.node} + fake-indexeddb, n-gram embedder, median of ${rounds}`,
)
console.log('                      plain        encrypted')
const rows: [string, (f: Figures) => number | undefined][] = [
  // Together: the last snapshot lands inside the import or inside close(), as timing falls.
  ['import + close', (f) => f.importMs + f.closeMs],
  ['open', (f) => f.openMs],
  ['  of which restore', (f) => f.restoreMs],
  ['recall p50', (f) => f.recall.p50],
  ['recall p99', (f) => f.recall.p99],
  ['lock', (f) => f.lockMs],
  ['unlock', (f) => f.unlockMs],
]
const mid = (runs: Figures[], pick: (f: Figures) => number | undefined) => {
  const values = runs.map(pick).filter((v): v is number => v !== undefined)
  return values.length ? median(values) : undefined
}
for (const [label, pick] of rows) {
  const [a, b] = [mid(plainRuns, pick), mid(sealedRuns, pick)]
  const ratio = a && b ? ` ${(b / a).toFixed(2)}×` : ''
  console.log(`${label.padEnd(20)} ${ms(a).padStart(10)} ${ms(b).padStart(14)}${ratio}`)
}
const restored = (runs: Figures[]) => runs.map((f) => f.restored).join(',')
console.log(`restored from: ${restored(plainRuns)} / ${restored(sealedRuns)}`)
process.exit(0)
