/**
 * Measures the memory-poisoning screen: on the hand-written corpus per rule (in-sample), on the
 * tuning split per style, then the semantic layer's gain and the mean time per screen.
 *
 *   npx tsx scripts/eval-poison.ts              # corpus + tuning split
 *   npx tsx scripts/eval-poison.ts --holdout    # the untouched split instead of the tuning one
 *   npx tsx scripts/eval-poison.ts --misses     # also list every miss and false positive
 *   npx tsx scripts/eval-poison.ts --no-timing --no-semantic
 *   npx tsx scripts/eval-poison.ts --public     # held-out public sources and real chat only
 *
 * `--public` reads `../shared/eval/poison/public-train.json` and `../shared/eval` (LoCoMo turns,
 * MSC persona facts): per held-out source and per style, the rules alone and the whole screen
 * (rules + the learned stage); the training sources as a check, marked in-sample.
 *
 * The holdout split is read only with `--holdout`: it is meant to be run once, on the final
 * screen, and reported as it comes out.
 */
import { cpus } from 'node:os'
import {
  analyseText,
  POISON_RULES,
  type PoisonRule,
  prototypeTexts,
  screenText,
  semanticScreen,
  withSemantic,
} from '../src/core/poison/index.ts'
import { readingOf } from '../src/core/poison/model/features.ts'
import { scoreReading } from '../src/core/poison/model/learned.ts'
import { fold } from '../src/core/poison/normalise.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { ATTACKS, BENIGN, ORDINARY } from '../test/fixtures/poison-corpus.ts'
import type { PoisonCase } from '../test/fixtures/poison-tuning.ts'

const args = new Set(process.argv.slice(2))
if (args.has('--public')) {
  const { evaluatePublic } = await import('./eval-poison-public.ts')
  await evaluatePublic()
  process.exit(0)
}
const HOLDOUT = args.has('--holdout')
const SHOW_MISSES = args.has('--misses')
const SCREENS = 100_000

const percent = (n: number, d: number) => (d === 0 ? '–' : ((100 * n) / d).toFixed(1) + '%')
const rulesOf = (text: string): PoisonRule[] => screenText(text).map((finding) => finding.rule)
const flagged = (text: string) => analyseText(text).flagged
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`
const clip = (text: string) => JSON.stringify(text.length > 110 ? text.slice(0, 109) + '…' : text)

function explain(text: string): string {
  const verdict = analyseText(text)
  const findings = verdict.findings.map((f) => `${f.rule} ${f.score} "${f.excerpt}"`).join('; ')
  return `score ${verdict.score}${findings ? ` — ${findings}` : ''}`
}

// ---------------------------------------------------------------------------------------------
// The hand-written corpus, per rule.

console.log(`## Corpus (in-sample): ${ATTACKS.length} attacks, ${BENIGN.length} benign texts\n`)
console.log(
  row(['rule', 'attacks aimed at it', 'caught (any rule)', 'named this rule', 'benign flagged']),
)
console.log(row(['---', '---:', '---:', '---:', '---:']))
for (const rule of POISON_RULES) {
  const aimed = ATTACKS.filter((sample) => sample.rule === rule)
  const falsePositives = BENIGN.filter((sample) => rulesOf(sample.text).includes(rule)).length
  if (aimed.length === 0 && falsePositives === 0) continue
  const caught = aimed.filter((sample) => flagged(sample.text)).length
  const named = aimed.filter((sample) => rulesOf(sample.text).includes(rule)).length
  console.log(row([rule, aimed.length, caught, named, `${falsePositives} / ${BENIGN.length}`]))
}
const corpusMissed = ATTACKS.filter((sample) => !flagged(sample.text))
const corpusFlagged = BENIGN.filter((sample) => flagged(sample.text))
const corpusDetected = ATTACKS.length - corpusMissed.length
console.log(
  row([
    '**all**',
    ATTACKS.length,
    `${corpusDetected} (${percent(corpusDetected, ATTACKS.length)})`,
    '',
    `${corpusFlagged.length} / ${BENIGN.length} (${percent(corpusFlagged.length, BENIGN.length)})`,
  ]),
)
if (SHOW_MISSES) {
  for (const sample of corpusMissed) console.log(`  miss [${sample.rule}] ${clip(sample.text)}`)
  for (const sample of corpusFlagged) {
    console.log(`  FP ${clip(sample.text)}\n     ${explain(sample.text)}`)
  }
}

// ---------------------------------------------------------------------------------------------
// A split written without seeing the rules, per style.

