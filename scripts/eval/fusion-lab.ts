/**
 * Fusion lab: scores fusion functions offline on the lists recall would fuse, over the tuning
 * sets (and, with `--holdout`, the held-out ones), for the n-gram and USE-lite embedders.
 *
 *   npx tsx scripts/eval/fusion-lab.ts [--holdout] [--embedders ngram,use] [--json]
 */
import { parseArgs } from 'node:util'
import { BASE_FUSIONS, scoreFusion } from './fusion-score.ts'
import { FUSIONS } from './fusions.ts'
import { LAB_SETS, labSet } from './lab-data.ts'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      holdout: { type: 'boolean', default: false },
      embedders: { type: 'string', default: 'ngram,use' },
      fusions: { type: 'string' },
    },
  })
  const log = (line: string) => process.stderr.write(`${line}\n`)
  const sets = LAB_SETS.filter((s) => values.holdout || s.role === 'tune')
  const all = { ...BASE_FUSIONS, ...FUSIONS }
  const chosen = values.fusions ? values.fusions.split(',') : Object.keys(all)
  for (const embedder of values.embedders.split(',')) {
    const out: string[] = [`\n## ${embedder}: hit@1 / hit@5 / MRR`]
    out.push(['fusion'.padEnd(28), ...sets.map((s) => s.id.padEnd(20))].join(''))
    const collected = await Promise.all(sets.map((s) => labSet(s, embedder, log)))
    for (const name of chosen) {
      const cells = collected.map((c) => {
        const r = scoreFusion(all[name]!, c, embedder).overall
        return `${r['hit@1'].toFixed(3)}/${r['hit@5'].toFixed(3)}/${r.mrr.toFixed(3)}`.padEnd(20)
      })
      out.push([name.padEnd(28), ...cells].join(''))
    }
    process.stdout.write(`${out.join('\n')}\n`)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exit(1)
  })
}
