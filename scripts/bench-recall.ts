/**
 * Engram's recall latency alone, in Node (fake-indexeddb), excluding query embedding: a thin
 * front for the full benchmark (`scripts/bench/run.ts`), kept for `npm run bench:recall`.
 *
 *   npx tsx scripts/bench-recall.ts [--size 10000] [--queries 200]
 */
import { renderMarkdown } from './bench/report.ts'
import { runBench } from './bench/run.ts'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const size = arg('size', 10_000)

const report = await runBench({
  sizes: [size],
  nodeSizes: [size],
  queries: arg('queries', 200),
  systems: ['engram'],
  runtimes: ['node'],
  write: false,
  command: `npx tsx scripts/bench-recall.ts --size ${size}`,
})
console.log(renderMarkdown(report))
process.exit(0)
