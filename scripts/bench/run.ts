/**
 * `npm run bench`: Engram against Orama, MiniSearch, an EntityDB-style scan and PGlite
 * (pgvector + full-text search) at 1k, 10k and 100k memories, in Node (fake-indexeddb) and in a
 * Chromium worker (real IndexedDB). Writes docs/benchmarks.md, docs/benchmarks.svg and
 * .bench/latest.jsonl (one line of JSON, which Biome leaves alone), and prints the Markdown.
 *
 *   tsx scripts/bench/run.ts [--sizes 1000,10000,100000] [--node-sizes 1000,10000]
 *     [--queries 100] [--probes 20]
 *     [--systems engram,orama,minisearch,entitydb-scan,pglite] [--runtimes node,chromium]
 *     [--budget-ms 6000] [--pglite-chromium-max 10000]
 *     [--entitydb-max 10000] [--no-write]
 *     [--million | --scale 1000000] [--scale-cap-min 30] [--scale-only]
 *   tsx scripts/bench/run.ts --render [.bench/latest.jsonl]   (docs from a saved run)
 *
 * `--million` (or `--scale N`) adds the scale cell: Engram alone in Chromium at N memories
 * (`scripts/bench/scale.ts`), each step capped at `--scale-cap-min` minutes, the import
 * stopping at the batch that passes it; `--scale-only` runs that cell alone and writes only
 * .bench/latest-scale.jsonl (the docs come from a full run).
 */
import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runChromium } from './browser/run-chromium.ts'
import { runScaleChromium } from './browser/run-scale.ts'
import { availableSource, buildCorpus } from './corpus.ts'
import { prepareData } from './data.ts'
import { BENCH_DIR, cleanUpNode, nodeEnv, ROOT } from './node-env.ts'
import { type BenchReport, renderSvg } from './report.ts'
import type { ScaleRun } from './scale.ts'
import { renderWithScale as renderMarkdown } from './scale-report.ts'
import { runSize, SYSTEM_KEYS, type SystemKey } from './suite.ts'
import type { RunResult } from './types.ts'

export interface BenchOptions {
  /** Store sizes in Chromium, and in Node unless `nodeSizes` says otherwise. */
  sizes: number[]
  /**
   * Store sizes in Node. 100k is left out by default: fake-indexeddb steps cursors in O(n),
   * which Engram's write path (Dexie `anyOf`, `modify`) hits hard, and that alone takes about
   * ten minutes on two cores — a cost of the Node test double, not of browsers.
   */
  nodeSizes?: number[]
  queries: number
  /** Single writes timed per store. */
  probes: number
  systems: SystemKey[]
  runtimes: ('node' | 'chromium')[]
  /** Per system and mode, how long recall timing may run (at least 5 queries). */
  recallBudgetMs: number
  /** PGlite runs in Chromium up to this size (its IndexedDB file system rewrites whole files). */
  pgliteChromiumMax: number
  /**
   * The EntityDB-style scan runs up to this size: it reads every vector per query (1.2 s at 10k
   * in Chromium), so 100k would take minutes for a figure that is 10× the 10k one.
   */
  entityDbMax: number
  /** Write docs/benchmarks.md, docs/benchmarks.svg and .bench/latest.jsonl. */
  write: boolean
  /** The scale cell's size (Engram alone, Chromium); none when undefined. */
  scale?: number
  /** Each step of the scale cell stops past this. @default 30 minutes */
  scaleCapMs: number
  /** Run the scale cell alone (no Node or Chromium cells, no docs). */
  scaleOnly: boolean
  command: string
  log(line: string): void
}

export const DEFAULT_OPTIONS: BenchOptions = {
  sizes: [1000, 10_000, 100_000],
  nodeSizes: [1000, 10_000],
  queries: 100,
  probes: 20,
  systems: [...SYSTEM_KEYS],
  runtimes: ['node', 'chromium'],
  recallBudgetMs: 6000,
  pgliteChromiumMax: 10_000,
  entityDbMax: 10_000,
  write: true,
  scaleCapMs: 30 * 60_000,
  scaleOnly: false,
  command: 'npm run bench',
  log: (line) => console.error(`${new Date().toISOString().slice(11, 19)} ${line}`),
}

const coldRuns = (size: number) => (size >= 100_000 ? 2 : 3)

