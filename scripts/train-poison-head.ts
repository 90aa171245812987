/**
 * Issue 24 §3: a learned head on the memory's USE-lite vector, measured against the whole screen
 * on the held-out sources. Not shipped (docs/security.md, "The semantic layer"): this script is
 * kept so the measurement can be rerun.
 *
 *   npx tsx scripts/train-poison-head.ts [--cache DIR] [--chat N] [--embed-only]
 *     [--kinds vector,vector+window,stacked] [--l2 1e-4,1e-3,1e-2] [--embedder ngram]
 *
 * Data as `npm run train:poison` and `npm run eval:poison -- --public` read it: the head trains
 * on the same sources as the learned stage (never a held-out or share-alike one), picks its L2
 * penalty by leave one source out, and is calibrated like the learned stage: the highest offset
 * at which it adds at most 0.5% of the benign calibration texts (out-of-source training texts and
 * the share-alike sources) to what the screen already flags. Vectors are cached on disk
 * (default `/tmp/h3/embed-cache`, outside the repository) so reruns do not embed again.
 *
 * Two readings of a text are embedded: the text as the write path embeds it (USE-lite, first 256
 * tokens: the memory's own vector, already paid for), and for texts over 240 characters the
 * learned stage's best window (what an instruction buried in a long page looks like alone: one
 * extra embed per long memory). A head scores a text as its best reading.
 */
import { pathToFileURL } from 'node:url'
import { POISON_THRESHOLD } from '../src/core/poison/index.ts'
import { readable } from '../src/core/poison/model/features.ts'
import { scoreReading, shippedModel } from '../src/core/poison/model/learned.ts'
import { seeded } from '../src/core/poison/model/train.ts'
import { screenWith } from '../src/core/poison/screen.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { UseEmbedder } from '../src/embedder/use-embedder.ts'
import { CachedEmbedder } from './eval/embed-cache.ts'
import { heldOutSamples, realChat } from './eval-poison-public.ts'
import {
  EVALUATION_ONLY,
  highestOffsetWithin,
  loadOwn,
  loadPublic,
  outOfSource,
  percent,
  type Sample,
  TARGET_FP,
  touches,
  trainingSet,
} from './train-poison.ts'

const WINDOW_FROM = 240

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name)
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback
}

/** A sample with what the head and the combination read. */
interface Row {
  sample: Sample
  /** The memory's vector, then the best window's when the text is long. */
  vectors: Float32Array[]
  /** The whole screen's score (rules + learned stage) and the rules' alone. */
  screen: number
  rules: number
  /** The learned stage's raw best-window logit. */
  learned: number
}

/** Every text the run reads, split by role. */
export interface Sets {
  train: Sample[]
  calibration: Sample[]
  held: Sample[]
  chat: Sample[]
}

export function gather(chatSample: number): Sets {
  const all = loadPublic()
  const train = trainingSet([...all, ...loadOwn()])
  const calibration = all.filter(
    (s) => s.label === 0 && (EVALUATION_ONLY as readonly string[]).includes(s.source),
  )
  const held = heldOutSamples(all)
  const chat = realChat()
  const locomo = chat.filter((s) => s.source === 'LoCoMo')
  const msc = chat.filter((s) => s.source === 'MSC')
  const random = seeded(24)
  for (let i = msc.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[msc[i], msc[j]] = [msc[j] as Sample, msc[i] as Sample]
  }
  return { train, calibration, held, chat: [...locomo, ...msc.slice(0, chatSample)] }
}

/** The readings a head sees: the text itself, and its learned best window when long. */
export function readingsOf(text: string): string[] {
  if (text.length <= WINDOW_FROM) return [text]
  const best = scoreReading(readable(text)).window
  return best && best !== text ? [text, best] : [text]
}

async function embedAll(
  samples: readonly Sample[],
  dir: string,
): Promise<Map<string, Float32Array>> {
  // `--embedder ngram`: the hashed test embedder, a fast dry run of the whole pipeline.
  const embedder = process.argv.includes('ngram')
    ? new NgramEmbedder()
    : new CachedEmbedder(new UseEmbedder(), { dir, sameForQueries: true })
  await embedder.load()
  // Sorted by length: a batch is padded to its longest text, and attention grows with its square.
  const texts = [...new Set(samples.flatMap((s) => readingsOf(s.text)))].sort(
    (a, b) => a.length - b.length || (a < b ? -1 : 1),
  )
  const vectors = new Map<string, Float32Array>()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const BATCH = 64
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH)
    const out = await embedder.embed(batch, { kind: 'passage' })
    for (const [k, t] of batch.entries()) vectors.set(t, out[k] as Float32Array)
    if ((i / BATCH) % 20 === 0) {
      process.stderr.write(`embedded ${i + batch.length} / ${texts.length}\n`)
    }
  }
  const used = process.cpuUsage(cpu)
  console.log(
    `Embedded ${texts.length} readings with ${embedder.model}` +
      `${embedder instanceof CachedEmbedder ? ` (${embedder.misses} new)` : ''}: ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s wall, ` +
      `${((used.user + used.system) / 1e6).toFixed(1)} CPU-s`,
  )
  return vectors
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))
const combine = (base: number, p: number) => 1 - (1 - base) * (1 - p)

