/**
 * Turns runs into the Markdown of docs/benchmarks.md and an SVG chart (latency against store
 * size, log-log, one line per system), with no chart library.
 */
import type { ScaleRun } from './scale.ts'
import { SYSTEM_KEYS, SYSTEM_LABELS, type SystemKey } from './suite.ts'
import type { Latency, Mode, RunResult, SystemResult } from './types.ts'

export interface BenchReport {
  command: string
  wallMs: number
  runs: RunResult[]
  /** What the corpus is, for the header. */
  corpus: { msc: number; locomo: number; combined: number }
  queries: number
  /** The scale cell, when the run asked for one (`--scale`, `--million`). */
  scale?: ScaleRun
}

const label = (key: string) => SYSTEM_LABELS[key as SystemKey] ?? key

export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–'
  if (value >= 10_000) return `${(value / 1000).toFixed(0)} s`
  if (value >= 1000) return `${(value / 1000).toFixed(1)} s`
  if (value >= 100) return value.toFixed(0)
  if (value >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

export function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–'
  if (value >= 1e9) return `${(value / 1e9).toFixed(2)} GB`
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)} MB`
  if (value >= 1e3) return `${(value / 1e3).toFixed(0)} kB`
  return `${value} B`
}

const lat = (l: Latency | undefined) => (l ? `${ms(l.p50)} / ${ms(l.p99)}` : '–')
const count = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n))

function rows(run: RunResult): SystemResult[] {
  const order = (s: string) => SYSTEM_KEYS.indexOf(s as SystemKey)
  return [...run.results].sort((a, b) => a.size - b.size || order(a.system) - order(b.system))
}

function find(run: RunResult, system: string, size: number): SystemResult | undefined {
  return run.results.find((r) => r.system === system && r.size === size)
}

function recallTable(run: RunResult): string {
  const lines = [
    '| memories | system | keyword p50 / p99 | vector p50 / p99 | hybrid p50 / p99 | recall@10 vs exact |',
    '|---:|---|---:|---:|---:|---:|',
  ]
  for (const r of rows(run)) {
    if (r.error && Object.keys(r.recall).length === 0) {
      lines.push(`| ${count(r.size)} | ${label(r.system)} | ${r.error} | | | |`)
      continue
    }
    const n = Math.min(...Object.values(r.recall).map((l) => l?.n ?? Infinity))
    const few = Number.isFinite(n) && n < run.queries ? ` (${n} q.)` : ''
    lines.push(
      `| ${count(r.size)} | ${label(r.system)}${few} | ${lat(r.recall.keyword)} | ${lat(r.recall.vector)} | ${lat(r.recall.hybrid)} | ${r.recallAt10 === undefined ? '–' : r.recallAt10.toFixed(3)} |`,
    )
  }
  return lines.join('\n')
}

function ratioTable(run: RunResult): string {
  const sizes = [...new Set(run.results.map((r) => r.size))].sort((a, b) => a - b)
  const peers = SYSTEM_KEYS.filter((k) => k !== 'engram' && run.results.some((r) => r.system === k))
  const lines = [
    `| peer | mode | ${sizes.map((s) => `${count(s)}`).join(' | ')} |`,
    `|---|---|${sizes.map(() => '---:').join('|')}|`,
  ]
  for (const peer of peers) {
    for (const mode of ['keyword', 'vector', 'hybrid'] as Mode[]) {
      const cells = sizes.map((size) => {
        const e = find(run, 'engram', size)?.recall[mode]
        const p = find(run, peer, size)?.recall[mode]
        return e && p ? `${(e.p50 / p.p50).toFixed(2)}` : '–'
      })
      if (cells.every((c) => c === '–')) continue
      lines.push(`| ${label(peer)} | ${mode} | ${cells.join(' | ')} |`)
    }
  }
  return lines.join('\n')
}

function costTable(run: RunResult): string {
  const lines = [
    '| memories | system | import | remember p50 / p99 | cold start | stored | snapshot | heap growth | vector index |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of rows(run)) {
    if (r.error && !r.import) continue
    const imp = r.import
      ? `${ms(r.import.ms)} (${Math.round(r.import.perSecond).toLocaleString('en')}/s)${r.import.partial ? '\\*' : ''}`
      : '–'
    lines.push(
      `| ${count(r.size)} | ${label(r.system)} | ${imp} | ${lat(r.remember)} | ${ms(r.coldStart?.ms)} | ${bytes(r.storedBytes)} | ${bytes(r.snapshotBytes)} | ${bytes(r.heapBytes)} | ${bytes(r.vectorIndexBytes)} |`,
    )
  }
  const notes = rows(run)
    .filter((r) => r.import?.partial)
    .map((r) => `- \\* ${label(r.system)} at ${count(r.size)}: ${r.import?.partial}.`)
  const parts = rows(run)
    .filter((r) => r.coldStart?.parts)
    .map((r) => {
      const p = Object.entries(r.coldStart?.parts ?? {}).map(([k, v]) => `${k} ${ms(v)}`)
      return `- ${label(r.system)} cold start at ${count(r.size)}, timed apart (ms): ${p.join(', ')}.`
    })
  const errors = rows(run).flatMap((r) => [
    ...(r.error && !r.error.startsWith('not run')
      ? [`- ${label(r.system)} at ${count(r.size)} failed: ${r.error}`]
      : []),
    ...(r.notes ?? []).map((n) => `- ${label(r.system)} at ${count(r.size)}: ${n}`),
  ])
  return [lines.join('\n'), '', ...notes, ...parts, ...errors].join('\n')
}

export interface Target {
  what: string
  goal: string
  measured: string
  met: boolean | undefined
}

/** Issue 11's goals at one store size. */
interface SizeGoals {
  importMs: number
  remember: [number, number]
  coldMs: number
  hybrid: [number, number]
  /** Worker heap growth after import; undefined: reported, no goal. */
  heapBytes?: number
}

const GOALS: Record<number, SizeGoals> = {
  10000: { importMs: 1000, remember: [2, 10], coldMs: 200, hybrid: [1, 8] },
  100000: { importMs: 10_000, remember: [3, 20], coldMs: 1000, hybrid: [3, 15], heapBytes: 150e6 },
}

const both = (l: Latency | undefined, goal: [number, number]) =>
  l ? l.p50 <= goal[0] && l.p99 <= goal[1] : undefined

/** The targets of issue 11 at one size, from one run's Engram row. */
function sizeTargets(e: SystemResult | undefined, size: number, where: string): Target[] {
  const g = GOALS[size]
  if (!g) return []
  const at = `${where}, ${count(size)}`
  const imp = e?.import
  return [
    {
      what: `bulk import through \`rememberMany\` with vectors, near-dup check, poison screen (${at})`,
      goal: `≤ ${ms(g.importMs)}`,
      measured: imp ? ms(imp.ms) : '–',
      met: imp ? imp.ms <= g.importMs : undefined,
    },
    {
      what: `\`remember\` into the filled store, p50 / p99 (${at})`,
      goal: `≤ ${g.remember[0]} / ${g.remember[1]} ms`,
      measured: lat(e?.remember),
      met: both(e?.remember, g.remember),
    },
    {
      what: `cold start: open → first hybrid answer (${at})`,
      goal: `≤ ${ms(g.coldMs)}`,
      measured: ms(e?.coldStart?.ms),
      met: e?.coldStart ? e.coldStart.ms <= g.coldMs : undefined,
    },
    {
      what: `hybrid recall excluding query embedding, p50 / p99 (${at})`,
      goal: `≤ ${g.hybrid[0]} / ${g.hybrid[1]} ms`,
      measured: lat(e?.recall.hybrid),
      met: both(e?.recall.hybrid, g.hybrid),
    },
    {
      what: `vector recall@10 against exact float32 (${at})`,
      goal: '≥ 0.99',
      measured: e?.recallAt10?.toFixed(3) ?? '–',
      met: e?.recallAt10 === undefined ? undefined : e.recallAt10 >= 0.99,
    },
    {
      what: `worker heap after import (${at})`,
      goal: g.heapBytes ? `≤ ${bytes(g.heapBytes)}` : 'reported',
      measured: bytes(e?.heapBytes),
      met: g.heapBytes && e?.heapBytes !== undefined ? e.heapBytes <= g.heapBytes : undefined,
    },
  ]
}

