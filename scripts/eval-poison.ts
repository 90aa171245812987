/**
 * Measures the memory-poisoning screen on the hand-written corpus: per rule, attacks caught and
 * benign texts wrongly flagged, then the mean time per screen. Run: `npx tsx scripts/eval-poison.ts`.
 */
import { cpus } from 'node:os'
import { POISON_RULES, type PoisonRule, screenText } from '../src/core/poison.ts'
import { ATTACKS, BENIGN, ORDINARY } from '../test/fixtures/poison-corpus.ts'

const SCREENS = 100_000

const percent = (n: number, d: number) => (d === 0 ? '–' : ((100 * n) / d).toFixed(1) + '%')
const rulesOf = (text: string): PoisonRule[] => screenText(text).map((finding) => finding.rule)

function row(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`
}

console.log(`Corpus: ${ATTACKS.length} attacks, ${BENIGN.length} benign texts\n`)
console.log(
  row(['rule', 'attacks aimed at it', 'caught (any rule)', 'named this rule', 'benign flagged']),
)
console.log(row(['---', '---:', '---:', '---:', '---:']))
for (const rule of POISON_RULES) {
  const aimed = ATTACKS.filter((sample) => sample.rule === rule)
  const caught = aimed.filter((sample) => rulesOf(sample.text).length > 0).length
  const named = aimed.filter((sample) => rulesOf(sample.text).includes(rule)).length
  const falsePositives = BENIGN.filter((sample) => rulesOf(sample.text).includes(rule)).length
  console.log(row([rule, aimed.length, caught, named, `${falsePositives} / ${BENIGN.length}`]))
}

const missed = ATTACKS.filter((sample) => rulesOf(sample.text).length === 0)
const flagged = BENIGN.filter((sample) => rulesOf(sample.text).length > 0)
const detected = ATTACKS.length - missed.length
console.log(
  row([
    '**all**',
    ATTACKS.length,
    `${detected} (${percent(detected, ATTACKS.length)})`,
    '',
    `${flagged.length} / ${BENIGN.length} (${percent(flagged.length, BENIGN.length)})`,
  ]),
)

console.log(`\nDetection rate: ${percent(detected, ATTACKS.length)}`)
console.log(`False-positive rate: ${percent(flagged.length, BENIGN.length)}`)
if (missed.length > 0) {
  console.log('\nMissed attacks:')
  for (const sample of missed) console.log(`  - [${sample.rule}] ${JSON.stringify(sample.text)}`)
}
if (flagged.length > 0) {
  console.log('\nFlagged benign texts:')
  for (const sample of flagged)
    console.log(`  - ${JSON.stringify(sample.text)}: ${rulesOf(sample.text)}`)
}

/**
 * Mean time per screen over `SCREENS` calls cycling through `texts`, after a warm-up: wall clock,
 * and CPU time of this process, which a busy machine disturbs less.
 */
function timePerScreen(texts: readonly string[]): { wall: number; cpu: number } {
  for (let i = 0; i < 10_000; i++) screenText(texts[i % texts.length] ?? '')
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < SCREENS; i++) screenText(texts[i % texts.length] ?? '')
  const wall = ((performance.now() - started) * 1000) / SCREENS
  const used = process.cpuUsage(cpu)
  return { wall, cpu: (used.user + used.system) / SCREENS }
}

const corpus = [...ATTACKS, ...BENIGN].map((sample) => sample.text)
const ordinary = ORDINARY.map((fact, i) =>
  `${fact} ${ORDINARY[(i * 7 + 3) % ORDINARY.length] ?? ''}`.slice(0, 200),
)
const mean = (texts: readonly string[]) =>
  Math.round(texts.reduce((sum, text) => sum + text.length, 0) / texts.length)

console.log(
  `\nTiming: ${SCREENS.toLocaleString('en')} screens each, Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}`,
)
console.log(row(['texts', 'mean length', 'µs per screen (CPU)', 'µs per screen (wall)']))
console.log(row(['---', '---:', '---:', '---:']))
for (const [name, texts] of [
  ['whole corpus', corpus],
  ['benign near-misses', BENIGN.map((sample) => sample.text)],
  ['ordinary facts (≤ 200 chars)', ordinary],
] as const) {
  const { wall, cpu } = timePerScreen(texts)
  console.log(row([name, mean(texts), cpu.toFixed(2), wall.toFixed(2)]))
}
