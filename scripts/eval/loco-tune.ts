/**
 * Fusion chosen across conversations (issue 26 §1): leave one fold out, each fold one LoCoMo dev
 * conversation (the five of `LAB_SETS`' turn halves, or observation halves with `--unit
 * observations`) or one of the two personal sets, per model. For each held-out fold the rule is
 * the one with the best worst margin over the other folds (hybrid − the better single list, in
 * questions, on hit@1, hit@5 and MRR; then the summed MRR margin), scored on the fold it never
 * saw. Rules: the engine's default, the adaptive rule's neighbourhood (`src/core/adaptive-fusion.ts`,
 * with the model's vector share varied and the BM25-lead knob), static score fusion and RRF with
 * per-list weights and k.
 *
 * Every rule is scored by replaying recall's own fusion inputs through recall's own `fuseLists`
 * (`fusion-inputs.ts`, checked to reproduce the engine's order), with the floor off in every mode:
 * this judges fusion alone. The bars are the engine's keyword-only and semantic-only rankings,
 * floor off too.
 *
 *   npx tsx scripts/eval/loco-tune.ts [--unit turns|observations] [--embedders ngram,use]
 */
import { parseArgs } from 'node:util'
import type { AdaptivePolicy } from '../../src/core/adaptive-fusion.ts'
import { type FusionInputs, type FusionRule, replayFusion } from './fusion-inputs.ts'
import { labCalibration, MODEL_OF } from './fusions.ts'
import { LAB_SETS, labSet } from './lab-data.ts'
import { scoreQuestion } from './metrics.ts'

type Triple = [number, number, number]

interface Question {
  f: FusionInputs
  keys: Record<string, string[]>
  relevant: Set<string>
}

interface Fold {
  name: string
  questions: Question[]
  keyword: Triple
  semantic: Triple
}

export interface NamedRule {
  label: string
  rule: FusionRule
}

/** hit@1, hit@5 and MRR of `ranked` lists, summed over questions (so in questions). */
function sums(rankings: { ids: string[]; q: Question }[]): Triple {
  const t: Triple = [0, 0, 0]
  for (const { ids, q } of rankings) {
    const m = scoreQuestion(
      ids.slice(0, 10).map((id) => q.keys[id] ?? []),
      q.relevant,
    )
    t[0] += m['hit@1']
    t[1] += m['hit@5']
    t[2] += m.mrr
  }
  return t
}

async function foldsOf(unit: string, embedder: string): Promise<Fold[]> {
  const prefix = unit === 'observations' ? 'obs-' : 'turns-'
  const sets = LAB_SETS.filter((s) => s.id.startsWith(prefix) || s.id.startsWith('personal-'))
  const folds: Fold[] = []
  for (const set of sets) {
    const log = (line: string) => process.stderr.write(`${line}\n`)
    const collected = await labSet(set, embedder, log, { fusion: true })
    for (const store of collected.stores) {
      const kept = store.questions.filter((q) => !collected.apart.includes(q.kind))
      const questions = kept.map((q) => ({
        f: q.fusion!,
        keys: store.keys,
        relevant: new Set(q.relevant),
      }))
      folds.push({
        name: store.name,
        questions,
        keyword: sums(kept.map((q, i) => ({ ids: q.engineOff!.keyword, q: questions[i]! }))),
        semantic: sums(kept.map((q, i) => ({ ids: q.engineOff!.semantic, q: questions[i]! }))),
      })
    }
  }
  return folds
}

const VECTOR_SHARES = [0.5, 1, 1.5, 2, 3]

/** The adaptive rule's neighbourhood, with and without the BM25-lead knob. */
function* policies(): Generator<AdaptivePolicy> {
  for (const peakFloor of [0, 0.2])
    for (const peakGap of [0.25, 0.5, 1])
      for (const liftSpreads of [4, 8])
        for (const floorSpreads of [-3, -1, 0])
          for (const lead of [undefined, [1.3, 0.5], [1.5, 0.5], [1.5, 0], [2, 0]] as const) {
            const policy: AdaptivePolicy = {
              coverageFloor: 0,
              peakGap,
              peakFloor,
              liftSpreads,
              floorSpreads,
            }
            if (lead) Object.assign(policy, { leadRatio: lead[0], leadTrust: lead[1] })
            yield policy
          }
}

const short = (p: AdaptivePolicy) =>
  `gap ${p.peakGap} pf ${p.peakFloor} lift ${p.liftSpreads} fl ${p.floorSpreads}${p.leadRatio ? ` lead ${p.leadRatio}×→${p.leadTrust}` : ''}`