/** Which inputs a head reads. */
export type HeadKind = 'vector' | 'vector+window' | 'stacked'

/** A head's input rows for one sample: one per reading it may score. */
function inputsOf(row: Row, kind: HeadKind): Float64Array[] {
  const readings = kind === 'vector' ? row.vectors.slice(0, 1) : row.vectors
  const DIMS = row.vectors[0]?.length ?? 0
  return readings.map((v) => {
    const x = new Float64Array(kind === 'stacked' ? DIMS + 2 : DIMS)
    x.set(v)
    // The screen's own signals, scaled near the vector's range, so the head may lean on them.
    if (kind === 'stacked') {
      x[DIMS] = row.learned / 4
      x[DIMS + 1] = row.rules
    }
    return x
  })
}

/** Float weights and bias of a logistic head. */
export interface Head {
  weights: Float64Array
  bias: number
}

export function logitOf(head: Head, inputs: readonly Float64Array[]): number {
  let best = Number.NEGATIVE_INFINITY
  for (const x of inputs) {
    let z = head.bias
    for (let i = 0; i < x.length; i++) z += (head.weights[i] as number) * (x[i] as number)
    if (z > best) best = z
  }
  return best
}

/**
 * Logistic regression by full-batch Adam (no order to seed: the same inputs give the same weights),
 * classes weighted to count alike, L2 `l2`. An attack counts through its best reading (an
 * instruction in one window of a long e-mail), a benign text through every reading.
 */
export function trainHead(
  inputs: readonly Float64Array[][],
  labels: readonly (0 | 1)[],
  l2: number,
  steps = 250,
): Head {
  const dims = inputs[0]?.[0]?.length ?? 0
  const w = new Float64Array(dims)
  let b = 0
  const m = new Float64Array(dims + 1)
  const v = new Float64Array(dims + 1)
  const g = new Float64Array(dims + 1)
  const attacks = labels.filter((l) => l === 1).length
  const cw = [0.5 / Math.max(1, labels.length - attacks), 0.5 / Math.max(1, attacks)]
  const rate = 0.05
  for (let step = 1; step <= steps; step++) {
    g.fill(0)
    for (let n = 0; n < inputs.length; n++) {
      const label = labels[n] as 0 | 1
      const rows = inputs[n] as Float64Array[]
      const chosen = label === 1 ? [bestRow(w, b, rows)] : rows
      const scale = (cw[label] as number) / chosen.length
      for (const x of chosen) {
        let z = b
        for (let i = 0; i < dims; i++) z += (w[i] as number) * (x[i] as number)
        const d = (sigmoid(z) - label) * scale
        for (let i = 0; i < dims; i++) g[i] = (g[i] as number) + d * (x[i] as number)
        g[dims] = (g[dims] as number) + d
      }
    }
    for (let i = 0; i < dims; i++) g[i] = (g[i] as number) + l2 * (w[i] as number)
    for (let i = 0; i <= dims; i++) {
      const gi = g[i] as number
      m[i] = 0.9 * (m[i] as number) + 0.1 * gi
      v[i] = 0.999 * (v[i] as number) + 0.001 * gi * gi
      const mh = (m[i] as number) / (1 - 0.9 ** step)
      const vh = (v[i] as number) / (1 - 0.999 ** step)
      const delta = (rate * mh) / (Math.sqrt(vh) + 1e-8)
      if (i < dims) w[i] = (w[i] as number) - delta
      else b -= delta
    }
  }
  return { weights: w, bias: b }
}

function bestRow(w: Float64Array, b: number, rows: readonly Float64Array[]): Float64Array {
  if (rows.length === 1) return rows[0] as Float64Array
  return rows.reduce((best, x) =>
    logitOf({ weights: w, bias: b }, [x]) > logitOf({ weights: w, bias: b }, [best]) ? x : best,
  )
}

/**
 * Leave one source out: each training source scored by a head trained without it (nor on any
 * text planted in one of its documents).
 */
