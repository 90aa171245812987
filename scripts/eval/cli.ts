/**
 * Retrieval evaluation: hit@1/3/5/10, MRR@10 and precision@3 per mode, overall and per query
 * kind (LoCoMo: per category), for the generic format and LoCoMo (shared/eval/README.md).
 *
 *   npm run eval -- --dataset ../shared/eval/locomo/locomo-dev.json [--unit turns|observations]
 *     [--mode all|baseline|keyword|semantic|hybrid[,…]] [--embedder ngram|use|tiny|MODEL_ID|DIR]
 *     [--split all|tune|holdout] [--no-cache] [--models-dir DIR] [--json] [--keyword JSON] [--retrieval JSON] [--weights JSON]
 *     [--speaker text|tag|alias|text+tag] [--dates meta|tags|text] [--captions] [--trace TEXT]
 *     [--floor on|off|JSON] [--nonsense tune|holdout]
 *
 * `--floor` sets `RecallOptions.floor` (default on, the engine's bars; a JSON object overrides
 * bars). `--nonsense` asks each store the off-topic queries of `data/nonsense-queries.json`
 * (even positions tune, odd held out) instead of its own questions: what matters there is the
 * floor line, the share of queries left with no hit.
 *
 * `--embedder use` is the Universal Sentence Encoder lite (src/embedder/use-embedder.ts), from
 * node_modules. Real models' vectors are cached per text under `.scratch/embed-cache/`
 * (`--no-cache` to skip). `--split` picks LoCoMo's tuning conversations (the first 3 in file
 * order) or the held-out ones (the last 2); generic files are whole either way.
 *
 * `baseline` is a plain Okapi BM25 (scripts/eval/baseline.ts), not Engram. `--json` prints one
 * JSON object on stdout and nothing else there; progress goes to stderr. LoCoMo category 5
 * (adversarial) is scored and shown apart, never counted in `overall`.
 */
import { parseArgs } from 'node:util'
import type { RecallOptions } from '../../src/core/types.ts'
import {
  DEFAULT_LOCOMO_SHAPE,
  type EvalSet,
  type LocomoShape,
  loadDataset,
  type Split,
  splitSet,
  type Unit,
} from './datasets.ts'
import { makeEmbedder } from './embedders.ts'
import { nonsenseQueries } from './lab-data.ts'
import { METRICS } from './metrics.ts'
import { ALL_MODES, type EvalMode, type EvalReport, runEvaluation } from './run.ts'

