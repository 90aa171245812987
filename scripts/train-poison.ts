/**
 * Trains the poison screen's learned stage and writes `src/core/poison/model/weights.ts`.
 *
 *   npm run train:poison              # train, calibrate, write the weights, print the figures
 *   npm run train:poison -- --check   # train and compare with the committed weights; write nothing
 *
 * Data: `../shared/eval/poison/public-train.json` (public sources, see its README) and the
 * project's own hand-written corpus and tuning split. Whole sources are held out
 * ({@link HELD_OUT}): chosen before the first training run and never tuned on; their figures
 * come from `npm run eval:poison -- --public`. Share-alike sources ({@link EVALUATION_ONLY}) are
 * never trained on, so the weights shipped derive only from sources whose licences allow it.
 *
 * Calibration: each training source is scored by a model trained without it (leave one source
 * out), and the share-alike sources by the shipped model; the offset added to the logit is the
 * highest at which the learned stage adds at most {@link TARGET_FP} of those benign texts to
 * what the rules alone flag (one combined score, one threshold).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { POISON_THRESHOLD } from '../src/core/poison/index.ts'
import { FEATURE_BITS, FEATURE_BUCKETS, readable } from '../src/core/poison/model/features.ts'
import { fnv1a } from '../src/core/poison/model/hash.ts'
import { scoreReading } from '../src/core/poison/model/learned.ts'
import {
  type Example,
  featurise,
  type QuantisedModel,
  quantise,
  train,
} from '../src/core/poison/model/train.ts'
import { screenWith } from '../src/core/poison/screen.ts'
import * as corpus from '../test/fixtures/poison-corpus.ts'
import * as tuning from '../test/fixtures/poison-tuning.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const PUBLIC_TRAIN = join(ROOT, '..', 'shared', 'eval', 'poison', 'public-train.json')
const WEIGHTS = join(ROOT, 'src', 'core', 'poison', 'model', 'weights.ts')

/** Whole sources kept out of training and calibration: the figures that predict unseen sets. */
export const HELD_OUT = [
  'microsoft/BIPIA',
  'protectai/llm-guard',
  'whylabs/langkit',
  'Giskard-AI/giskard',
] as const
/** CC BY-SA sources: evaluation only, so no shipped weight derives from them. */
export const EVALUATION_ONLY = [
  'google-research-datasets/dstc8-schema-guided-dialogue',
  'OWASP/CheatSheetSeries',
] as const
/** What the learned stage may add to the rules' false positives on benign texts it never saw. */
export const TARGET_FP = 0.005

/** A labelled text and where it came from. */
export interface Sample extends Example {
  source: string
  style: string
  /** The full origin: a planted attack also names the source of the document it sits in. */
  origin: string
}

interface PublicFile {
  attacks: { text: string; style: string; origin: string }[]
  benign: { text: string; style: string; origin: string }[]
}

/** Every sample of the public file, labelled and tagged with its source repository. */
export function loadPublic(path = PUBLIC_TRAIN): Sample[] {
  const data = JSON.parse(readFileSync(path, 'utf8')) as PublicFile
  const of = (label: 0 | 1) => (row: PublicFile['attacks'][number]) => ({
    text: row.text,
    label,
    style: row.style,
    source: row.origin.split(':')[0] ?? row.origin,
    origin: row.origin,
  })
  return [...data.attacks.map(of(1)), ...data.benign.map(of(0))]
}

/** The project's own corpus and tuning split (the holdout split stays out). */
export function loadOwn(): Sample[] {
  const own: Sample[] = []
  for (const s of [...corpus.ATTACKS, ...corpus.BENIGN]) {
    own.push({
      text: s.text,
      label: s.attack ? 1 : 0,
      style: s.rule ?? 'benign',
      source: 'engram/corpus',
      origin: 'engram/corpus',
    })
  }
  for (const text of corpus.ORDINARY) {
    own.push({
      text,
      label: 0,
      style: 'ordinary',
      source: 'engram/corpus',
      origin: 'engram/corpus',
    })
  }
  for (const [list, label] of [
    [tuning.ATTACKS, 1],
    [tuning.BENIGN, 0],
  ] as const) {
    for (const s of list)
      own.push({
        text: s.text,
        label,
        style: s.style,
        source: 'engram/tuning',
        origin: 'engram/tuning',
      })
  }
  return own
}

/** Whether a sample comes from `source` or sits in a document of it (a planted attack). */
export const touches = (sample: Sample, source: string) => sample.origin.includes(source)

/**
 * The samples the shipped weights are trained on: none from a held-out or share-alike source,
 * nor planted in one of their documents (else the carrier would be learnt as part of an attack).
 */
export function trainingSet(samples: readonly Sample[]): Sample[] {
  const out = [...HELD_OUT, ...EVALUATION_ONLY]
  return samples.filter((s) => !out.some((source) => touches(s, source)))
}

/** Trains the shipped model on `samples` (already {@link trainingSet}). Deterministic. */
export function trainShipped(samples: readonly Sample[]): QuantisedModel {
  return quantise(train(samples, featurise(samples)))
}

/** A stable digest of a model: FNV-1a over its weights, shift and bias. */
export function digestOf(model: QuantisedModel): string {
  let text = `${model.shift}:${model.bias}:`
  for (let i = 0; i < model.weights.length; i += 4096) {
    text += String.fromCharCode(...Array.from(model.weights.subarray(i, i + 4096), (w) => w & 0xff))
  }
  return fnv1a(text).toString(16).padStart(8, '0')
}

