/**
 * What the open world costs (issue 26): the one-off embed of its sentences
 * (src/core/recall/open-world.ts) that a small store's first recall waits for, and one query
 * embed (what each small-store recall spent embedding the query a second time, until the floor
 * took the vector list's query vector), with USE-lite in Node, uncached. CPU time of
 * this process (user + system), so a loaded machine inflates it less than wall time; median of
 * `--runs` fresh embedders.
 *
 *   npx tsx scripts/eval/open-world-cost.ts [--runs 5]
 */
import { parseArgs } from 'node:util'
import { OPEN_WORLD_TEXTS } from '../../src/core/recall/open-world.ts'
import { makeEmbedder } from './embedders.ts'

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since)
  return (user + system) / 1000
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
  const world: number[] = []
  const query: number[] = []
  for (let run = 0; run < Number(values.runs); run++) {
    const embedder = await makeEmbedder('use', undefined, false)
    await embedder.load()
    await embedder.embed(['warm the kernels'], { kind: 'query' })
    let t = process.cpuUsage()
    await embedder.embed([...OPEN_WORLD_TEXTS], { kind: 'passage' })
    world.push(cpuMs(t))
    t = process.cpuUsage()
    for (let i = 0; i < 20; i++) {
      await embedder.embed([`what is my job number ${run} ${i}?`], { kind: 'query' })
    }
    query.push(cpuMs(t) / 20)
    await embedder.dispose?.()
  }
  process.stdout.write(
    `USE-lite, Node, CPU ms (median of ${values.runs}): open world (${OPEN_WORLD_TEXTS.length} sentences) ${median(world).toFixed(0)}, one query ${median(query).toFixed(1)}\n`,
  )
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})