function outOfSourceLogits(rows: readonly Row[], kind: HeadKind, l2: number): Map<Row, number> {
  const out = new Map<Row, number>()
  const inputs = rows.map((r) => inputsOf(r, kind))
  for (const source of new Set(rows.map((r) => r.sample.source))) {
    const rest = rows.flatMap((r, i) => (touches(r.sample, source) ? [] : [i]))
    const head = trainHead(
      rest.map((i) => inputs[i] as Float64Array[]),
      rest.map((i) => (rows[i] as Row).sample.label),
      l2,
    )
    rows.forEach((r, i) => {
      if (r.sample.source === source) out.set(r, logitOf(head, inputs[i] as Float64Array[]))
    })
  }
  return out
}

/**
 * The highest offset at which the head adds at most {@link TARGET_FP} of `benign` to what the
 * screen (`base`) flags alone: the learned stage's calibration, one level up.
 */
function calibrateHead(
  benign: readonly Row[],
  logits: ReadonlyMap<Row, number>,
  base: (r: Row) => number,
): number {
  const byScreen = benign.filter((r) => base(r) >= POISON_THRESHOLD).length
  const budget = byScreen + Math.floor(benign.length * TARGET_FP)
  const flaggedAt = (o: number) =>
    benign.filter((r) => combine(base(r), sigmoid((logits.get(r) ?? 0) + o)) >= POISON_THRESHOLD)
      .length
  return highestOffsetWithin(flaggedAt, budget, 12)
}

/** The screen's numbers for every sample; training texts get out-of-source learned logits. */
function rowsOf(sets: Sets, vectors: ReadonlyMap<string, Float32Array>): Record<keyof Sets, Row[]> {
  const model = shippedModel()
  const loso = outOfSource(sets.train)
  const vecs = (text: string) => readingsOf(text).map((t) => vectors.get(t) as Float32Array)
  const make = (sample: Sample, inSample: boolean): Row => {
    const rules = screenWith(sample.text, null).score
    if (inSample) {
      // A training text's screen score with a learned stage that never saw its source.
      const learned = loso.get(sample) ?? 0
      const screen = combine(rules, sigmoid(learned + model.offset))
      return { sample, vectors: vecs(sample.text), screen, rules, learned }
    }
    const learned = scoreReading(readable(sample.text), model).logit
    const screen = screenWith(sample.text, model).score
    return { sample, vectors: vecs(sample.text), screen, rules, learned }
  }
  return {
    train: sets.train.map((s) => make(s, true)),
    calibration: sets.calibration.map((s) => make(s, false)),
    held: sets.held.map((s) => make(s, false)),
    chat: sets.chat.map((s) => make(s, false)),
  }
}

interface Fitted {
  kind: HeadKind
  l2: number
  head: Head
  offset: number
  /** Training attacks caught by the screen plus an out-of-source head, and benign flagged. */
  loso: { caught: number; attacks: number; flagged: number; benign: number; byScreen: number }
}

function fitHead(rows: Record<keyof Sets, Row[]>, kind: HeadKind, l2: number): Fitted {
  const logits = outOfSourceLogits(rows.train, kind, l2)
  const head = trainHead(
    rows.train.map((r) => inputsOf(r, kind)),
    rows.train.map((r) => r.sample.label),
    l2,
  )
  for (const r of rows.calibration) logits.set(r, logitOf(head, inputsOf(r, kind)))
  const benign = [...rows.train.filter((r) => r.sample.label === 0), ...rows.calibration]
  const offset = calibrateHead(benign, logits, (r) => r.screen)
  const hit = (r: Row) =>
    combine(r.screen, sigmoid((logits.get(r) ?? 0) + offset)) >= POISON_THRESHOLD
  const attacks = rows.train.filter((r) => r.sample.label === 1)
  return {
    kind,
    l2,
    head,
    offset,
    loso: {
      caught: attacks.filter(hit).length,
      byScreen: attacks.filter((r) => r.screen >= POISON_THRESHOLD).length,
      attacks: attacks.length,
      flagged: benign.filter(hit).length,
      benign: benign.length,
    },
  }
}

const HELD_SOURCES = [
  'microsoft/BIPIA',
  'protectai/llm-guard',
  'whylabs/langkit',
  'Giskard-AI/giskard',
  ...EVALUATION_ONLY,
]
const heldSource = (s: Sample) => HELD_SOURCES.find((h) => touches(s, h)) ?? s.source

