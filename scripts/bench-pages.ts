/**
 * Page ingest and recall through the engine, in Node over fake-indexeddb: one big Markdown page
 * (stored, one section edited, stored again unchanged), many small pages, and optionally hybrid
 * recall over 10k facts plus those pages. Generated Markdown (`bench/page-corpus.ts`).
 *
 *   npx tsx scripts/bench-pages.ts --embedder ngram|tiny|bge [--page-kb 1024] [--pages 100]
 *     [--small-kb 20] [--recall]
 *   npx tsx scripts/bench-pages.ts --long-input [--cap-s 120]
 *
 * `--long-input` times the pure stages alone (`validatePage`, `htmlToText`, `chunkPage`) on the
 * inputs issue 22 found freezing them: unbroken tokens of 16 KiB, 128 KiB and 2 MiB, a 2 MiB
 * data URI, 2 MiB of nested `<div>`s. Each case runs in its own process, stopped after `--cap-s`
 * seconds (a quadratic case blocks its event loop, so nothing inside could stop it).
 *
 * Ingest times include chunking, the poison screen (`poison: 'flag'`: random words do match it), embedding every chunk (batches of
 * `EMBED_CHUNK`), one transaction and the index updates: every call passes `wait: 'vectors'`, so it returns
 * once all of it is done (the default returns before the vectors, which the backfill fills).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { chunkPage } from '../src/core/page/chunk.ts'
import { htmlToText } from '../src/core/page/html-to-text.ts'
import { validatePage } from '../src/core/page/normalize-page.ts'
import type { Embedder } from '../src/core/types.ts'
import { BGE_SMALL_SHAPED_TEST_MODEL, TINY_TEST_MODEL } from '../src/embedder/model-table.ts'
import { NgramEmbedder } from '../src/embedder/ngram-embedder.ts'
import { TransformersEmbedder } from '../src/embedder/transformers-embedder.ts'
import { MemoryEngine } from '../src/engine/memory-engine.ts'
import { buildCorpus } from './bench/corpus.ts'
import { percentile } from './bench/measure.ts'
import { markdownPage } from './bench/page-corpus.ts'
import { ensureModel } from './make-models.ts'

const MODELS = fileURLToPath(new URL('../.models', import.meta.url))
const argv = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1]! : fallback
}
const kind = arg('embedder', 'ngram')
const pageKb = Number(arg('page-kb', '1024'))
const pageCount = Number(arg('pages', '100'))
const smallKb = Number(arg('small-kb', '20'))
const withRecall = argv.includes('--recall')

async function embedder(): Promise<Embedder> {
  if (kind === 'ngram') return new NgramEmbedder()
  const preset = kind === 'bge' ? 'bge-small' : 'tiny'
  await ensureModel(preset)
  const model = kind === 'bge' ? BGE_SMALL_SHAPED_TEST_MODEL : TINY_TEST_MODEL
  return new TransformersEmbedder({ model, localDir: MODELS, allowRemote: false, device: 'cpu' })
}

async function open(name: string): Promise<MemoryEngine> {
  let onReady = () => {}
  const ready = new Promise<void>((resolve) => {
    onReady = resolve
  })
  const engine = await MemoryEngine.open({
    name,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    // A benchmark measures its own operations: no review in its quiet spells.
    autoReview: false,
    embedder: await embedder(),
    onEvent: (e) => {
      if (e.type === 'model-ready') onReady()
    },
  })
  if ((await engine.inspect.stats()).embedder?.state !== 'ready') await ready
  return engine
}

async function timed<T>(label: string, task: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await task()
  const ms = performance.now() - started
  console.log(`${label}: ${(ms / 1000).toFixed(2)} s  ${JSON.stringify(result)}`)
  return result
}

async function bigPage(): Promise<void> {
  const engine = await open('big')
  const text = markdownPage(pageKb * 1024, 1)
  const first = await timed(`one ${pageKb} KB page`, () =>
    engine.pages.remember({
      title: 'Big guide',
      text,
      source: 'big.md',
      poison: 'flag',
      wait: 'vectors',
    }),
  )
  const at = text.indexOf('### Topic 5\n\n')
  const edited = `${text.slice(0, at)}### Topic 5\n\nOne new opening sentence here.\n\n${text.slice(at + 13)}`
  await timed('the same page, one section edited', () =>
    engine.pages.remember({
      title: 'Big guide',
      text: edited,
      source: 'big.md',
      poison: 'flag',
      wait: 'vectors',
    }),
  )
  await timed('the same page again', () =>
    engine.pages.remember({
      title: 'Big guide',
      text: edited,
      source: 'big.md',
      poison: 'flag',
      wait: 'vectors',
    }),
  )
  console.log(`  (${first.chunks} chunks, ${(text.length / 1024).toFixed(0)} KB)`)
  await engine.close()
}

async function smallPages(engine: MemoryEngine): Promise<void> {
  const pages = Array.from({ length: pageCount }, (_, i) => markdownPage(smallKb * 1024, 100 + i))
  let chunks = 0
  await timed(`${pageCount} pages of ${smallKb} KB`, async () => {
    for (const [i, text] of pages.entries()) {
      chunks += (
        await engine.pages.remember({
          title: `Guide ${i}`,
          text,
          source: `${i}.md`,
          poison: 'flag',
          wait: 'vectors',
        })
      ).chunks
    }
    return { chunks }
  })
}

async function recall(engine: MemoryEngine): Promise<void> {
  const corpus = buildCorpus(10_000, 120)
  await timed('10k facts', async () => {
    for (let i = 0; i < corpus.texts.length; i += 500) {
      await engine.rememberMany(corpus.texts.slice(i, i + 500).map((text) => ({ text })))
    }
    return { memories: (await engine.inspect.stats()).memories }
  })
  for (const q of corpus.queries.slice(0, 10)) await engine.recall(q)
  const samples: number[] = []
  for (const q of corpus.queries) {
    const started = performance.now()
    await engine.recall(q, { k: 10 })
    samples.push(performance.now() - started)
  }
  const [p50, p99] = [percentile(samples, 50), percentile(samples, 99)]
  console.log(
    `recall, hybrid, k 10, ${samples.length} queries: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
  )
}

const KIB = 1024
const fill = (unit: string, bytes: number) => unit.repeat(Math.floor(bytes / unit.length))
/** The long-input cases: text to chunk, or HTML to read first. */
const LONG_INPUT: Record<string, { text?: () => string; html?: () => string }> = {
  'token 16 KiB': { text: () => fill('a', 16 * KIB) },
  'token 128 KiB': { text: () => fill('a', 128 * KIB) },
  'token 2 MiB': { text: () => fill('a', 2048 * KIB - 1) },
  'data URI 2 MiB': {
    text: () => `See data:image/png;base64,${fill('iVBORw0KGgo+/', 2047 * KIB)}.`,
  },
  'nested <div> 2 MiB': { html: () => fill('<div>x', 2048 * KIB) },
}

