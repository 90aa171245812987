/**
 * What else might move the learned stage's held-out detection at a fixed false-positive rate:
 * training variants, each scored on the held-out sources of `npm run eval:poison -- --public`.
 *
 *   npx tsx scripts/poison-lab.ts               # every variant, detection at fixed FP budgets
 *   npx tsx scripts/poison-lab.ts --calibrate   # also the shipped protocol's offset for the last
 *
 * **These are tuning figures**: the FP budgets are read on the held-out benign texts, so a row
 * picked from this table is no longer held out. The score is the calibration's proxy, rules
 * `r` and the learned stage `σ(z + offset)` combined as `1 − (1 − r)(1 − p)` against the
 * threshold, with `z` the best window of the text's first reading (no decoded layers, no quote
 * discount): within about a point of `analyseText` on these sets.
 */
import { POISON_THRESHOLD } from '../src/core/poison/index.ts'
import { readable } from '../src/core/poison/model/features.ts'
import { scoreReading } from '../src/core/poison/model/learned.ts'
import {
  type Example,
  featurise,
  type QuantisedModel,
  quantise,
  seeded,
  type TrainOptions,
  train,
} from '../src/core/poison/model/train.ts'
import { screenWith } from '../src/core/poison/screen.ts'
import * as holdout from '../test/fixtures/poison-holdout.ts'
import {
  calibrate,
  EVALUATION_ONLY,
  HELD_OUT,
  loadOwn,
  loadPublic,
  type Sample,
  touches,
  trainingSet,
} from './train-poison.ts'

const all = [...loadPublic(), ...loadOwn()]
const training = trainingSet(all)
const inTraining = new Set(training)
const held: Sample[] = all.filter(
  (s) => !inTraining.has(s) && [...HELD_OUT, ...EVALUATION_ONLY].some((h) => touches(s, h)),
)
for (const [list, label] of [
  [holdout.ATTACKS, 1],
  [holdout.BENIGN, 0],
] as const) {
  for (const s of list) {
    held.push({ text: s.text, label, style: s.style, source: 'engram/holdout', origin: '' })
  }
}
const rules = new Map([...all, ...held].map((s) => [s, screenWith(s.text, null).score] as const))
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))
const logits = (model: QuantisedModel, samples: readonly Sample[] = held) =>
  new Map(samples.map((s) => [s, scoreReading(readable(s.text), model).logit] as const))

function report(name: string, z: ReadonlyMap<Sample, number>, offset?: number): void {
  const attacks = held.filter((s) => s.label === 1)
  const benign = held.filter((s) => s.label === 0)
  const flagged = (s: Sample, o: number) =>
    1 - (1 - (rules.get(s) ?? 0)) * (1 - sigmoid((z.get(s) ?? 0) + o)) >= POISON_THRESHOLD
  const at = (o: number) => ({
    caught: attacks.filter((s) => flagged(s, o)).length / attacks.length,
    wrong: benign.filter((s) => flagged(s, o)).length / benign.length,
  })
  const byRules = benign.filter((s) => (rules.get(s) ?? 0) >= POISON_THRESHOLD).length
  const cells = [0, 0.005, 0.01].map((extra) => {
    let best = at(-12)
    for (let o = -12; o <= 6; o += 0.05) {
      const r = at(o)
      if (r.wrong * benign.length > byRules + Math.floor(benign.length * extra)) break
      best = r
    }
    return `${(100 * best.caught).toFixed(1)}% (FP ${(100 * best.wrong).toFixed(1)}%)`
  })
  if (offset !== undefined) {
    const r = at(offset)
    cells.push(`${(100 * r.caught).toFixed(1)}% at FP ${(100 * r.wrong).toFixed(1)}% (${offset})`)
  } else cells.push('')
  console.log(`| ${name} | ${cells.join(' | ')} |`)
}