/** At 1k: Engram's keyword and hybrid p50 against MiniSearch's keyword p50, same run. */
function smallTargets(run: RunResult, where: string): Target[] {
  const e = find(run, 'engram', 1000)
  const peer = find(run, 'minisearch', 1000)?.recall.keyword?.p50
  if (!e || peer === undefined) return []
  return (['keyword', 'hybrid'] as const).map((mode) => {
    const p50 = e.recall[mode]?.p50
    return {
      what: `${mode} p50 against MiniSearch's keyword p50 (${where}, 1k)`,
      goal: `≤ ${ms(peer)} ms`,
      measured: ms(p50),
      met: p50 === undefined ? undefined : p50 <= peer,
    }
  })
}

/** Issue 11's targets (10k and 100k, and 1k against MiniSearch), from the Chromium run. */
export function targets(report: BenchReport): Target[] {
  const run =
    report.runs.find((r) => r.runtime === 'chromium') ??
    report.runs.find((r) => r.runtime === 'node')
  if (!run) return []
  return [
    ...run.sizes.flatMap((size) => sizeTargets(find(run, 'engram', size), size, run.runtime)),
    ...smallTargets(run, run.runtime),
  ]
}

export function renderMarkdown(report: BenchReport): string {
  const out: string[] = []
  const chromium = report.runs.find((r) => r.runtime === 'chromium')
  out.push('# Benchmarks', '')
  out.push(
    `Produced by \`${report.command}\` in ${(report.wallMs / 60_000).toFixed(1)} min. Numbers are figures, not assertions; rerun on your machine.`,
    '',
  )
  for (const run of report.runs) out.push(`- **${run.runtime}**: ${run.machine}`)
  // The largest store's corpus (Node may stop at 10k while Chromium goes to 100k).
  const corpus =
    [...report.runs]
      .sort((a, b) => Math.max(...b.sizes) - Math.max(...a.sizes))
      .map((r) => r.corpus)
      .find((c) => c !== undefined) ?? report.corpus
  out.push(
    '',
    `Corpus: ${corpus.msc.toLocaleString('en')} MSC persona facts and ${corpus.locomo.toLocaleString('en')} LoCoMo turns, shuffled; past those, ${corpus.combined.toLocaleString('en')} memories join two persona facts into one (see \`scripts/bench/corpus.ts\`). Queries: ${report.queries} LoCoMo questions. Vectors: the deterministic n-gram embedder, 384 dims, unit length; query vectors are computed before timing, so latencies exclude query embedding (see \`npm run bench:embed\` for that cost). Every system gets the same docs, queries and vectors, one after another in the same process.`,
    '',
  )
  const t = targets(report)
  if (t.length > 0) {
    out.push('## Targets', '', '| target | goal | measured | |', '|---|---|---:|---|')
    for (const x of t) {
      out.push(
        `| ${x.what} | ${x.goal} | ${x.measured} | ${x.met === undefined ? '–' : x.met ? 'met' : 'missed'} |`,
      )
    }
    out.push('')
  }
  out.push('![Latency against store size](benchmarks.svg)', '')
  for (const run of chromium
    ? [chromium, ...report.runs.filter((r) => r !== chromium)]
    : report.runs) {
    const where =
      run.runtime === 'chromium'
        ? 'Chromium, module worker, real IndexedDB'
        : 'Node, in process, fake-indexeddb'
    out.push(`## ${where}`, '')
    out.push('### Recall latency (ms, top 10, excluding query embedding)', '', recallTable(run), '')
    out.push(
      '### Engram / peer (p50 latency ratio, same run; below 1 means Engram is faster)',
      '',
      ratioTable(run),
      '',
    )
    out.push('### Writes, start-up and memory', '', costTable(run), '')
  }
  out.push(
    '## How each figure is taken',
    '',
    '- **Recall**: each query once after 5 warm-up queries, one at a time; p50/p99 by nearest rank. A system stops after its time budget per mode (at least 5 queries); the row then says how many ran. Engram runs with its defaults (explanations on, recall log on, boosts on), `k = 10`.',
    '- **recall@10**: the vector leg alone (Engram: `mode: semantic`, boosts off) against an exact float32 scan of the same vectors, mean over the first 50 queries.',
    '- **Import**: all memories with their vectors, from empty at every size (nothing seeded), through each system’s own write path (Engram `rememberMany` with near-duplicate checks and the poison screen; Orama and MiniSearch build in memory and then save their index to IndexedDB; PGlite `INSERT … unnest` 500 rows a statement in one transaction). Partial timings are marked and explained under the table.',
    '- **Remember**: single writes of new memories into the filled store (Orama and MiniSearch: in-memory inserts, not persisted).',
    '- **Cold start**: close, then open the stored memory and answer the first hybrid query (keyword for MiniSearch, vector for the EntityDB-style scan); median of the runs.',
    '- **Stored**: the structured-clone size of every IndexedDB record (PGlite: its data directory); **snapshot**: Engram’s saved index image and catalogue (Orama, MiniSearch: their saved index). **Heap growth**: live heap after import and GC minus before (Node: `heapUsed + external`, which includes fake-indexeddb’s in-memory “disk”; Chromium: the worker’s JS heap plus ArrayBuffer backing stores over the DevTools protocol, which leaves out WebAssembly memory). **Vector index**: Engram’s vector index bytes as a reopened memory holds them (WebAssembly memory included; while a session adds memories, capacity runs up to an eighth ahead).',
    '- **Peers**: Orama’s vector leg returns every row above a cosine threshold (default 0.8, which finds nothing for most queries here); it gets `similarity: 0.2`, and its recall@10 shows what that threshold drops (from 10k on, nothing). Its hybrid mode normalises full-text scores with `Math.max.apply` over every hit, which overflows Chromium’s call stack at 100k; that failure is reported, not worked around. The EntityDB-style scan re-creates `@babycommando/entity-db` 1.0.11’s algorithm (its package fetches a model from the Hugging Face hub on import). PGlite uses exact `<=>` order (no ANN index) and `tsvector` with the English configuration, terms OR-ed, fused by RRF in SQL.',
    '- **Scale cell** (`npm run bench -- --million`, or `--scale N`; `scripts/bench/scale.ts`): Engram alone in the Chromium worker at a million memories of the same corpus (MSC/LoCoMo, then joined pairs; the generated one where the shared data is absent), imported 10k a `rememberMany` with their n-gram vectors made a batch at a time, then hybrid, keyword and vector recall (the same queries, time budget per mode), storage (every record’s structured-clone size, the snapshot, and `navigator.storage.estimate()`), and cold start (close, open, first hybrid answer; median of 2). The peers are not run there: they fail or are capped below 100k already. Every step is capped (`--scale-cap-min`, default 30 min): the import stops at the first batch past the cap and the rest is measured on what it reached, a later step past it ends the cell; the section says how far it got and which step stopped it. `--scale-only` runs the cell alone into `.bench/latest-scale.jsonl`.',
    '',
  )
  return out.join('\n')
}

