/**
 * The relevance floor as the engine runs it (`RecallOptions.floor`): every set of one role ×
 * {n-gram, USE-lite} × {keyword, semantic, hybrid}, with the floor on and off, through
 * `engine.recall` (k 10, boosts off, as `npm run eval`); then the off-topic queries of the same
 * half against the generic stores. Prints the markdown tables of docs/quality.md.
 *
 *   npx tsx scripts/eval/floor-eval.ts --role tune|holdout [--sets dev-agent,personal-tune]
 *
 * `--sets` keeps only the named sets (real questions and off-topic stores alike).
 */
import { parseArgs } from 'node:util'
import type { RecallMode } from '../../src/core/types.ts'
import { type EvalSet, loadDataset, splitSet } from './datasets.ts'
import { makeEmbedder } from './embedders.ts'
import { LAB_SETS, type LabSet, nonsenseQueries, templatedSet } from './lab-data.ts'
import { type EvalReport, runEvaluation } from './run.ts'

const MODES: readonly RecallMode[] = ['keyword', 'semantic', 'hybrid']
const GENERIC = ['dev-agent', 'personal-tune', 'personal-holdout']
const f3 = (x: number) => x.toFixed(3)
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`

function evalSetOf(set: LabSet): EvalSet {
  return set.path === 'templated:'
    ? templatedSet()
    : splitSet(loadDataset(set.path, set.unit), set.split)
}

function withNonsense(set: EvalSet, half: 'tune' | 'holdout'): EvalSet {
  const queries = nonsenseQueries(half)
  return {
    ...set,
    apart: [],
    stores: set.stores.map((store) => ({
      ...store,
      questions: queries.map((query) => ({ query, relevant: [], kind: 'nonsense' })),
    })),
  }
}

type Run = (set: EvalSet, floor: boolean) => Promise<EvalReport>

function realRow(id: string, mode: RecallMode, on: EvalReport, off: EvalReport): string {
  const a = on.modes[mode]!.overall
  const b = off.modes[mode]!.overall
  const f = on.floor[mode]!
  return [
    id,
    String(f.questions),
    mode,
    `${f3(b['hit@1'])} / ${f3(b['hit@5'])} / ${f3(b['hit@10'])} / ${f3(b.mrr)}`,
    `${f3(a['hit@1'])} / ${f3(a['hit@5'])} / ${f3(a['hit@10'])} / ${f3(a.mrr)}`,
    `${signed(a['hit@1'] - b['hit@1'])} / ${signed(a['hit@5'] - b['hit@5'])} / ${signed(a['hit@10'] - b['hit@10'])} / ${signed(a.mrr - b.mrr)}`,
    (f.filtered / f.questions).toFixed(2),
  ].join(' | ')
}

function nonsenseRow(id: string, mode: RecallMode, on: EvalReport, off: EvalReport): string {
  const a = on.floor[mode]!
  const b = off.floor[mode]!
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(0)} %`
  return [
    id,
    String(a.questions),
    mode,
    `${(b.returned / b.questions).toFixed(2)} → ${(a.returned / a.questions).toFixed(2)}`,
    `${pct(b.empty, b.questions)} → **${pct(a.empty, a.questions)}**`,
    String(a.filtered),
  ].join(' | ')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { role: { type: 'string', default: 'tune' }, sets: { type: 'string' } },
  })
  const only = values.sets?.split(',')
  const wanted = (id: string) => only === undefined || only.includes(id)
  const role = values.role === 'holdout' ? 'holdout' : 'tune'
  const sets = LAB_SETS.filter(
    (s) => wanted(s.id) && (s.role === role || (role === 'holdout' && s.role === 'check')),
  )
  const bases = LAB_SETS.filter(
    (s) => wanted(s.id) && GENERIC.includes(s.id) && (role === 'holdout' || s.role === 'tune'),
  )
  const log = (line: string) => process.stderr.write(`${line}\n`)
  const out: string[] = []
  for (const name of ['ngram', 'use']) {
    const embedder = await makeEmbedder(name)
    const run: Run = (set, floor) =>
      runEvaluation(set, { modes: MODES, embedder, ...(floor ? {} : { floor: false }) })
    out.push(
      `\n#### ${role === 'tune' ? 'Tuning' : 'Held-out'} sets, ${name} — hit@1 / hit@5 / hit@10 / MRR\n`,
      '| set | n | mode | floor off | **floor on** | on − off | dropped per question |',
      '| --- | --: | --- | --- | --- | --- | --: |',
    )
    for (const set of sets) {
      const data = evalSetOf(set)
      const [on, off] = [await run(data, true), await run(data, false)]
      for (const mode of MODES) out.push(`| ${realRow(set.id, mode, on, off)} |`)
      log(`${name} ${set.id} done`)
    }
    out.push(
      `\nOff-topic queries (${role} half), ${name}:\n`,
      '| store | queries | mode | hits per query (off → on) | left with no hit (off → on) | dropped |',
      '| --- | --: | --- | --- | --- | --: |',
    )
    for (const base of bases) {
      const data = withNonsense(evalSetOf(base), role)
      const [on, off] = [await run(data, true), await run(data, false)]
      for (const mode of MODES) out.push(`| ${nonsenseRow(base.id, mode, on, off)} |`)
    }
    await embedder.dispose?.()
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})
