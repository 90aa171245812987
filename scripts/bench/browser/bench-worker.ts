/// <reference lib="webworker" />
/**
 * The Chromium side: a module worker running the same suite as Node over the browser's real
 * IndexedDB, with the real MemoryEngine inside it (what `openMemory` runs in its worker, minus
 * the Comlink hop). PGlite stores in IndexedDB (`idb://`), starting each store from the same
 * template data directory as Node. Texts and queries are fetched; vectors are computed here by
 * the same n-gram embedder, so they are bit-identical to Node's.
 */
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite/vector'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { deleteDatabase } from '../idb.ts'
import { runScale, type ScaleResult } from '../scale.ts'
import { runSize, type SuiteEnv, type SystemKey } from '../suite.ts'
import type { Doc, Query, SystemResult } from '../types.ts'

/** What the page asks for: one store size. */
export interface WorkerRequest {
  size: number
  systems: SystemKey[]
  queries: number
  probes: number
  recallBudgetMs: number
  coldRuns: number
  exactQueries: number
  tag: string
}

/** What the page asks for the scale cell: Engram alone, the first `size` texts. */
export interface ScaleRequest {
  scale: true
  size: number
  queries: number
  capMs: number
  recallBudgetMs: number
  batch: number
  coldRuns: number
  tag: string
}

export type WorkerMessage =
  | { log: string }
  | { heapAsk: number }
  | { result: SystemResult[] | ScaleResult }
  | { error: string }

const scope = self as unknown as DedicatedWorkerGlobalScope & { gc?: () => void }
const post = (message: WorkerMessage) => scope.postMessage(message)

let data: { texts: string[]; queries: string[] } | undefined
let template: Blob | undefined
const embedder = new NgramEmbedder({ dims: 384 })
const vectors = new Map<number, Float32Array>()

async function load(): Promise<{ texts: string[]; queries: string[] }> {
  data ??= (await (await fetch('data/corpus.json')).json()) as {
    texts: string[]
    queries: string[]
  }
  template ??= await (await fetch('data/pglite-template.tar')).blob()
  return data
}

function doc(id: number, text: string): Doc {
  let v = vectors.get(id)
  if (!v) {
    v = embedder.embedOne(text)
    vectors.set(id, v)
  }
  return { id, text, vector: v }
}

function env(): SuiteEnv {
  return {
    indexedDB: scope.indexedDB,
    IDBKeyRange,
    async openPGlite(name, fresh) {
      // Durable (PGlite's default): each statement returns once its files are synced to
      // IndexedDB. `relaxedDurability` leaves that sync running in the background, where it
      // races `close()` and fails the worker.
      const options = { extensions: { vector } }
      if (fresh) {
        await deleteDatabase(scope.indexedDB, `/pglite/${name}`)
        return PGlite.create(`idb://${name}`, { ...options, loadDataDir: template })
      }
      return PGlite.create(`idb://${name}`, options)
    },
    async dropPGlite(name) {
      await deleteDatabase(scope.indexedDB, `/pglite/${name}`)
    },
    async gc() {
      scope.gc?.()
      await new Promise((resolve) => setTimeout(resolve, 10))
      scope.gc?.()
    },
    heapBytes: askHeap,
    log: (line) => post({ log: line }),
  }
}

/**
 * This worker's heap as DevTools sees it (JS heap plus ArrayBuffer backing stores; WebAssembly
 * memory is not included), asked of the driver through the page: `performance.memory` does not
 * exist in workers.
 */
let heapAsks = 0
const heapReplies = new Map<number, (bytes: number | undefined) => void>()
function askHeap(): Promise<number | undefined> {
  const id = ++heapAsks
  return new Promise((resolve) => {
    heapReplies.set(id, resolve)
    post({ heapAsk: id })
  })
}

// A peer's background failure (a late file-system sync, say) must not end the whole run.
scope.addEventListener('error', (event) => {
  event.preventDefault()
  post({ log: `uncaught: ${event.message}` })
})
scope.addEventListener('unhandledrejection', (event) => {
  event.preventDefault()
  post({ log: `unhandled rejection: ${String(event.reason)}` })
})

scope.onmessage = async (
  event: MessageEvent<WorkerRequest | ScaleRequest | { heapReply: number; bytes?: number }>,
) => {
  if ('heapReply' in event.data) {
    heapReplies.get(event.data.heapReply)?.(event.data.bytes)
    heapReplies.delete(event.data.heapReply)
    return
  }
  if ('scale' in event.data) {
    await scale(event.data)
    return
  }
  const r = event.data
  try {
    const { texts, queries } = await load()
    const docs = texts.slice(0, r.size).map((text, id) => doc(id, text))
    const probes = texts
      .slice(texts.length - r.probes)
      .map((text, i) => doc(texts.length - r.probes + i, text))
    const query: Query[] = queries
      .slice(0, r.queries)
      .map((text) => ({ text, vector: embedder.embedOne(text) }))
    const result = await runSize(env(), {
      systems: r.systems,
      docs,
      queries: query,
      probes,
      recallBudgetMs: r.recallBudgetMs,
      coldRuns: r.coldRuns,
      exactQueries: r.exactQueries,
      tag: r.tag,
    })
    post({ result })
  } catch (error) {
    post({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  }
}

/** The scale cell: vectors made a batch at a time and not kept (a million would be 1.5 GB). */
async function scale(r: ScaleRequest): Promise<void> {
  try {
    const { texts, queries } = await load()
    const result = await runScale(env(), {
      texts: texts.slice(0, r.size),
      vectorOf: (text) => embedder.embedOne(text),
      queries: queries
        .slice(0, r.queries)
        .map((text) => ({ text, vector: embedder.embedOne(text) })),
      capMs: r.capMs,
      batch: r.batch,
      recallBudgetMs: r.recallBudgetMs,
      coldRuns: r.coldRuns,
      tag: r.tag,
    })
    post({ result })
  } catch (error) {
    post({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  }
}
