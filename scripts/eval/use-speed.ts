/**
 * UseEmbedder speed in Node: load (cold, files from node_modules), one short query (median of
 * 20 after a warm-up), and batches of 64 (median of 5, per sentence).
 *
 *   npx tsx scripts/eval/use-speed.ts
 */
import { UseEmbedder } from '../../src/embedder/use-embedder.ts'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const embedder = new UseEmbedder()
let started = performance.now()
await embedder.load()
const loadMs = performance.now() - started

const query = 'Who is the owner’s spouse?'
await embedder.embed([query], { kind: 'query' })
const single: number[] = []
for (let i = 0; i < 20; i++) {
  started = performance.now()
  await embedder.embed([`${query} ${i}`], { kind: 'query' })
  single.push(performance.now() - started)
}
// Sentences of everyday memory length (8–20 words), distinct per run so nothing is reused.
const words =
  'the owner prefers metric units and her sister lives in Lisbon near the old harbour with two cats'.split(
    ' ',
  )
const batch = (run: number) =>
  Array.from(
    { length: 64 },
    (_, i) => words.slice(0, 8 + ((i + run) % 12)).join(' ') + ` ${run}-${i}`,
  )
const batches: number[] = []
for (let run = 0; run < 5; run++) {
  started = performance.now()
  await embedder.embed(batch(run), { kind: 'passage' })
  batches.push((performance.now() - started) / 64)
}
process.stdout.write(
  `${JSON.stringify({ backend: embedder.stats().device, loadMs: Math.round(loadMs), queryMs: +median(single).toFixed(1), batch64MsPerSentence: +median(batches).toFixed(2) })}\n`,
)
await embedder.dispose()