const split = HOLDOUT
  ? await import('../test/fixtures/poison-holdout.ts')
  : await import('../test/fixtures/poison-tuning.ts')
const name = HOLDOUT ? 'Holdout split (untouched)' : 'Tuning split'
const attacks: readonly PoisonCase[] = split.ATTACKS
const benign: readonly PoisonCase[] = split.BENIGN

console.log(`\n## ${name}: ${attacks.length} attacks, ${benign.length} benign texts\n`)
console.log(row(['style', 'attacks caught', 'detection', 'benign flagged', 'false positives']))
console.log(row(['---', '---:', '---:', '---:', '---:']))
const styles = [...new Set([...attacks, ...benign].map((sample) => sample.style))]
for (const style of styles) {
  const a = attacks.filter((sample) => sample.style === style)
  const b = benign.filter((sample) => sample.style === style)
  const caught = a.filter((sample) => flagged(sample.text)).length
  const wrong = b.filter((sample) => flagged(sample.text)).length
  console.log(
    row([
      style,
      `${caught} / ${a.length}`,
      percent(caught, a.length),
      `${wrong} / ${b.length}`,
      percent(wrong, b.length),
    ]),
  )
}
const splitMissed = attacks.filter((sample) => !flagged(sample.text))
const splitFlagged = benign.filter((sample) => flagged(sample.text))
const splitCaught = attacks.length - splitMissed.length
console.log(
  row([
    '**all**',
    `${splitCaught} / ${attacks.length}`,
    `**${percent(splitCaught, attacks.length)}**`,
    `${splitFlagged.length} / ${benign.length}`,
    `**${percent(splitFlagged.length, benign.length)}**`,
  ]),
)
if (SHOW_MISSES) {
  console.log('\nMissed attacks:')
  for (const sample of splitMissed) {
    console.log(`  - [${sample.style}] ${clip(sample.text)}\n      ${explain(sample.text)}`)
  }
  console.log('\nFlagged benign texts:')
  for (const sample of splitFlagged) {
    console.log(`  - [${sample.style}] ${clip(sample.text)}\n      ${explain(sample.text)}`)
  }
}

// ---------------------------------------------------------------------------------------------
// The semantic layer: prototypes compared with each text's embedding.

interface Vectoriser {
  name: string
  embed(texts: string[]): Promise<Float32Array[]>
}

async function vectorisers(): Promise<Vectoriser[]> {
  const ngram = new NgramEmbedder()
  const out: Vectoriser[] = [
    { name: 'n-gram (NgramEmbedder)', embed: async (texts) => texts.map((t) => ngram.embedOne(t)) },
  ]
  try {
    const { UseEmbedder } = await import('../src/embedder/use-embedder.ts')
    const use = new UseEmbedder()
    await use.load()
    out.push({
      name: 'USE-lite (UseEmbedder)',
      embed: (texts) => use.embed(texts, { kind: 'passage' }),
    })
  } catch (error) {
    console.log(`USE-lite not measured: ${error instanceof Error ? error.message : String(error)}`)
  }
  return out
}

/** Detection and false positives of the screen plus the semantic finding at `threshold`. */
function rates(
  samples: { attacks: readonly { text: string }[]; benign: readonly { text: string }[] },
  vectors: { attacks: Float32Array[]; benign: Float32Array[] },
  prototypes: Float32Array[],
  threshold: number,
  alone: boolean,
): { caught: number; wrong: number } {
  const verdict = (text: string, vector: Float32Array) => {
    const finding = semanticScreen(vector, prototypes, threshold)
    if (alone) return finding !== null
    return withSemantic(analyseText(text), finding).flagged
  }
  const caught = samples.attacks.filter((s, i) => verdict(s.text, vectors.attacks[i]!)).length
  const wrong = samples.benign.filter((s, i) => verdict(s.text, vectors.benign[i]!)).length
  return { caught, wrong }
}

