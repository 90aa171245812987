/**
 * Fusion chosen across conversations (issue 26 §1): leave one fold out, each fold a LoCoMo dev
 * conversation (turns or observations) or one of the two personal sets, per model. For each
 * held-out fold the rule ({@link AdaptivePolicy} of `tune-fusion.ts`' grid, with the model's
 * vector share) is the one with the best worst margin over the other folds (hybrid − the better
 * single list, in questions, on hit@1, hit@5 and MRR; then the summed MRR), scored on the fold it
 * never saw. Prints the per-fold margins of that procedure and of the engine's default rule, with
 * the fast scorer of `tune-fusion.ts` (fusion only: no floor, no boosts), and the rule the
 * procedure picks on every fold.
 *
 * Caveat (measured 2026-12): the lab's replay of fusion has drifted from the engine's. On conv-26
 * with n-gram the lab's default rule ranks hybrid hit@1 at 0.293, the engine at 0.393 (compare
 * this table's default column with `loco-fusion.ts`, which reads the engine's own top 10). Until
 * `fusion-score.ts`' lists are rebuilt as `src/engine/recall/fuse.ts` builds them, this table says
 * how the lab's fusion carries across conversations, not the engine's. Choose nothing on it.
 *
 *   npx tsx scripts/eval/loco-tune.ts [--unit turns|observations] [--full]
 *
 * Without `--full` the search is the neighbourhood of the default rule (378 rules per model, a few
 * minutes on a loaded 2-core machine); `--full` is `tune-fusion.ts`' 720 policies × 7 shares.
 */
import { parseArgs } from 'node:util'
import { type AdaptivePolicy, DEFAULT_ADAPTIVE_POLICY } from '../../src/core/adaptive-fusion.ts'
import { scoreFusion } from './fusion-score.ts'
import { labCalibration, MODEL_OF } from './fusions.ts'
import { LAB_SETS, labSet } from './lab-data.ts'
import { evaluate, grid, type Prepared, prepare, VECTOR_SHARES } from './tune-fusion.ts'

interface Fold {
  name: string
  n: number
  prepared: Prepared[]
  /** The better single list's hit@1, hit@5 and MRR, in questions. */
  bar: [number, number, number]
}

interface Rule {
  policy: AdaptivePolicy
  share: number
}

const label = (r: Rule) => `${JSON.stringify(r.policy).replace(/"/g, '')} share ${r.share}`

async function foldsOf(unit: string, embedder: string): Promise<Fold[]> {
  const prefix = unit === 'observations' ? 'obs-' : 'turns-'
  const sets = LAB_SETS.filter((s) => s.id.startsWith(prefix) || s.id.startsWith('personal-'))
  const folds: Fold[] = []
  for (const set of sets) {
    const collected = await labSet(set, embedder, (line) => process.stderr.write(`${line}\n`))
    for (const store of collected.stores) {
      const one = { ...collected, stores: [store] }
      const prepared = prepare(one)
      const n = prepared.length
      const kw = scoreFusion((q) => q.engine.keyword, one, embedder).overall
      const sem = scoreFusion((q) => q.engine.semantic, one, embedder).overall
      folds.push({
        name: store.name === set.id ? set.id : store.name,
        n,
        prepared,
        bar: [
          n * Math.max(kw['hit@1'], sem['hit@1']),
          n * Math.max(kw['hit@5'], sem['hit@5']),
          n * Math.max(kw.mrr, sem.mrr),
        ],
      })
    }
  }
  return folds
}

/** The default rule's neighbourhood: full keyword trust floor 0, the other knobs around it. */
function* nearGrid(): Generator<AdaptivePolicy> {
  for (const peakFloor of [0, 0.2])
    for (const peakGap of [0.25, 0.5, 1])
      for (const liftSpreads of [4, 6, 8])
        for (const floorSpreads of [-3, -1, 0])
          yield { coverageFloor: 0, peakGap, peakFloor, liftSpreads, floorSpreads }
}

/** Margins in questions of `rule` on each fold: [hit@1, hit@5, MRR]. */
function margins(folds: Fold[], model: string, rule: Rule): [number, number, number][] {
  return folds.map((f) => {
    const t = evaluate(f.prepared, model, rule.policy, rule.share)
    return [f.n * t.h1 - f.bar[0], f.n * t.h5 - f.bar[1], f.n * t.mrr - f.bar[2]]
  })
}

/** Worst margin over `folds`, then summed MRR margin: higher is better. */
function objective(m: [number, number, number][], folds: number[]): [number, number] {
  let worst = Number.POSITIVE_INFINITY
  let mrr = 0
  for (const i of folds) {
    worst = Math.min(worst, ...m[i]!)
    mrr += m[i]![2]
  }
  return [worst, mrr]
}

function better(a: [number, number], b: [number, number]): boolean {
  return a[0] > b[0] + 1e-9 || (Math.abs(a[0] - b[0]) <= 1e-9 && a[1] > b[1] + 1e-9)
}

const f1 = (x: number) => (x >= 0 ? '+' : '') + (Number.isInteger(x) ? String(x) : x.toFixed(1))

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      unit: { type: 'string', default: 'turns' },
      full: { type: 'boolean', default: false },
    },
  })
  const unit = values.unit === 'observations' ? 'observations' : 'turns'
  const out = [
    `| model | fold | n | default rule: hybrid − best list | leave-one-out rule: hybrid − best list | rule chosen without the fold |`,
    '| --- | --- | --: | --- | --- | --- |',
  ]
  for (const embedder of ['ngram', 'use']) {
    const model = MODEL_OF[embedder]!
    const folds = await foldsOf(unit, embedder)
    const rules: Rule[] = [
      { policy: DEFAULT_ADAPTIVE_POLICY, share: labCalibration(model).vectorShare },
    ]
    for (const policy of values.full ? grid() : nearGrid()) {
      for (const share of VECTOR_SHARES) rules.push({ policy, share })
    }
    const all = rules.map((r) => margins(folds, model, r))
    const everyFold = folds.map((_, i) => i)
    const pick = (use: number[]) => {
      let best = 0
      for (let r = 1; r < rules.length; r++) {
        if (better(objective(all[r]!, use), objective(all[best]!, use))) best = r
      }
      return best
    }
    const loo: [number, number, number][] = []
    folds.forEach((fold, i) => {
      const chosen = pick(everyFold.filter((j) => j !== i))
      loo.push(all[chosen]![i]!)
      out.push(
        `| ${embedder} | ${fold.name} | ${fold.n} | ${all[0]![i]!.map(f1).join(' / ')} | ${all[chosen]![i]!.map(f1).join(' / ')} | ${label(rules[chosen]!)} |`,
      )
    })
    const stat = (rows: [number, number, number][]) =>
      [0, 1, 2]
        .map((k) => {
          const xs = rows.map((r) => r[k]!)
          const mu = xs.reduce((a, b) => a + b, 0) / xs.length
          const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mu) ** 2, 0) / xs.length)
          return `${mu.toFixed(1)} ± ${sd.toFixed(1)} (worst ${f1(Math.min(...xs))})`
        })
        .join(' / ')
    out.push(`| ${embedder} | mean ± sd | | ${stat(all[0]!)} | ${stat(loo)} | |`)
    const final = pick(everyFold)
    out.push(
      `| ${embedder} | chosen on every fold | | | ${all[final]!.map((m) => m.map(f1).join('/')).join(', ')} | ${label(rules[final]!)} |`,
    )
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})
