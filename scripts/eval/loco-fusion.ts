/**
 * Fusion judged across conversations (issue 26 §1), measurement only: every LoCoMo dev
 * conversation as its own fold (the five of `LAB_SETS`' turn and observation halves), and the
 * two personal sets, with n-gram and USE-lite; per fold, the engine's hybrid (adaptive fusion,
 * floor on) against the better single list (keyword or semantic) on hit@1, hit@5 and MRR, in
 * questions (MRR as a sum), then the mean and spread of the per-fold differences. No rule is
 * chosen here: with one fixed rule, leave-one-conversation-out is this per-fold table.
 *
 *   npx tsx scripts/eval/loco-fusion.ts [--unit turns|observations]
 */
import { parseArgs } from 'node:util'
import { LAB_SETS, labSet } from './lab-data.ts'
import { scoreQuestion } from './metrics.ts'

const METRICS = ['hit@1', 'hit@5', 'mrr'] as const

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { unit: { type: 'string', default: 'turns' } } })
  const prefix = values.unit === 'observations' ? 'obs-' : 'turns-'
  const sets = LAB_SETS.filter((s) => s.id.startsWith(prefix) || s.id.startsWith('personal-'))
  const log = (line: string) => process.stderr.write(`${line}\n`)
  const out = [
    '| model | fold | n | keyword h@1 / h@5 / MRR | semantic | hybrid | hybrid − best list (questions) |',
    '| --- | --- | --: | --- | --- | --- | --- |',
  ]
  for (const model of ['ngram', 'use']) {
    const diffs: number[][] = []
    for (const set of sets) {
      const collected = await labSet(set, model, log)
      for (const store of collected.stores) {
        const sums = { keyword: [0, 0, 0], semantic: [0, 0, 0], hybrid: [0, 0, 0] }
        let n = 0
        for (const q of store.questions) {
          if (collected.apart.includes(q.kind)) continue
          n++
          const relevant = new Set(q.relevant)
          for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
            const m = scoreQuestion(
              q.engine[mode].map((id) => store.keys[id] ?? []),
              relevant,
            )
            METRICS.forEach((k, i) => {
              sums[mode][i]! += m[k]
            })
          }
        }
        const best = METRICS.map((_, i) => Math.max(sums.keyword[i]!, sums.semantic[i]!))
        const diff = METRICS.map((_, i) => sums.hybrid[i]! - best[i]!)
        diffs.push(diff)
        const f = (xs: number[]) =>
          xs.map((x, i) => (i === 2 ? x.toFixed(1) : String(x))).join(' / ')
        out.push(
          `| ${model} | ${store.name} | ${n} | ${f(sums.keyword)} | ${f(sums.semantic)} | ${f(sums.hybrid)} | ${diff.map((x) => (x >= 0 ? '+' : '') + x.toFixed(x % 1 ? 1 : 0)).join(' / ')} |`,
        )
      }
    }
    const stat = (i: number) => {
      const xs = diffs.map((d) => d[i]!)
      const mu = xs.reduce((a, b) => a + b, 0) / xs.length
      const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mu) ** 2, 0) / xs.length)
      return `${mu.toFixed(1)} ± ${sd.toFixed(1)} (worst ${Math.min(...xs).toFixed(1)})`
    }
    out.push(
      `| ${model} | mean ± sd over folds | | | | | ${METRICS.map((_, i) => stat(i)).join(' / ')} |`,
    )
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})
