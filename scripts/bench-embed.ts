/**
 * Embedding speed of a bge-small-shaped model (12 layers, hidden 384, random weights from
 * `make-models.ts`) in Node: sentences per second at batch sizes 1, 8 and 32, and the latency of
 * one query. Two runtimes, each in its own process:
 *
 * - `node-cpu`: TransformersEmbedder, device 'cpu' (onnxruntime-node) — what Node users get.
 * - `wasm-1t`: the same transformers.js pipeline, tokenizer and CLS pooling on onnxruntime-web's
 *   WASM backend, one thread — the browser's CPU path, minus the browser. TransformersEmbedder
 *   refuses 'wasm' in Node, so this row drives the pipeline directly, injecting onnxruntime-web
 *   through transformers.js' `Symbol.for('onnxruntime')` hook.
 *
 * With `--trial`, instead: what `device: 'auto'` costs at open with the candidates Node has
 * (onnxruntime-node's CPU, then its WebGPU), on the same model — the CPU alone, the first open
 * (a trial, capped), the next open over the same store (the remembered decision), and the
 * trial under the old, uncapped rule (every candidate timed to the end).
 *
 * Usage: tsx scripts/bench-embed.ts [--budget SECONDS_PER_CELL] [--trial]
 */

import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { DeviceTrialStats } from '../src/core/types.ts'
import { BGE_QUERY_INSTRUCTION, BGE_SMALL_SHAPED_TEST_MODEL } from '../src/embedder/model-table.ts'
import { DEFAULT_OUT_DIR, ensureModel } from './make-models.ts'
import { uniform } from './models/rng.ts'
import { COMMON_WORDS } from './models/words.ts'

const RUNTIMES = ['node-cpu', 'wasm-1t'] as const
type Runtime = (typeof RUNTIMES)[number]
const BATCH_SIZES = [1, 8, 32]
const QUERY = "who is priya's sister-in-law and when is her birthday"
const QUERY_RUNS = 15
const WARM_UP_CALLS = 3

interface Cell {
  batch: number
  sentences: number
  ms: number
}

interface RuntimeResult {
  runtime: Runtime
  loadMs: number
  cells: Cell[]
  queryMs: number[]
}

type EmbedFn = (texts: string[], kind: 'query' | 'passage') => Promise<unknown>

/** Memory-sized sentences of 8 to 24 common words, the same on every run. */
function sentences(count: number): string[] {
  const words = COMMON_WORDS.split(/\s+/).filter((w) => /^[a-z]+$/.test(w))
  const next = uniform(42)
  return Array.from({ length: count }, () => {
    const length = 8 + Math.floor(next() * 17)
    const picked = Array.from({ length }, () => words[Math.floor(next() * words.length)])
    return `${picked.join(' ')}.`
  })
}

async function openRuntime(runtime: Runtime, modelsDir: string): Promise<EmbedFn> {
  if (runtime === 'node-cpu') {
    const { TransformersEmbedder } = await import('../src/embedder/transformers-embedder.ts')
    const embedder = new TransformersEmbedder({
      model: BGE_SMALL_SHAPED_TEST_MODEL,
      localDir: modelsDir,
      allowRemote: false,
      device: 'cpu',
      batchSize: 32,
    })
    await embedder.load()
    return (texts, kind) => embedder.embed(texts, { kind })
  }
  const ort = await import('onnxruntime-web')
  ort.env.wasm.numThreads = 1
  // A path prefix, not a URL object: transformers.js would otherwise fetch the binaries from
  // jsDelivr, and Node's fetch cannot read file: URLs.
  ort.env.wasm.wasmPaths = `${resolve('node_modules/onnxruntime-web/dist')}/`
  ;(globalThis as Record<symbol, unknown>)[Symbol.for('onnxruntime')] = ort
  const { env, pipeline } = await import('@huggingface/transformers')
  env.allowRemoteModels = false
  const pipe = await pipeline('feature-extraction', `${modelsDir}/${BGE_SMALL_SHAPED_TEST_MODEL}`, {
    // 'auto' is the one device name transformers.js accepts with an injected runtime; the
    // session options then pick the WASM backend.
    device: 'auto',
    dtype: 'fp32',
    local_files_only: true,
    session_options: { executionProviders: ['wasm'] },
  })
  return (texts, kind) =>
    pipe(kind === 'query' ? texts.map((t) => BGE_QUERY_INSTRUCTION + t) : texts, {
      pooling: 'cls',
      normalize: true,
    })
}

