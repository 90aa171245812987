/**
 * CPU time per poison screen on ordinary facts (≤ 200 characters), in one process so a busy
 * machine disturbs the comparison less: the whole screen, the rules alone, the learned stage
 * alone (with the fold it shares with the rules) and the fold alone; best of five rounds.
 *
 *   npx tsx scripts/poison-bench.ts
 *   npx tsx scripts/poison-bench.ts --against DIR   # also the whole screen of an older copy
 *
 * `--against` takes a copy of `src/core/poison` from another commit, e.g.
 * `mkdir -p .scratch/old && git archive 9deccff src/core/poison | tar -x -C .scratch/old`, then
 * `--against .scratch/old/src/core/poison`: both screens run interleaved in one process, so a
 * busy machine slows them alike and the pair compares where absolute figures cannot.
 *
 * Then the whole screen's share of the 10k bulk import of `docs/benchmarks.md` (6.0 s).
 */
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { analyseText } from '../src/core/poison/index.ts'
import { readingOf } from '../src/core/poison/model/features.ts'
import { scoreReading } from '../src/core/poison/model/learned.ts'
import { fold } from '../src/core/poison/normalise.ts'
import { screenWith } from '../src/core/poison/screen.ts'
import { ORDINARY } from '../test/fixtures/poison-corpus.ts'

const ROUNDS = 5
const CALLS = 30_000
const IMPORT_MS = 6000

const ordinary = ORDINARY.map((fact, i) =>
  `${fact} ${ORDINARY[(i * 7 + 3) % ORDINARY.length] ?? ''}`.slice(0, 200),
)
const stages: Record<string, (text: string) => unknown> = {
  'whole screen': analyseText,
  'rules alone': (text) => screenWith(text, null),
  'learned stage alone (fold included)': (text) => scoreReading(readingOf(fold(text))),
  'fold alone': (text) => readingOf(fold(text)),
}
const against = process.argv.indexOf('--against')
if (against > 0) {
  const dir = resolve(process.argv[against + 1] ?? '')
  const older = (await import(pathToFileURL(join(dir, 'index.ts')).href)) as {
    analyseText: (text: string) => unknown
  }
  stages['whole screen, --against copy'] = older.analyseText
}
const best: Record<string, number> = {}
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(stages)) {
    for (let i = 0; i < 3000; i++) run(ordinary[i % ordinary.length] ?? '')
    const cpu = process.cpuUsage()
    for (let i = 0; i < CALLS; i++) run(ordinary[i % ordinary.length] ?? '')
    const used = process.cpuUsage(cpu)
    best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, (used.user + used.system) / CALLS)
  }
}
const mean = Math.round(ordinary.reduce((sum, text) => sum + text.length, 0) / ordinary.length)
console.log(
  `## Poison screen, CPU µs per ordinary fact (${mean} characters), best of ${ROUNDS} × ${CALLS.toLocaleString('en')}, Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}\n`,
)
console.log('| stage | µs per fact (CPU) |')
console.log('| --- | ---: |')
for (const [name, us] of Object.entries(best)) console.log(`| ${name} | ${us.toFixed(2)} |`)
const whole = best['whole screen'] ?? 0
console.log(
  `\nA 10k import screens for about ${Math.round((whole * 10_000) / 1000)} ms of CPU: ${((whole * 10_000) / (IMPORT_MS * 10)).toFixed(1)}% of the ${IMPORT_MS / 1000} s 10k bulk import.`,
)