/** Every rule tried for `model`: the default first. */
export function rulesFor(model: string): NamedRule[] {
  const calibration = labCalibration(model)
  const rules: NamedRule[] = [{ label: 'engine default', rule: { calibration } }]
  for (const policy of policies()) {
    for (const share of VECTOR_SHARES) {
      rules.push({
        label: `adaptive ${short(policy)} share ${share}`,
        rule: { calibration: { ...calibration, vectorShare: share }, policy },
      })
    }
  }
  for (const w of [0.5, 1, 2.5, 5]) {
    rules.push({
      label: `score, static shares, vector ×${w}`,
      rule: { calibration: undefined, weights: { vector: w } },
    })
  }
  for (const rrfK of [10, 30, 60]) {
    for (const w of [0.5, 1, 2]) {
      rules.push({
        label: `rrf k ${rrfK}, vector ×${w}`,
        rule: { calibration: undefined, fusion: 'rrf', rrfK, weights: { vector: w } },
      })
    }
  }
  return rules
}

/** Margins in questions of each fold: hybrid under `rule` − the better single list. */
function margins(folds: Fold[], rule: FusionRule): Triple[] {
  return folds.map((fold) => {
    const t = sums(fold.questions.map((q) => ({ ids: replayFusion(q.f, rule), q })))
    return [0, 1, 2].map((k) => t[k]! - Math.max(fold.keyword[k]!, fold.semantic[k]!)) as Triple
  })
}

/** Worst margin over `use`, then summed MRR margin: higher is better. */
function objective(m: Triple[], use: number[]): [number, number] {
  let worst = Number.POSITIVE_INFINITY
  let mrr = 0
  for (const i of use) {
    worst = Math.min(worst, ...m[i]!)
    mrr += m[i]![2]
  }
  return [worst, mrr]
}

function better(a: [number, number], b: [number, number]): boolean {
  return a[0] > b[0] + 1e-9 || (Math.abs(a[0] - b[0]) <= 1e-9 && a[1] > b[1] + 1e-9)
}

const f1 = (x: number) => {
  const r = Math.round(x * 10) / 10
  return (r >= 0 ? '+' : '−') + Math.abs(r).toFixed(Number.isInteger(r) ? 0 : 1)
}
const cell = (t: Triple) => t.map(f1).join(' / ')

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      unit: { type: 'string', default: 'turns' },
      embedders: { type: 'string', default: 'ngram,use' },
    },
  })
  const unit = values.unit === 'observations' ? 'observations' : 'turns'
  const out = [
    `LoCoMo ${unit} (one fold per conversation) and the personal sets; floor off in every mode.`,
    '',
    '| model | fold | n | best single list h@1 / h@5 / MRR | default: hybrid − best | held out: hybrid − best | rule chosen on the other folds |',
    '| --- | --- | --: | --- | --- | --- | --- |',
  ]
  for (const embedder of values.embedders.split(',')) {
    const model = MODEL_OF[embedder]!
    const folds = await foldsOf(unit, embedder)
    const rules = rulesFor(model)
    const started = process.cpuUsage()
    const all = rules.map((r) => margins(folds, r.rule))
    const cpu = process.cpuUsage(started)
    process.stderr.write(
      `${embedder}: ${rules.length} rules × ${folds.length} folds in ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU\n`,
    )
    const everyFold = folds.map((_, i) => i)
    const pick = (use: number[]) => {
      let best = 0
      for (let r = 1; r < rules.length; r++) {
        if (better(objective(all[r]!, use), objective(all[best]!, use))) best = r
      }
      return best
    }
    const loo: Triple[] = []
    folds.forEach((fold, i) => {
      const chosen = pick(everyFold.filter((j) => j !== i))
      loo.push(all[chosen]![i]!)
      const best = [0, 1, 2].map((k) => Math.max(fold.keyword[k]!, fold.semantic[k]!))
      out.push(
        `| ${embedder} | ${fold.name} | ${fold.questions.length} | ${best.map((x, k) => (k === 2 ? x.toFixed(1) : String(x))).join(' / ')} | ${cell(all[0]![i]!)} | ${cell(all[chosen]![i]!)} | ${rules[chosen]!.label} |`,
      )
    })
    const stat = (rows: Triple[]) =>
      [0, 1, 2]
        .map((k) => {
          const xs = rows.map((r) => r[k]!)
          const mu = xs.reduce((a, b) => a + b, 0) / xs.length
          const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mu) ** 2, 0) / xs.length)
          return `${f1(mu)} ± ${sd.toFixed(1)} (worst ${f1(Math.min(...xs))})`
        })
        .join(' / ')
    out.push(`| ${embedder} | mean ± sd over folds | | | ${stat(all[0]!)} | ${stat(loo)} | |`)
    const final = pick(everyFold)
    out.push(
      `| ${embedder} | one rule chosen on all folds | | | | ${all[final]!.map(cell).join('; ')} | ${rules[final]!.label} |`,
    )
    const meets = (m: Triple[]) => m.every((t) => t.every((x) => x >= -1 - 1e-9))
    out.push(
      `| ${embedder} | within one question on every fold | | | ${meets(all[0]!) ? 'yes' : 'no'} | ${meets(loo) ? 'yes' : 'no'} | |`,
    )
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exit(1)
  })
}