function notRun(system: SystemKey, size: number, max: number) {
  return { system, size, recall: {}, error: `not run above ${max.toLocaleString('en')} memories` }
}

function machine(): string {
  const cpu = cpus()
  return `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}`
}

async function runNode(o: BenchOptions): Promise<RunResult> {
  const started = Date.now()
  const sizes = [...(o.nodeSizes ?? o.sizes)].sort((a, b) => a - b)
  const maxSize = Math.max(...sizes)
  o.log(`node: preparing ${maxSize.toLocaleString('en')} memories`)
  const data = prepareData(maxSize, o.queries, o.probes)
  const results: RunResult['results'] = []
  try {
    for (const size of sizes) {
      const env = await nodeEnv((line) => o.log(`node: ${line}`))
      const systems = o.systems.filter((s) => s !== 'entitydb-scan' || size <= o.entityDbMax)
      results.push(
        ...(await runSize(env, {
          systems,
          docs: data.docs.slice(0, size),
          queries: data.queries,
          probes: data.probes,
          recallBudgetMs: o.recallBudgetMs,
          coldRuns: coldRuns(size),
          tag: Date.now().toString(36),
        })),
      )
      if (systems.length < o.systems.length) {
        results.push(notRun('entitydb-scan', size, o.entityDbMax))
      }
    }
  } finally {
    await cleanUpNode()
  }
  return {
    runtime: 'node',
    machine: machine(),
    startedAt: new Date(started).toISOString(),
    sizes,
    queries: o.queries,
    results,
    corpus: data.provenance,
    wallMs: Date.now() - started,
  }
}

async function runBrowser(o: BenchOptions): Promise<RunResult> {
  const started = Date.now()
  const maxSize = Math.max(...o.sizes)
  const corpus = buildCorpus(maxSize + o.probes, o.queries)
  const run = await runChromium({
    sizes: [...o.sizes].sort((a, b) => a - b),
    systems: o.systems,
    maxSize: { pglite: o.pgliteChromiumMax, 'entitydb-scan': o.entityDbMax },
    texts: corpus.texts,
    queries: corpus.queries,
    probes: o.probes,
    recallBudgetMs: o.recallBudgetMs,
    coldRuns,
    exactQueries: 50,
    log: o.log,
  })
  return {
    runtime: 'chromium',
    machine: `Chromium ${run.version} (headless, module worker) on the same machine`,
    startedAt: new Date(started).toISOString(),
    sizes: o.sizes,
    queries: o.queries,
    results: run.results,
    corpus: corpus.provenance,
    wallMs: Date.now() - started,
  }
}

/** The scale cell in Chromium; its corpus is the others' at a larger size. */
async function runScaleCell(o: BenchOptions, size: number): Promise<ScaleRun> {
  const started = Date.now()
  o.log(`scale: preparing ${size.toLocaleString('en')} memories`)
  const corpus = buildCorpus(size, o.queries)
  const run = await runScaleChromium({
    texts: corpus.texts,
    queries: corpus.queries,
    capMs: o.scaleCapMs,
    recallBudgetMs: o.recallBudgetMs,
    batch: 10_000,
    coldRuns: 2,
    log: o.log,
  })
  return {
    machine: `Chromium ${run.version} (headless, module worker), ${machine()}`,
    startedAt: new Date(started).toISOString(),
    corpus: availableSource(),
    result: run.result,
  }
}

/** Runs the whole benchmark; writes the docs unless `write` is false. */
export async function runBench(options: Partial<BenchOptions> = {}): Promise<BenchReport> {
  const o = { ...DEFAULT_OPTIONS, ...options }
  const started = Date.now()
  const runs: RunResult[] = []
  const keep = async (run: RunResult) => {
    runs.push(run)
    // Each runtime's figures are kept as soon as they exist; a later failure loses nothing.
    if (o.write) {
      await mkdir(BENCH_DIR, { recursive: true })
      await writeFile(join(BENCH_DIR, `latest-${run.runtime}.jsonl`), `${JSON.stringify(run)}\n`)
    }
  }
  if (!o.scaleOnly && o.runtimes.includes('node')) await keep(await runNode(o))
  if (!o.scaleOnly && o.runtimes.includes('chromium')) await keep(await runBrowser(o))
  const scale = o.scale === undefined ? undefined : await runScaleCell(o, o.scale)
  if (scale && o.write) {
    await mkdir(BENCH_DIR, { recursive: true })
    await writeFile(join(BENCH_DIR, 'latest-scale.jsonl'), `${JSON.stringify(scale)}\n`)
  }
  const report: BenchReport = {
    command: o.command,
    wallMs: Date.now() - started,
    runs,
    corpus: runs[0]?.corpus ?? { msc: 0, locomo: 0, combined: 0 },
    queries: o.queries,
    ...(scale && { scale }),
  }
  if (o.write && !o.scaleOnly) {
    await mkdir(BENCH_DIR, { recursive: true })
    await writeFile(join(BENCH_DIR, 'latest.jsonl'), `${JSON.stringify(report)}\n`)
    await writeDocs(report)
  }
  return report
}