// ------------------------------------------------------------------------------------- chart

const COLORS: Record<string, string> = {
  engram: '#3b4fd8',
  orama: '#d8573b',
  minisearch: '#2f9e6e',
  'entitydb-scan': '#9b59b6',
  pglite: '#b8860b',
}

/** The mode each system's line shows: its richest one, the same at every size. */
const LINE_MODE: Record<SystemKey, Mode> = {
  engram: 'hybrid',
  orama: 'hybrid',
  minisearch: 'keyword',
  'entitydb-scan': 'vector',
  pglite: 'hybrid',
}
const lineMode = (r: SystemResult): Mode => LINE_MODE[r.system as SystemKey] ?? 'hybrid'

function panel(run: RunResult, x0: number, width: number, height: number): string {
  const pad = { left: 56, right: 12, top: 34, bottom: 44 }
  const sizes = [...new Set(run.results.map((r) => r.size))].sort((a, b) => a - b)
  const points = run.results.flatMap((r) => {
    const mode = lineMode(r)
    const l = r.recall[mode]
    return l && Number.isFinite(l.p50) ? [{ r, mode, p50: l.p50 }] : []
  })
  if (points.length === 0 || sizes.length === 0) return ''
  const lo = Math.min(...points.map((p) => p.p50), 1)
  const hi = Math.max(...points.map((p) => p.p50), 10)
  const yMin = 10 ** Math.floor(Math.log10(lo))
  const yMax = 10 ** Math.ceil(Math.log10(hi))
  const xMin = Math.log10(sizes[0] as number)
  const xMax = Math.max(Math.log10(sizes[sizes.length - 1] as number), xMin + 1)
  const px = (size: number) =>
    x0 + pad.left + ((Math.log10(size) - xMin) / (xMax - xMin)) * (width - pad.left - pad.right)
  const py = (v: number) =>
    pad.top +
    (1 - (Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) *
      (height - pad.top - pad.bottom)
  const out: string[] = []
  const title = run.runtime === 'chromium' ? 'Chromium worker' : 'Node (fake-indexeddb)'
  out.push(
    `<text x="${x0 + width / 2}" y="18" text-anchor="middle" font-weight="bold">${title}: p50 recall latency (ms)</text>`,
  )
  for (let v = yMin; v <= yMax; v *= 10) {
    const y = py(v).toFixed(1)
    out.push(
      `<line x1="${x0 + pad.left}" x2="${x0 + width - pad.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`,
      `<text x="${x0 + pad.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${v >= 1 ? v : v.toFixed(2)}</text>`,
    )
  }
  for (const size of sizes) {
    const x = px(size).toFixed(1)
    out.push(
      `<line x1="${x}" x2="${x}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#eee"/>`,
      `<text x="${x}" y="${height - pad.bottom + 16}" text-anchor="middle">${count(size)}</text>`,
    )
  }
  out.push(
    `<text x="${x0 + width / 2}" y="${height - 8}" text-anchor="middle">memories (log scale)</text>`,
  )
  if (yMin <= 3 && 3 <= yMax) {
    const y = py(3)
    out.push(
      `<line x1="${x0 + pad.left}" x2="${x0 + width - pad.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="#888" stroke-dasharray="4 3"/>`,
      `<text x="${x0 + width - pad.right - 2}" y="${(y + 12).toFixed(1)}" text-anchor="end" fill="#666">3 ms: hybrid p50 target at 100k</text>`,
    )
  }
  for (const key of SYSTEM_KEYS) {
    const line = points.filter((p) => p.r.system === key).sort((a, b) => a.r.size - b.r.size)
    if (line.length === 0) continue
    const color = COLORS[key] ?? '#555'
    const d = line.map(
      (p, i) => `${i ? 'L' : 'M'}${px(p.r.size).toFixed(1)},${py(p.p50).toFixed(1)}`,
    )
    out.push(`<path d="${d.join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`)
    for (const p of line) {
      out.push(
        `<circle cx="${px(p.r.size).toFixed(1)}" cy="${py(p.p50).toFixed(1)}" r="3" fill="${color}"><title>${label(key)} ${p.mode} @ ${count(p.r.size)}: ${ms(p.p50)} ms</title></circle>`,
      )
    }
  }
  return out.join('\n')
}

export function renderSvg(report: BenchReport): string {
  const runs = [...report.runs].sort((a) => (a.runtime === 'chromium' ? -1 : 1))
  const width = 420
  const height = 300
  const legend = 24 + 18 * SYSTEM_KEYS.length
  const total = width * Math.max(runs.length, 1)
  const body = runs.map((run, i) => panel(run, i * width, width, height)).join('\n')
  const items = SYSTEM_KEYS.filter((k) =>
    report.runs.some((r) => r.results.some((x) => x.system === k)),
  )
  const keyLines = items.map((key, i) => {
    const y = height + 14 + i * 18
    return `<rect x="60" y="${y - 9}" width="14" height="4" fill="${COLORS[key]}"/><text x="82" y="${y - 4}" dominant-baseline="middle">${label(key)}: ${LINE_MODE[key]} p50</text>`
  })
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="${height + legend}" viewBox="0 0 ${total} ${height + legend}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    body,
    ...keyLines,
    '</svg>',
    '',
  ].join('\n')
}