async function measure(
  runtime: Runtime,
  modelsDir: string,
  budgetMs: number,
): Promise<RuntimeResult> {
  const started = performance.now()
  const embed = await openRuntime(runtime, modelsDir)
  const loadMs = performance.now() - started
  const corpus = sentences(256)
  const cells: Cell[] = []
  for (const batch of BATCH_SIZES) {
    // ONNX Runtime grows its memory arena and warms its thread pool over the first calls.
    for (let i = 0; i < WARM_UP_CALLS; i++)
      await embed(corpus.slice(i * batch, (i + 1) * batch), 'passage')
    let done = 0
    let ms = 0
    // Timed until the budget is spent, and over at least two batches.
    while (ms < budgetMs || done < 2 * batch) {
      const from = done % corpus.length
      const texts = corpus.slice(from, from + batch)
      const t = performance.now()
      await embed(texts, 'passage')
      ms += performance.now() - t
      done += texts.length
    }
    cells.push({ batch, sentences: done, ms })
  }
  const queryMs: number[] = []
  await embed([QUERY], 'query')
  for (let i = 0; i < QUERY_RUNS; i++) {
    const t = performance.now()
    await embed([QUERY], 'query')
    queryMs.push(performance.now() - t)
  }
  return { runtime, loadMs, cells, queryMs }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN
}

function runChild(runtime: Runtime, modelsDir: string, budgetMs: number): Promise<RuntimeResult> {
  const self = fileURLToPath(import.meta.url)
  const args = [...process.execArgv, self, '--child', runtime, modelsDir, String(budgetMs)]
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.on('error', fail)
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? ''
      if (code !== 0 || !line.startsWith('{')) fail(new Error(`${runtime} exited ${code}: ${out}`))
      else done(JSON.parse(line) as RuntimeResult)
    })
  })
}

function table(results: RuntimeResult[]): string {
  const rows = [
    '| runtime | batch | sentences/s | ms/sentence | sentences timed |',
    '|---|---:|---:|---:|---:|',
  ]
  for (const r of results) {
    for (const c of r.cells) {
      const perSecond = (c.sentences / c.ms) * 1000
      const perSentence = c.ms / c.sentences
      rows.push(
        `| ${r.runtime} | ${c.batch} | ${perSecond.toFixed(1)} | ${perSentence.toFixed(1)} | ${c.sentences} |`,
      )
    }
  }
  rows.push(
    '',
    '| runtime | model load (ms) | query p50 (ms) | query p90 (ms) |',
    '|---|---:|---:|---:|',
  )
  for (const r of results) {
    rows.push(
      `| ${r.runtime} | ${r.loadMs.toFixed(0)} | ${percentile(r.queryMs, 0.5).toFixed(1)} | ${percentile(r.queryMs, 0.9).toFixed(1)} |`,
    )
  }
  return rows.join('\n')
}

interface OpenRow {
  open: string
  loadMs: number
  source: string
  trial: string
}

/** One open of the bge-small-shaped model: its load time and how its device was picked. */
async function openOnce(modelsDir: string, open: string, options: object): Promise<OpenRow> {
  const { TransformersEmbedder } = await import('../src/embedder/transformers-embedder.ts')
  const embedder = new TransformersEmbedder({
    model: BGE_SMALL_SHAPED_TEST_MODEL,
    localDir: modelsDir,
    allowRemote: false,
    ...options,
  })
  const started = performance.now()
  await embedder.load()
  const loadMs = performance.now() - started
  const stats = embedder.stats()
  await embedder.dispose()
  return { open, loadMs, source: stats.deviceSource ?? '', trial: describeTrial(stats.trial) }
}

function describeTrial(trial: DeviceTrialStats | undefined): string {
  if (!trial) return ''
  const entries = trial.entries.map((e) => {
    const outcome = e.error
      ? 'failed'
      : e.cut
        ? `cut (${e.cut})`
        : `median ${e.medianMs?.toFixed(1)} ms`
    return `${e.device}: load ${e.loadMs?.toFixed(0) ?? '-'} ms, ${outcome}`
  })
  return `${trial.totalMs.toFixed(0)} ms in all; ${entries.join('; ')}`
}

