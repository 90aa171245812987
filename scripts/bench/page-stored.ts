/**
 * A long page's two ways in (issue 25 §6), in Node over fake-indexeddb: `pages.remember` with the
 * default `wait: 'stored'` (returns once the chunks are stored and keyword-searchable; the
 * backfill embeds them after) against `wait: 'vectors'` (embeds first). For the first it times
 * the return, a keyword recall that finds the page before any vector exists, a `remember` made
 * while the backfill embeds, and the backfill to the last `page-embedding` event.
 *
 *   npx tsx scripts/bench/page-stored.ts [--embedder ngram|tiny] [--page-kb 1024]
 */
import { fileURLToPath } from 'node:url'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { Embedder, MemoryEvent } from '../../src/core/types.ts'
import { TINY_TEST_MODEL } from '../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { TransformersEmbedder } from '../../src/embedder/transformers-embedder.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'
import { ensureModel } from '../make-models.ts'
import { markdownPage } from './page-corpus.ts'

const MODELS = fileURLToPath(new URL('../../.models', import.meta.url))
const argv = process.argv.slice(2)
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1]! : fallback
}
const kind = arg('embedder', 'ngram')
const pageKb = Number(arg('page-kb', '1024'))

async function embedder(): Promise<Embedder> {
  if (kind === 'ngram') return new NgramEmbedder()
  await ensureModel('tiny')
  return new TransformersEmbedder({
    model: TINY_TEST_MODEL,
    localDir: MODELS,
    allowRemote: false,
    device: 'cpu',
  })
}

async function open(name: string, onEvent: (e: MemoryEvent) => void): Promise<MemoryEngine> {
  const model = await embedder()
  await model.load()
  return MemoryEngine.open({
    name,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    autoReview: false,
    embedder: model,
    onEvent,
  })
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

async function stored(text: string): Promise<void> {
  let done: (() => void) | undefined
  const events: MemoryEvent[] = []
  let pageId = ''
  const embedded = new Promise<void>((resolve) => {
    done = resolve
  })
  const engine = await open('stored', (e) => {
    events.push(e)
    if (e.type === 'page-embedding' && e.pageId === pageId && e.done === e.total) done?.()
  })
  const t = performance.now()
  const result = await engine.pages.remember({
    title: 'Big guide',
    text,
    source: 'big.md',
    poison: 'flag',
  })
  pageId = result.pageId
  const returned = performance.now() - t
  const word = text.match(/\b[a-z]{7,}\b/)?.[0] ?? 'guide'
  const r = performance.now()
  const { hits } = await engine.recall(word, { mode: 'hybrid' })
  const recalled = performance.now() - r
  const w = performance.now()
  await engine.remember('The owner prefers metric units', { poison: 'flag' })
  const wrote = performance.now() - w
  if (!events.some((e) => e.type === 'page-embedding' && e.done === e.total)) await embedded
  const all = performance.now() - t
  const steps = events.filter((e) => e.type === 'page-embedding').length
  console.log(`wait 'stored': returned in ${seconds(returned)} ${JSON.stringify(result)}`)
  console.log(
    `  hybrid recall of '${word}' right after: ${recalled.toFixed(0)} ms, top hit on the page: ${hits[0]?.page?.pageId === pageId}`,
  )
  console.log(`  a remember while the backfill embeds: ${wrote.toFixed(0)} ms`)
  console.log(`  every chunk embedded after ${seconds(all)} (${steps} page-embedding events)`)
  await engine.close()
}

async function vectors(text: string): Promise<void> {
  const engine = await open('vectors', () => {})
  const t = performance.now()
  const result = await engine.pages.remember({
    title: 'Big guide',
    text,
    source: 'big.md',
    poison: 'flag',
    wait: 'vectors',
  })
  console.log(
    `wait 'vectors': returned in ${seconds(performance.now() - t)} ${JSON.stringify(result)}`,
  )
  await engine.close()
}

const text = markdownPage(pageKb * 1024, 1)
console.log(`${kind}, one ${pageKb} KB page`)
await stored(text)
await vectors(text)
