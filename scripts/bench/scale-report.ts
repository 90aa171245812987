/** The scale cell's section of docs/benchmarks.md (see `scripts/bench/scale.ts`). */
import { type BenchReport, bytes, ms, renderMarkdown } from './report.ts'
import type { ScaleRun } from './scale.ts'
import type { Latency, Mode } from './types.ts'

const lat = (l: Latency | undefined) => (l ? `${ms(l.p50)} / ${ms(l.p99)} (${l.n} q.)` : '–')
const n = (value: number) => value.toLocaleString('en')

/**
 * The whole docs/benchmarks.md: {@link renderMarkdown}, with the scale cell's section (when the
 * run has one) before the notes on how each figure is taken.
 */
export function renderWithScale(report: BenchReport): string {
  const markdown = renderMarkdown(report)
  if (!report.scale) return markdown
  const notes = '## How each figure is taken'
  const at = markdown.indexOf(notes)
  const section = `${renderScale(report.scale)}\n`
  return at < 0 ? `${markdown}\n${section}` : markdown.slice(0, at) + section + markdown.slice(at)
}

/** The cell as Markdown: what ran, how far it got, and each figure. */
export function renderScale(run: ScaleRun): string {
  const r = run.result
  const reached =
    r.reached === r.target
      ? `all ${n(r.target)} memories`
      : `${n(r.reached)} of ${n(r.target)} memories`
  const lines = [
    `## Scale: Engram alone at ${n(r.target)} memories (Chromium)`,
    '',
    `${run.machine}; ${run.corpus} corpus; started ${run.startedAt}, ${(r.wallMs / 60_000).toFixed(1)} min. Imported ${reached}; every step capped at ${(r.capMs / 60_000).toFixed(0)} min${r.stopped ? `. Stopped: ${r.stopped}` : ''}. The peers are not run here: at 100k Orama's save and hybrid recall already fail, MiniSearch keeps its index in memory, and the EntityDB-style scan and PGlite stop at 10k (above).`,
    '',
    '| measure | figure |',
    '|---|---:|',
    `| import through \`rememberMany\` (${n(r.reached)}) | ${r.import ? `${ms(r.import.ms)} (${n(Math.round(r.import.perSecond))}/s)` : '–'} |`,
    `| worker heap after import | ${bytes(r.heapBytes)} |`,
    `| stored (structured-clone bytes) | ${bytes(r.storedBytes)} |`,
    `| snapshot (index image + catalogue) | ${bytes(r.snapshotBytes)} |`,
    `| origin usage (\`navigator.storage.estimate\`) | ${bytes(r.originUsageBytes)} |`,
    `| cold start: open → first hybrid answer | ${r.coldStart ? `${ms(r.coldStart.ms)} (median of ${r.coldStart.runs})` : '–'} |`,
    ...(['hybrid', 'keyword', 'vector'] as Mode[]).map(
      (mode) => `| ${mode} recall p50 / p99 (ms) | ${lat(r.recall[mode])} |`,
    ),
    '',
  ]
  for (const note of r.notes ?? []) lines.push(`- ${note}`)
  if (r.notes?.length) lines.push('')
  const parts = r.coldStart?.parts
  if (parts) {
    const list = Object.entries(parts).map(([k, v]) => `${k} ${ms(v)}`)
    lines.push(`- Cold start timed apart (ms): ${list.join(', ')}.`, '')
  }
  return lines.join('\n')
}
