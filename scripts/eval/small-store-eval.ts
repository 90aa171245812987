/**
 * The relevance floor on small stores (issue 26 §2): the small-store paraphrase set's half, with
 * n-gram and USE-lite, semantic and hybrid, floor off and on; counts of questions answered at
 * rank 1 and in the top 5, questions left with no hit, and the share of each store's off-topic
 * questions left empty. Prints a markdown table (docs/quality.md).
 *
 *   npx tsx scripts/eval/small-store-eval.ts --role tune|holdout [--floor JSON]
 */
import { parseArgs } from 'node:util'
import type { RecallMode, RecallOptions } from '../../src/core/types.ts'
import { makeEmbedder } from './embedders.ts'
import { type EvalReport, runEvaluation } from './run.ts'
import { smallStores } from './small-stores.ts'

const MODES: readonly RecallMode[] = ['semantic', 'hybrid']

const count = (report: EvalReport, mode: RecallMode, metric: 'hit@1' | 'hit@5') =>
  Math.round(report.modes[mode]!.overall[metric] * report.scored)

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { role: { type: 'string', default: 'tune' }, floor: { type: 'string' } },
  })
  const role = values.role === 'holdout' ? 'holdout' : 'tune'
  const floor: RecallOptions['floor'] = values.floor ? JSON.parse(values.floor) : true
  const out = [
    `| model | mode | questions | hit@1 off → on | hit@5 off → on | empty off → on | off-topic empty |`,
    '| --- | --- | --: | --- | --- | --- | --: |',
  ]
  for (const name of ['ngram', 'use']) {
    const embedder = await makeEmbedder(name)
    const run = (ask: 'paraphrase' | 'nonsense', f: RecallOptions['floor']) =>
      runEvaluation(smallStores(role, ask), { modes: MODES, embedder, floor: f })
    const [on, off, junk] = [
      await run('paraphrase', floor),
      await run('paraphrase', false),
      await run('nonsense', floor),
    ]
    for (const mode of MODES) {
      const j = junk.floor[mode]!
      out.push(
        `| ${name} | ${mode} | ${on.scored} | ${count(off, mode, 'hit@1')} → ${count(on, mode, 'hit@1')} | ${count(off, mode, 'hit@5')} → ${count(on, mode, 'hit@5')} | ${off.floor[mode]!.empty} → **${on.floor[mode]!.empty}** | ${j.empty} / ${j.questions} |`,
      )
    }
    await embedder.dispose?.()
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})
