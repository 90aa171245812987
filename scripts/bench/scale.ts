/**
 * The scale cell: Engram alone (its peers fail or are not run well below this size) at up to a
 * million memories, in a Chromium worker over real IndexedDB. The docs are made a batch at a
 * time (their vectors are not all held at once), imported through the public `rememberMany`,
 * and every step runs under a time cap: the import stops at the batch that passes it and the
 * rest is measured on what it reached; a later step that passes it ends the cell there. Reports
 * import, heap, storage, cold start and recall p50/p99 (hybrid first).
 */
import { latency, median, timeEach } from './measure.ts'
import type { SuiteEnv } from './suite.ts'
import { EngramSystem } from './systems/engram.ts'
import type { Doc, Latency, Mode, Query } from './types.ts'

export interface ScaleOptions {
  /** The texts to import, in order; their count is the target size. */
  texts: readonly string[]
  /** The n-gram vector of a text (the same embedder as the other cells). */
  vectorOf(text: string): Float32Array
  queries: Query[]
  /** Each step's cap, ms: the import stops at the first batch past it. */
  capMs: number
  /** Memories per `rememberMany` call. @default 10_000 */
  batch?: number
  /** Per mode, how long recall timing may run (at least 5 queries). */
  recallBudgetMs: number
  /** Close/open cycles timed. @default 2 */
  coldRuns?: number
  tag: string
}

/** What the scale cell measured; a step it did not reach is absent and `stopped` says why. */
export interface ScaleResult {
  target: number
  /** Memories imported (the target, unless the import hit its cap). */
  reached: number
  capMs: number
  import?: { ms: number; perSecond: number }
  /** Worker heap growth after the import, gc'd (JS heap + ArrayBuffers, no WebAssembly). */
  heapBytes?: number
  /** Structured-clone bytes of every record, and Engram's saved index image and catalogue. */
  storedBytes?: number
  snapshotBytes?: number
  /** The origin's usage as `navigator.storage.estimate()` reports it (on-disk, compressed). */
  originUsageBytes?: number
  recall: Partial<Record<Mode, Latency>>
  coldStart?: { ms: number; runs: number; parts?: Record<string, number> }
  /** The step that hit the cap, or failed, and what it had reached. */
  stopped?: string
  /** Measures that failed without stopping the cell, one line each. */
  notes?: string[]
  wallMs: number
}

/** One scale run as the report keeps it (`BenchReport.scale`). */
export interface ScaleRun {
  machine: string
  startedAt: string
  /** `shared` (the MSC/LoCoMo texts, pairs joined past them) or `generated`. */
  corpus: string
  result: ScaleResult
}

const MODES_BY_PRIORITY: readonly Mode[] = ['hybrid', 'keyword', 'vector']

class OverCap extends Error {}

/** `task`, or an {@link OverCap} once `capMs` passed (the task may still be running). */
async function capped<T>(task: Promise<T>, capMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OverCap()), capMs)
  })
  try {
    return await Promise.race([task, cap])
  } finally {
    clearTimeout(timer)
  }
}

export async function runScale(env: SuiteEnv, o: ScaleOptions): Promise<ScaleResult> {
  const started = performance.now()
  const target = o.texts.length
  const batch = o.batch ?? 10_000
  const result: ScaleResult = { target, reached: 0, capMs: o.capMs, recall: {}, wallMs: 0 }
  const log = (line: string) => env.log(`engram @ ${target.toLocaleString('en')}: ${line}`)
  const system = new EngramSystem(env, `scale-${o.tag}`)
  const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`
  /** One step under the cap; false (and `stopped` set) when it failed or passed the cap. */
  const step = async (what: string, task: () => Promise<void>): Promise<boolean> => {
    log(what)
    try {
      await capped(task(), o.capMs)
      return true
    } catch (error) {
      result.stopped =
        error instanceof OverCap
          ? `${what} passed the ${minutes(o.capMs)} cap`
          : `${what} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
      log(`STOPPED ${result.stopped}`)
      return false
    }
  }
  try {
    await env.gc()
    const heapBefore = await env.heapBytes()
    await system.create()
    log('import')
    const t = performance.now()
    for (let start = 0; start < target; start += batch) {
      const docs: Doc[] = o.texts
        .slice(start, start + batch)
        .map((text, i) => ({ id: start + i, text, vector: o.vectorOf(text) }))
      try {
        await system.importAll(docs)
      } catch (error) {
        result.stopped = `import failed at ${result.reached.toLocaleString('en')}: ${String(error)}`
        break
      }
      result.reached += docs.length
      const spent = performance.now() - t
      if (result.reached % 50_000 < batch || result.reached === target) {
        log(`imported ${result.reached.toLocaleString('en')} in ${minutes(spent)}`)
      }
      if (spent > o.capMs && result.reached < target) {
        result.stopped = `import passed the ${minutes(o.capMs)} cap at ${result.reached.toLocaleString('en')} memories`
        log(`STOPPED ${result.stopped}`)
        break
      }
    }
    const ms = performance.now() - t
    if (result.reached === 0) return result
    result.import = { ms, perSecond: (result.reached / ms) * 1000 }
    await env.gc()
    const heapAfter = await env.heapBytes()
    if (heapBefore !== undefined && heapAfter !== undefined) {
      result.heapBytes = heapAfter - heapBefore
    }
    const ok = await runMeasures(env, system, o, result, step)
    if (ok) await step('destroy', () => system.destroy())
  } finally {
    result.wallMs = performance.now() - started
  }
  return result
}

/** Recall, storage and cold start, in that order; false once a step stopped the cell. */
async function runMeasures(
  env: SuiteEnv,
  system: EngramSystem,
  o: ScaleOptions,
  result: ScaleResult,
  step: (what: string, task: () => Promise<void>) => Promise<boolean>,
): Promise<boolean> {
  const { queries } = o
  for (const mode of MODES_BY_PRIORITY) {
    const ran = await step(`recall ${mode}`, async () => {
      for (let i = 0; i < Math.min(5, queries.length); i++) {
        await system.recall(queries[queries.length - 1 - i] as Query, mode)
      }
      const times = await timeEach(
        queries.length,
        (i) => system.recall(queries[i] as Query, mode),
        o.recallBudgetMs,
      )
      result.recall[mode] = latency(times)
    })
    if (!ran) return false
  }
  const stored = await step('storage', async () => {
    const estimate = await globalThis.navigator?.storage?.estimate?.()
    if (estimate?.usage !== undefined) result.originUsageBytes = estimate.usage
    const { storedBytes, snapshotBytes } = await system.storage()
    if (storedBytes !== undefined) result.storedBytes = storedBytes
    if (snapshotBytes !== undefined) result.snapshotBytes = snapshotBytes
  })
  if (!stored) return false
  return step('cold start', async () => {
    const runs: number[] = []
    for (let r = 0; r < (o.coldRuns ?? 2); r++) {
      await system.close()
      await env.gc()
      const t = performance.now()
      await system.open()
      await system.recall(queries[r % queries.length] as Query, 'hybrid')
      runs.push(performance.now() - t)
    }
    result.coldStart = { ms: median(runs), runs: runs.length }
    // The parts read the snapshot's rows raw, so a change of its shape fails them, not the cell.
    const parts = await system.coldStartParts().catch((error: unknown) => {
      result.notes = [...(result.notes ?? []), `cold start parts: ${String(error)}`]
      return undefined
    })
    if (parts) result.coldStart.parts = parts
  })
}