/** Attacks from the training set planted in training carriers (chat, requests, how-tos, code). */
function augment(samples: readonly Sample[], n: number): Sample[] {
  const random = seeded(7)
  const carriers = samples.filter(
    (s) => s.label === 0 && /chat|excerpt|request|howto|code/.test(s.style),
  )
  const alone = samples.filter(
    (s) => s.label === 1 && !s.style.includes('planted') && s.text.length < 400,
  )
  const out = [...samples]
  for (let i = 0; i < n && carriers.length > 0 && alone.length > 0; i++) {
    const c = carriers[Math.floor(random() * carriers.length)] as Sample
    const a = alone[Math.floor(random() * alone.length)] as Sample
    const text = random() < 0.5 ? `${c.text}\n${a.text}` : `${a.text}\n${c.text}`
    out.push({ ...a, text, style: 'augmented' })
  }
  return out
}

/** Trains, then trains again with the top `share` of benign texts by logit weighted `weight`. */
function hardNegatives(samples: readonly Sample[], share: number, weight: number): QuantisedModel {
  const features = featurise(samples)
  const first = quantise(train(samples, features))
  const z = samples.map((s) => (s.label === 0 ? scoreReading(readable(s.text), first).logit : 0))
  const ranked = samples.flatMap((s, i) => (s.label === 0 ? [z[i] as number] : []))
  ranked.sort((a, b) => b - a)
  const cut = ranked[Math.floor(ranked.length * share)] as number
  const weighted: Example[] = samples.map((s, i) =>
    s.label === 0 && (z[i] as number) >= cut ? { ...s, weight } : s,
  )
  return quantise(train(weighted, features))
}

console.log(
  `## Learned-stage variants on the held-out sources (${held.filter((s) => s.label === 1).length} attacks, ${held.filter((s) => s.label === 0).length} benign): tuning figures\n`,
)
console.log(
  '| variant | caught, learned adds no FP | learned adds ≤ 0.5% | learned adds ≤ 1% | at the shipped protocol’s offset |',
)
console.log('| --- | ---: | ---: | ---: | ---: |')
const features = featurise(training)
const variants: [string, TrainOptions][] = [
  ['shipped recipe (8 epochs, rate 0.5, l2 1e-4)', {}],
  ['12 epochs', { epochs: 12 }],
  ['rate 0.25', { rate: 0.25 }],
  ['l2 3e-4', { l2: 3e-4 }],
  ['attack class ×0.5', { attackWeight: 0.5 }],
  ['attack class ×1.5', { attackWeight: 1.5 }],
]
for (const [name, options] of variants) {
  report(name, logits(quantise(train(training, features, options))))
}
for (const [share, weight] of [
  [0.05, 3],
  [0.05, 6],
  [0.2, 2],
] as const) {
  report(
    `hard negatives: top ${share * 100}% of benign ×${weight}`,
    logits(hardNegatives(training, share, weight)),
  )
}
for (const n of [400, 1000]) {
  const set = augment(training, n)
  report(`${n} training attacks planted in carriers`, logits(quantise(train(set, featurise(set)))))
}
const both = (samples: readonly Sample[]) => hardNegatives(augment(samples, 1000), 0.05, 3)
const model = both(training)
let offset: number | undefined
if (process.argv.includes('--calibrate')) {
  // The shipped protocol: each training source scored by a model trained without it.
  const outside = new Map<Sample, number>()
  for (const source of new Set(training.map((s) => s.source))) {
    const without = both(training.filter((s) => !touches(s, source)))
    for (const s of training) {
      if (s.source === source) outside.set(s, scoreReading(readable(s.text), without).logit)
    }
  }
  const unseen = all.filter((s) => (EVALUATION_ONLY as readonly string[]).includes(s.source))
  for (const [s, z] of logits(model, unseen)) outside.set(s, z)
  offset = calibrate([...training, ...unseen], outside, rules)
}
report('planted 1000 + hard negatives 5% ×3', logits(model), offset)