/** One case, in this process: prints its stages' times and the heap it grew by. */
function longInputCase(name: string): void {
  const input = LONG_INPUT[name]!
  const heap = process.memoryUsage().heapUsed
  const started = performance.now()
  const text = input.html ? htmlToText(input.html()) : input.text!()
  const read = performance.now()
  const page = validatePage(text, 'text', 2048 * KIB)
  const chunks = chunkPage(page)
  const done = performance.now()
  const grown = (process.memoryUsage().heapUsed - heap) / 1e6
  const html = input.html ? `html ${((read - started) / 1000).toFixed(2)} s, ` : ''
  console.log(
    `${name}: ${((done - started) / 1000).toFixed(2)} s (${html}${chunks.length} chunks), heap +${grown.toFixed(0)} MB`,
  )
}

function longInput(): void {
  const cap = Number(arg('cap-s', '120'))
  const script = fileURLToPath(import.meta.url)
  for (const name of Object.keys(LONG_INPUT)) {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', script, '--long-input-case', name],
      {
        encoding: 'utf8',
        timeout: cap * 1000,
      },
    )
    console.log(run.status === 0 ? run.stdout.trim() : `${name}: not done after ${cap} s (stopped)`)
  }
}

if (argv.includes('--long-input-case')) {
  longInputCase(arg('long-input-case', ''))
  process.exit(0)
}
if (argv.includes('--long-input')) {
  console.log(`long input; ${new Date().toISOString()}`)
  longInput()
  process.exit(0)
}
console.log(`embedder ${kind}; ${new Date().toISOString()}`)
if (pageKb > 0) await bigPage()
if (pageCount > 0) {
  const engine = await open('small')
  await smallPages(engine)
  if (withRecall) await recall(engine)
  await engine.close()
}
process.exit(0)
