/**
 * Time of `review()` at a given store size, in Node (fake-indexeddb, the n-gram embedder, so
 * vectors exist and the merge check runs): a first review (every memory new since no review,
 * so each is checked for near duplicates), a second one at once (nothing new), and one a month
 * later (about a third of the memories are logs whose TTL has run: archived). Seeded fixtures.
 *
 *   npx tsx scripts/bench-review.ts [--size 10000]
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { DAY_MS } from '../src/core/options.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const size = arg('size', 10_000)

/** mulberry32: a seeded generator, so every run stores the same memories. */
function seeded(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const random = seeded(14)
const WORDS =
  'deploy staging owner metric units ficus ticket upload flaky login token pool socket river Porto Lisbon office floor meeting notebook desk car build script hook checker'.split(
    ' ',
  )
const sentence = (i: number) =>
  `${Array.from({ length: 8 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')} #${i}`

let now = Date.UTC(2026, 0, 1)
const engine = await MemoryEngine.open({
  name: 'bench-review',
  indexedDB: new IDBFactory(),
  IDBKeyRange,
  // A benchmark measures its own operations: no review in its quiet spells.
  autoReview: false,
  embedder: new NgramEmbedder(),
  clock: () => now,
})
const items = Array.from({ length: size }, (_, i) => ({
  text: sentence(i),
  type: i % 3 === 0 ? 'log' : 'fact',
}))
const loadStart = performance.now()
for (let i = 0; i < items.length; i += 500) await engine.rememberMany(items.slice(i, i + 500))
const loadMs = performance.now() - loadStart

const line = (label: string, r: Awaited<ReturnType<MemoryEngine['review']>>) =>
  `${label.padEnd(22)} ${r.tookMs.toFixed(0).padStart(7)} ms  scanned ${r.scanned}, archived ${r.archived.length}, removed ${r.removed.length}, flagged ${r.flagged.length}, merged ${r.merged.length}, promoted ${r.promoted.length}`

console.log(`review at ${size} memories (stored in ${(loadMs / 1000).toFixed(1)} s)`)
console.log(line('first (all new)', await engine.review()))
console.log(line('again (none new)', await engine.review()))
now += 31 * DAY_MS
console.log(line('a month later', await engine.review()))
await engine.close()
process.exit(0)