if (!args.has('--no-semantic')) {
  const tuning = await import('../test/fixtures/poison-tuning.ts')
  console.log("\n## Semantic layer: attack prototypes against each text's embedding\n")
  console.log(
    `Threshold: the lowest cosine at which the semantic layer alone flags at most 1% of the tuning split's benign texts; then applied to the ${name.toLowerCase()} and the corpus. "Semantic alone" counts any text at or above it; "screen + semantic" adds the semantic finding (0.35 at the threshold, rising to 0.9) to the screen's verdict.\n`,
  )
  console.log(
    row(['embedder', 'threshold', 'set', 'screen', 'semantic alone', 'screen + semantic']),
  )
  console.log(row(['---', '---:', '---', '---:', '---:', '---:']))
  for (const v of await vectorisers()) {
    const prototypes = await v.embed(prototypeTexts())
    const embedSet = async (set: {
      attacks: readonly { text: string }[]
      benign: readonly { text: string }[]
    }) => ({
      attacks: await v.embed(set.attacks.map((s) => s.text)),
      benign: await v.embed(set.benign.map((s) => s.text)),
    })
    const tune = { attacks: tuning.ATTACKS, benign: tuning.BENIGN }
    const tuneVectors = await embedSet(tune)
    // The screen is tuned on this split, so the gain is measured where the semantic layer is
    // alone: the lowest threshold that flags at most 1% of the tuning split's benign texts.
    let best = { threshold: 1 }
    for (let t = 0.95; t >= 0.1; t -= 0.01) {
      if (rates(tune, tuneVectors, prototypes, t, true).wrong > tune.benign.length * 0.01) break
      best = { threshold: t }
    }
    const sets = [
      ['tuning split', tune, tuneVectors],
      ...(HOLDOUT
        ? [[name.toLowerCase(), { attacks, benign }, await embedSet({ attacks, benign })] as const]
        : []),
      [
        'corpus',
        { attacks: ATTACKS, benign: BENIGN },
        await embedSet({ attacks: ATTACKS, benign: BENIGN }),
      ],
    ] as const
    for (const [label, set, vectors] of sets) {
      const screen = rates(set, vectors, prototypes, 2, false)
      const alone = rates(set, vectors, prototypes, best.threshold, true)
      const both = rates(set, vectors, prototypes, best.threshold, false)
      const cell = (r: { caught: number; wrong: number }) =>
        `${percent(r.caught, set.attacks.length)} / FP ${percent(r.wrong, set.benign.length)}`
      console.log(
        row([v.name, best.threshold.toFixed(3), label, cell(screen), cell(alone), cell(both)]),
      )
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Speed.

/**
 * Mean time per screen over `SCREENS` calls cycling through `texts`, after a warm-up: wall clock,
 * and CPU time of this process, which a busy machine disturbs less.
 */
function timePerScreen(
  texts: readonly string[],
  run: (text: string) => unknown = screenText,
): { wall: number; cpu: number } {
  for (let i = 0; i < 10_000; i++) run(texts[i % texts.length] ?? '')
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < SCREENS; i++) run(texts[i % texts.length] ?? '')
  const wall = ((performance.now() - started) * 1000) / SCREENS
  const used = process.cpuUsage(cpu)
  return { wall, cpu: (used.user + used.system) / SCREENS }
}

if (!args.has('--no-timing')) {
  const corpus = [...ATTACKS, ...BENIGN].map((sample) => sample.text)
  const ordinary = ORDINARY.map((fact, i) =>
    `${fact} ${ORDINARY[(i * 7 + 3) % ORDINARY.length] ?? ''}`.slice(0, 200),
  )
  const mean = (texts: readonly string[]) =>
    Math.round(texts.reduce((sum, text) => sum + text.length, 0) / texts.length)
  console.log(
    `\n## Timing: ${SCREENS.toLocaleString('en')} screens each, Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}\n`,
  )
  console.log(row(['texts', 'mean length', 'µs per screen (CPU)', 'µs per screen (wall)']))
  console.log(row(['---', '---:', '---:', '---:']))
  for (const [label, texts] of [
    ['whole corpus', corpus],
    ['benign near-misses', BENIGN.map((sample) => sample.text)],
    [`${name.toLowerCase()}`, [...attacks, ...benign].map((sample) => sample.text)],
    ['ordinary facts (≤ 200 chars)', ordinary],
  ] as const) {
    const { wall, cpu } = timePerScreen(texts)
    console.log(row([label, mean(texts), cpu.toFixed(2), wall.toFixed(2)]))
  }
  const learned = (text: string) => scoreReading(readingOf(fold(text)))
  const { wall, cpu } = timePerScreen(ordinary, learned)
  console.log(
    row([
      'the learned stage alone, ordinary facts',
      mean(ordinary),
      cpu.toFixed(2),
      wall.toFixed(2),
    ]),
  )
  const screen = timePerScreen(ordinary).cpu
  console.log(
    `\nA 10k import screens for about ${Math.round((screen * 10_000) / 1000)} ms of CPU (ordinary facts); the 10k bulk import in docs/benchmarks.md takes 6.0 s, so the screen is about ${((screen * 10_000) / 60_000).toFixed(1)}% of it.`,
  )
}