const USAGE = `usage: npm run eval -- --dataset PATH [--unit turns|observations]
  [--mode all|baseline|keyword|semantic|hybrid[,...]] [--embedder ngram|use|tiny|MODEL_ID|DIR]
  [--split all|tune|holdout] [--no-cache] [--models-dir DIR] [--json] [--keyword JSON] [--retrieval JSON] [--weights JSON]
  [--speaker text|tag|alias|text+tag] [--dates meta|tags|text] [--captions] [--trace TEXT]
  [--floor on|off|JSON] [--nonsense tune|holdout]`

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`)
  process.exit(2)
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!allowed.includes(value as T)) {
    fail(`--${flag}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`)
  }
  return value as T
}

function json(value: string | undefined, flag: string): Record<string, never> | undefined {
  if (value === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, never>
    }
  } catch {}
  return fail(`--${flag}: expected a JSON object, got ${JSON.stringify(value)}`)
}

const pad = (text: string, width: number) => text.padEnd(width)
const rate = (x: number) => x.toFixed(3)

function printReport(report: EvalReport, modes: readonly EvalMode[]): void {
  const out: string[] = []
  const apart = Object.entries(report.apart)
    .map(([kind, n]) => `${n} of kind ${kind} reported apart, not in overall`)
    .join('; ')
  out.push(
    `${report.dataset} (${report.unit}) · embedder ${report.embedder ?? 'none'}`,
    `questions: ${report.scored} scored${apart ? ` (+ ${apart})` : ''}, ${report.skipped} skipped` +
      (report.skipped > 0
        ? ` (${Object.entries(report.skippedBy)
            .map(([why, n]) => `${n} ${why}`)
            .join(', ')})`
        : ''),
    `memories: ${report.memories} stored, merged ${report.merged.exact} exact + ${report.merged.near} near duplicates, ${report.flagged} flagged; ` +
      `load ${report.seconds.load.toFixed(1)} s, recall ${report.seconds.recall.toFixed(1)} s`,
    '',
    `${pad('mode', 10)}${METRICS.map((m) => pad(m, 8)).join('')}`,
  )
  for (const mode of modes) {
    const r = report.modes[mode]!.overall
    out.push(`${pad(mode, 10)}${METRICS.map((m) => pad(rate(r[m]), 8)).join('')}`)
  }
  out.push('', 'relevance floor: hits dropped from a top 10, questions left with no hit')
  for (const mode of modes) {
    const f = report.floor[mode as keyof EvalReport['floor']]
    if (!f || f.questions === 0) continue
    const perQuestion = (f.filtered / f.questions).toFixed(2)
    const empty = `${f.empty} of ${f.questions} (${((100 * f.empty) / f.questions).toFixed(0)} %)`
    out.push(`${pad(mode, 10)}filtered ${f.filtered} (${perQuestion} per question), empty ${empty}`)
  }
  out.push('', `by kind: hit@5 / MRR`)
  out.push(`${pad('kind', 14)}${pad('n', 6)}${modes.map((m) => pad(m, 14)).join('')}`)
  for (const [kind, n] of Object.entries(report.kinds)) {
    const cells = modes.map((mode) => {
      const r = report.modes[mode]!.byKind[kind]!
      return pad(`${rate(r['hit@5'])} / ${rate(r.mrr)}`, 14)
    })
    const label = kind in report.apart ? `${kind} (apart)` : kind
    out.push(`${pad(label, 14)}${pad(String(n), 6)}${cells.join('')}`)
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

function floorOption(value: string): RecallOptions['floor'] | undefined {
  if (value === 'on') return undefined
  if (value === 'off') return false
  return json(value, 'floor')
}

/** Each store asked the off-topic queries of one half instead of its own questions. */
function askNonsense(set: EvalSet, half: 'tune' | 'holdout'): EvalSet {
  const queries = nonsenseQueries(half)
  return {
    ...set,
    name: `${set.name} × nonsense (${half})`,
    skipped: {},
    apart: [],
    stores: set.stores.map((store) => ({
      ...store,
      questions: queries.map((query) => ({ query, relevant: [], kind: 'nonsense' })),
    })),
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      unit: { type: 'string', default: 'turns' },
      mode: { type: 'string', default: 'all' },
      embedder: { type: 'string', default: 'ngram' },
      split: { type: 'string', default: 'all' },
      'no-cache': { type: 'boolean', default: false },
      'models-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      keyword: { type: 'string' },
      retrieval: { type: 'string' },
      weights: { type: 'string' },
      speaker: { type: 'string', default: DEFAULT_LOCOMO_SHAPE.speaker },
      dates: { type: 'string', default: DEFAULT_LOCOMO_SHAPE.dates },
      captions: { type: 'boolean', default: false },
      trace: { type: 'string' },
      floor: { type: 'string', default: 'on' },
      nonsense: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  if (!values.dataset) fail('--dataset is required')
  const unit = oneOf<Unit>(values.unit, ['turns', 'observations'], 'unit')
  const modes =
    values.mode === 'all'
      ? ALL_MODES
      : values.mode.split(',').map((m) => oneOf<EvalMode>(m.trim(), ALL_MODES, 'mode'))
  const shape: LocomoShape = {
    speaker: oneOf(values.speaker, ['text', 'tag', 'alias', 'text+tag'] as const, 'speaker'),
    dates: oneOf(values.dates, ['meta', 'tags', 'text'] as const, 'dates'),
    captions: values.captions,
  }
  const started = performance.now()
  const split = oneOf<Split>(values.split, ['all', 'tune', 'holdout'], 'split')
  const loaded = splitSet(loadDataset(values.dataset, unit, shape), split)
  const set = values.nonsense
    ? askNonsense(loaded, oneOf(values.nonsense, ['tune', 'holdout'] as const, 'nonsense'))
    : loaded
  const floor = floorOption(values.floor)
  const needsVectors = modes.some((m) => m === 'semantic' || m === 'hybrid')
  const embedder = needsVectors
    ? await makeEmbedder(values.embedder, values['models-dir'], !values['no-cache'])
    : undefined
  const keyword = json(values.keyword, 'keyword')
  const retrieval = json(values.retrieval, 'retrieval')
  const weights = json(values.weights, 'weights')
  const report = await runEvaluation(set, {
    modes,
    ...(embedder ? { embedder } : {}),
    ...(keyword ? { keyword } : {}),
    ...(retrieval ? { retrieval } : {}),
    ...(weights ? { weights } : {}),
    ...(floor !== undefined ? { floor } : {}),
    ...(values.trace !== undefined ? { trace: values.trace } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  })
  await embedder?.dispose?.()
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`)
  else printReport(report, modes)
  process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
  process.exit(1)
})