function report(
  title: string,
  rows: readonly Row[],
  fitted: Fitted,
  key: (s: Sample) => string,
): void {
  const groups = new Map<string, Row[]>()
  for (const r of rows) groups.set(key(r.sample), [...(groups.get(key(r.sample)) ?? []), r])
  groups.set('**all**', [...rows])
  console.log(`\n${title}\n`)
  console.log(
    '| | attacks | caught: screen | caught: screen + head | benign | flagged: screen | flagged: screen + head |',
  )
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const [name, group] of groups) {
    const withHead = (r: Row) =>
      combine(r.screen, sigmoid(logitOf(fitted.head, inputsOf(r, fitted.kind)) + fitted.offset)) >=
      POISON_THRESHOLD
    const alone = (r: Row) => r.screen >= POISON_THRESHOLD
    const a = group.filter((r) => r.sample.label === 1)
    const b = group.filter((r) => r.sample.label === 0)
    console.log(
      `| ${name} | ${a.length} | ${percent(a.filter(alone).length, a.length)} | ${percent(a.filter(withHead).length, a.length)} | ${b.length} | ${percent(b.filter(alone).length, b.length)} | ${percent(b.filter(withHead).length, b.length)} |`,
    )
  }
}

/**
 * An after-look, not a prediction: the offset chosen on the held-out texts themselves, for each
 * number of held-out benign texts the head may add. No honest calibration can beat it, so when
 * it misses the bar the head cannot clear it.
 */
function upperBound(held: readonly Row[], f: Fitted): void {
  const logit = new Map(held.map((r) => [r, logitOf(f.head, inputsOf(r, f.kind))] as const))
  const a = held.filter((r) => r.sample.label === 1)
  const b = held.filter((r) => r.sample.label === 0)
  const hit = (r: Row, o: number) =>
    combine(r.screen, sigmoid((logit.get(r) ?? 0) + o)) >= POISON_THRESHOLD
  const base = b.filter((r) => hit(r, -50)).length
  console.log('\nAfter-look (offset chosen on the held-out set: an upper bound)\n')
  console.log('| benign added | offset | attacks caught | benign flagged |')
  console.log('| ---: | ---: | ---: | ---: |')
  for (const added of [0, 1, 3, 5, 10]) {
    let best = -50
    for (let o = -12; o <= 12; o += 0.05) {
      if (b.filter((r) => hit(r, o)).length - base > added) break
      best = o
    }
    const caught = a.filter((r) => hit(r, best)).length
    const flagged = b.filter((r) => hit(r, best)).length
    console.log(
      `| ${added} | ${best.toFixed(2)} | ${caught} / ${a.length} (${percent(caught, a.length)}) | ${flagged} / ${b.length} (${percent(flagged, b.length)}) |`,
    )
  }
}

async function main(): Promise<void> {
  const dir = arg('--cache', '/tmp/h3/embed-cache')
  const sets = gather(Number(arg('--chat', '3000')))
  const every = [...sets.train, ...sets.calibration, ...sets.held, ...sets.chat]
  console.log(
    `train ${sets.train.length}, calibration ${sets.calibration.length}, held out ${sets.held.length}, chat ${sets.chat.length}`,
  )
  const vectors = await embedAll(every, dir)
  if (process.argv.includes('--embed-only')) return
  const rows = rowsOf(sets, vectors)
  const kinds = arg('--kinds', 'vector,vector+window,stacked').split(',') as HeadKind[]
  const penalties = arg('--l2', '1e-4,1e-3,1e-2').split(',').map(Number)
  console.log('\n## Leave one source out on the training sources (choosing L2)\n')
  console.log(
    '| head | L2 | offset | training attacks caught: screen | … + head | benign flagged: screen + head |',
  )
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
  const chosen: Fitted[] = []
  for (const kind of kinds) {
    let best: Fitted | null = null
    for (const l2 of penalties) {
      const started = process.cpuUsage()
      const f = fitHead(rows, kind, l2)
      const cpu = process.cpuUsage(started)
      const { caught, attacks, flagged, benign, byScreen } = f.loso
      console.log(
        `| ${kind} | ${l2} | ${f.offset} | ${byScreen} / ${attacks} | ${caught} / ${attacks} | ${flagged} / ${benign} (${((cpu.user + cpu.system) / 1e6).toFixed(0)} CPU-s) |`,
      )
      if (!best || f.loso.caught > best.loso.caught) best = f
    }
    chosen.push(best as Fitted)
  }
  for (const f of chosen) {
    console.log(`\n## Held out: ${f.kind} head, L2 ${f.l2}, offset ${f.offset}`)
    report('Per source', rows.held, f, heldSource)
    report('Per style', rows.held, f, (s) => s.style)
    report('Real chat (benign)', rows.chat, f, (s) => s.source)
    upperBound(rows.held, f)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