function parseArgs(argv: string[]): Partial<BenchOptions> {
  const o: Partial<BenchOptions> = {}
  const list = (v: string) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  const number = (name: string, v: string | undefined) => {
    const n = Number(v)
    if (!Number.isFinite(n) || n <= 0)
      throw new TypeError(`--${name}: expected a positive number, got ${v}`)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const value = () => argv[++i]
    switch (arg) {
      case '--sizes':
        o.sizes = list(value() ?? '').map((v) => number('sizes', v))
        o.nodeSizes ??= o.sizes
        break
      case '--node-sizes':
        o.nodeSizes = list(value() ?? '').map((v) => number('node-sizes', v))
        break
      case '--queries':
        o.queries = number('queries', value())
        break
      case '--probes':
        o.probes = number('probes', value())
        break
      case '--systems': {
        const systems = list(value() ?? '')
        const unknown = systems.filter((s) => !SYSTEM_KEYS.includes(s as SystemKey))
        if (unknown.length > 0) {
          throw new TypeError(
            `--systems: expected some of ${SYSTEM_KEYS.join(', ')}, got ${unknown.join(', ')}`,
          )
        }
        o.systems = systems as SystemKey[]
        break
      }
      case '--runtimes': {
        const runtimes = list(value() ?? '')
        if (runtimes.some((r) => r !== 'node' && r !== 'chromium')) {
          throw new TypeError(
            `--runtimes: expected node and/or chromium, got ${runtimes.join(', ')}`,
          )
        }
        o.runtimes = runtimes as BenchOptions['runtimes']
        break
      }
      case '--budget-ms':
        o.recallBudgetMs = number('budget-ms', value())
        break
      case '--pglite-chromium-max':
        o.pgliteChromiumMax = number('pglite-chromium-max', value())
        break
      case '--entitydb-max':
        o.entityDbMax = number('entitydb-max', value())
        break
      case '--no-write':
        o.write = false
        break
      case '--million':
        o.scale = 1_000_000
        break
      case '--scale':
        o.scale = number('scale', value())
        break
      case '--scale-cap-min':
        o.scaleCapMs = number('scale-cap-min', value()) * 60_000
        break
      case '--scale-only':
        o.scaleOnly = true
        break
      default:
        throw new TypeError(
          `unknown option ${arg}; see the comment at the top of scripts/bench/run.ts`,
        )
    }
  }
  return o
}

/** docs/benchmarks.md (put through the repository's formatter, which aligns tables) and the chart. */
async function writeDocs(report: BenchReport): Promise<void> {
  const markdown = join(ROOT, 'docs', 'benchmarks.md')
  await mkdir(join(ROOT, 'docs'), { recursive: true })
  await writeFile(markdown, renderMarkdown(report))
  await writeFile(join(ROOT, 'docs', 'benchmarks.svg'), renderSvg(report))
  const biome = join(ROOT, 'node_modules', '.bin', 'biome')
  await promisify(execFile)(biome, ['format', '--write', markdown], { cwd: ROOT }).catch(() => {})
}

/** Rewrites docs/benchmarks.md and the chart from a saved run, without running anything. */
async function render(path: string): Promise<BenchReport> {
  const report = JSON.parse(await readFile(path, 'utf8')) as BenchReport
  await writeDocs(report)
  return report
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  if (args[0] === '--render') {
    console.log(renderMarkdown(await render(args[1] ?? join(BENCH_DIR, 'latest.jsonl'))))
    process.exit(0)
  }
  const report = await runBench({
    ...parseArgs(args),
    command: ['npm run bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' '),
  })
  console.log(renderMarkdown(report))
  process.exit(0)
}