/** The old rule: both candidates timed to the end, whatever the baseline did. */
async function uncappedTrial(modelsDir: string): Promise<OpenRow> {
  const transformers = await import('@huggingface/transformers')
  const { openPipe, embedWith } = await import('../src/embedder/transformers-pipeline.ts')
  const { runDeviceTrial } = await import('../src/embedder/device-trial.ts')
  const { TRIAL_TEXTS } = await import('../src/embedder/device-plan.ts')
  const spec = {
    model: BGE_SMALL_SHAPED_TEST_MODEL,
    source: `${modelsDir}/${BGE_SMALL_SHAPED_TEST_MODEL}`,
    allowRemote: false,
    pooling: 'cls' as const,
    batchSize: 32,
    expectedDims: 384,
    dtype: 'fp32' as const,
    onProgress: () => {},
  }
  const started = performance.now()
  const outcome = await runDeviceTrial(
    ['cpu', 'webgpu'].map((device) => ({
      device,
      open: () => openPipe(transformers, spec, device),
      run: (loaded: { pipe: Parameters<typeof embedWith>[0] }) =>
        embedWith(loaded.pipe, spec, [...TRIAL_TEXTS], undefined),
      dispose: (loaded: { pipe: { dispose(): Promise<void> } }) => loaded.pipe.dispose(),
    })),
    { runs: 3, factor: Number.POSITIVE_INFINITY, floorMs: Number.POSITIVE_INFINITY },
  )
  const loadMs = performance.now() - started
  await outcome.winner?.loaded.pipe.dispose()
  return {
    open: 'auto, old uncapped rule',
    loadMs,
    source: 'trial',
    trial: describeTrial(outcome.stats),
  }
}

async function measureTrial(modelsDir: string): Promise<OpenRow[]> {
  const { MemoryDeviceChoices } = await import('../src/embedder/device-choice-store.ts')
  const store = new MemoryDeviceChoices()
  const auto = { device: 'auto', trialDevices: ['cpu', 'webgpu'], deviceChoices: store }
  // Untimed: the first open also pays for importing transformers.js and reading the files cold.
  await openOnce(modelsDir, 'warm-up', { device: 'cpu' })
  const rows = [await openOnce(modelsDir, "device 'cpu'", { device: 'cpu' })]
  rows.push(await openOnce(modelsDir, 'auto, first open', auto))
  rows.push(await openOnce(modelsDir, 'auto, next open', auto))
  rows.push(await uncappedTrial(modelsDir))
  return rows
}

function trialTable(rows: OpenRow[]): string {
  const lines = ['| open | load (ms) | device from | trial |', '|---|---:|---|---|']
  for (const r of rows)
    lines.push(`| ${r.open} | ${r.loadMs.toFixed(0)} | ${r.source} | ${r.trial} |`)
  return lines.join('\n')
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--child') {
    const [, runtime, modelsDir, budget] = argv
    const result = await measure(runtime as Runtime, modelsDir!, Number(budget))
    console.log(JSON.stringify(result))
    return
  }
  const budgetAt = argv.indexOf('--budget')
  const budgetMs = budgetAt >= 0 ? Number(argv[budgetAt + 1]) * 1000 : 6000
  const modelDir = await ensureModel('bge-small', DEFAULT_OUT_DIR)
  const modelsDir = resolve(modelDir, '..', '..')
  if (argv.includes('--trial')) {
    console.log(`Opening ${BGE_SMALL_SHAPED_TEST_MODEL} (fp32), Node ${process.version}\n`)
    console.log(trialTable(await measureTrial(modelsDir)))
    return
  }
  const started = performance.now()
  const results: RuntimeResult[] = []
  for (const runtime of RUNTIMES) results.push(await runChild(runtime, modelsDir, budgetMs))
  console.log(
    `Embedding ${BGE_SMALL_SHAPED_TEST_MODEL} (12 layers, hidden 384, fp32), sentences of 8-24 words, Node ${process.version}\n`,
  )
  console.log(table(results))
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