/** Out-of-source logits: each source scored by a model trained on the other sources. */
export function outOfSource(samples: readonly Sample[]): Map<Sample, number> {
  const logits = new Map<Sample, number>()
  const features = featurise(samples)
  const sources = [...new Set(samples.map((s) => s.source))]
  for (const source of sources) {
    const rest = samples.flatMap((s, i) => (touches(s, source) ? [] : [i]))
    const model = quantise(
      train(
        rest.map((i) => samples[i] as Sample),
        rest.map((i) => features[i]!),
      ),
    )
    for (const s of samples) {
      if (s.source === source) logits.set(s, scoreReading(readable(s.text), model).logit)
    }
  }
  return logits
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

/**
 * The offset that keeps the combined screen within the false-positive budget: rules score `r`,
 * the learned stage `σ(z + offset)`, combined as `1 - (1 - r)(1 - p)` against the threshold.
 */
export function calibrate(
  samples: readonly Sample[],
  logits: ReadonlyMap<Sample, number>,
  rules: ReadonlyMap<Sample, number>,
): number {
  const benign = samples.filter((s) => s.label === 0)
  const byRules = benign.filter((s) => (rules.get(s) ?? 0) >= POISON_THRESHOLD).length
  const budget = byRules + Math.floor(benign.length * TARGET_FP)
  const flaggedAt = (offset: number) =>
    benign.filter((s) => {
      const p = sigmoid((logits.get(s) ?? 0) + offset)
      return 1 - (1 - (rules.get(s) ?? 0)) * (1 - p) >= POISON_THRESHOLD
    }).length
  return highestOffsetWithin(flaggedAt, budget, 6)
}

/**
 * The highest logit offset from −12 up to `upTo`, in steps of 0.05, at which `flaggedAt` stays
 * within `budget`, rounded to 0.01. Flags only grow with the offset: the last one within budget,
 * climbing from "never".
 */
export function highestOffsetWithin(
  flaggedAt: (offset: number) => number,
  budget: number,
  upTo: number,
): number {
  let offset = -12
  for (let step = 0; step <= Math.round((upTo + 12) / 0.05); step++) {
    const o = -12 + step * 0.05
    if (flaggedAt(o) > budget) break
    offset = o
  }
  return Math.round(offset * 100) / 100
}

export function percent(n: number, d: number): string {
  return d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`
}

function writeWeights(model: QuantisedModel, offset: number, sources: string[]): void {
  const bytes = new Uint8Array(model.weights.buffer, model.weights.byteOffset, FEATURE_BUCKETS)
  const base64 = Buffer.from(bytes).toString('base64')
  const text = `/**
 * The learned poison stage's weights, written by \`npm run train:poison\`: do not edit by hand.
 * int8 per hash bucket (2^${FEATURE_BITS}, base64), logit = bias + Σ w·count / 2^shift / √Σcount, then
 * σ(logit + offset). Trained on: ${sources.join(', ')}.
 */
export const LEARNED_WEIGHTS = {
  version: 1,
  shift: ${model.shift},
  bias: ${model.bias},
  offset: ${offset},
  digest: '${digestOf(model)}',
  weights:
    '${base64}',
} as const
`
  writeFileSync(WEIGHTS, text)
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check')
  const samples = trainingSet([...loadPublic(), ...loadOwn()])
  const sources = [...new Set(samples.map((s) => s.source))].sort()
  console.log(`Training on ${samples.length} texts from ${sources.length} sources`)
  const model = trainShipped(samples)
  const digest = digestOf(model)
  if (check) {
    const { LEARNED_WEIGHTS } = await import('../src/core/poison/model/weights.ts')
    const same = LEARNED_WEIGHTS.digest === digest
    console.log(same ? `Reproduced ${digest}` : `Differs: ${digest} vs ${LEARNED_WEIGHTS.digest}`)
    process.exitCode = same ? 0 : 1
    return
  }
  const logits = outOfSource(samples)
  const unseen = loadPublic().filter((s) =>
    (EVALUATION_ONLY as readonly string[]).includes(s.source),
  )
  for (const s of unseen) logits.set(s, scoreReading(readable(s.text), model).logit)
  const calibration = [...samples, ...unseen]
  const rules = new Map(calibration.map((s) => [s, screenWith(s.text, null).score] as const))
  const offset = calibrate(calibration, logits, rules)
  writeWeights(model, offset, sources)
  console.log(`Wrote weights ${digest}, offset ${offset}\n`)
  console.log('## Leave one source out (each scored by a model trained without it)\n')
  console.log('| source | attacks caught | benign flagged |')
  console.log('| --- | ---: | ---: |')
  for (const source of [...sources, ...EVALUATION_ONLY]) {
    const of = calibration.filter((s) => s.source === source)
    const hit = (s: Sample) => {
      const p = sigmoid((logits.get(s) ?? 0) + offset)
      return 1 - (1 - (rules.get(s) ?? 0)) * (1 - p) >= POISON_THRESHOLD
    }
    const a = of.filter((s) => s.label === 1)
    const b = of.filter((s) => s.label === 0)
    const caught = a.filter(hit).length
    const wrong = b.filter(hit).length
    console.log(
      `| ${source} | ${caught} / ${a.length} (${percent(caught, a.length)}) | ${wrong} / ${b.length} (${percent(wrong, b.length)}) |`,
    )
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
