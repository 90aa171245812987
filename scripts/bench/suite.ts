/**
 * One store size, every system, one after another on the same docs and queries. Runs alike in
 * Node and in a Chromium worker; the environment supplies IndexedDB, PGlite, gc and heap.
 */
import { VectorIndex } from '../../src/core/vector/index.ts'
import { exactTop10, latency, median, overlap, timeEach } from './measure.ts'
import { EngramSystem } from './systems/engram.ts'
import { EntityDbScanSystem } from './systems/entitydb-scan.ts'
import { MiniSearchSystem } from './systems/minisearch.ts'
import { OramaSystem } from './systems/orama.ts'
import { PGliteSystem } from './systems/pglite.ts'
import type { BenchSystem, Doc, Mode, Query, SystemEnv, SystemResult } from './types.ts'

export const SYSTEM_KEYS = ['engram', 'orama', 'minisearch', 'entitydb-scan', 'pglite'] as const
export type SystemKey = (typeof SYSTEM_KEYS)[number]

export const SYSTEM_LABELS: Record<SystemKey, string> = {
  engram: 'Engram',
  orama: 'Orama 3.1.18 (hybrid)',
  minisearch: 'MiniSearch 7.2 (defaults)',
  'entitydb-scan': 'EntityDB-style scan (re-created)',
  pglite: 'PGlite 0.4.6 + pgvector + FTS',
}

export interface SuiteEnv extends SystemEnv {
  gc(): Promise<void>
  /** Live heap of this runtime in bytes, after `gc()`. */
  heapBytes(): Promise<number | undefined>
  log(line: string): void
}

export interface SuiteOptions {
  systems: readonly SystemKey[]
  docs: Doc[]
  queries: Query[]
  /** Fresh memories written one at a time after the import. */
  probes: Doc[]
  /** Per system and mode: stop timing queries after this long (at least 5 run). @default 8000 */
  recallBudgetMs?: number
  /** Queries compared with the exact scan for recall@10. @default 50 */
  exactQueries?: number
  /** Close/open cycles timed. @default 3 */
  coldRuns?: number
  /** Skip measures a runtime cannot take (e.g. the remember probes). */
  skip?: readonly ('remember' | 'cold' | 'storage' | 'recallAt10')[]
  /** A unique suffix for store names. */
  tag: string
}

export function makeSystem(key: SystemKey, env: SystemEnv, name: string): BenchSystem {
  switch (key) {
    case 'engram':
      return new EngramSystem(env, name)
    case 'orama':
      return new OramaSystem(env, name)
    case 'minisearch':
      return new MiniSearchSystem(env, name)
    case 'entitydb-scan':
      return new EntityDbScanSystem(env, name)
    case 'pglite':
      return new PGliteSystem(env, name)
  }
}

/**
 * Bytes Engram's vector index holds for these vectors, as a reopened memory has it (restored
 * from its snapshot, sized exactly). While a session adds memories, capacity runs up to an
 * eighth ahead of the rows.
 */
export function vectorIndexBytes(docs: Doc[]): number {
  const index = new VectorIndex(docs[0]?.vector.length ?? 384)
  for (const d of docs) index.add(String(d.id), d.vector)
  return VectorIndex.deserialize(index.serialize()).memoryBytes()
}

export async function runSize(env: SuiteEnv, options: SuiteOptions): Promise<SystemResult[]> {
  const { docs, queries, probes } = options
  const size = docs.length
  const budget = options.recallBudgetMs ?? 8000
  const skip = new Set(options.skip ?? [])
  const exactCount = Math.min(options.exactQueries ?? 50, queries.length)
  const vectors = docs.map((d) => d.vector)
  const exact = skip.has('recallAt10')
    ? []
    : queries.slice(0, exactCount).map((q) => exactTop10(q.vector, vectors))
  const results: SystemResult[] = []
  for (const key of options.systems) {
    const system = makeSystem(key, env, `${size}-${options.tag}`)
    const result: SystemResult = { system: key, size, recall: {} }
    results.push(result)
    const started = performance.now()
    const step = (what: string) => env.log(`${key} @ ${size}: ${what}`)
    const describe = (error: unknown) =>
      error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    /** One measure; a failure is noted and the next measure still runs. */
    const attempt = async (what: string, task: () => Promise<void>) => {
      step(what)
      try {
        await task()
      } catch (error) {
        const line = `${what}: ${describe(error)}`
        result.notes = [...(result.notes ?? []), line]
        env.log(`${key} @ ${size}: FAILED ${line}`)
      }
    }
    try {
      await env.gc()
      const heapBefore = await env.heapBytes()
      await system.create()
      step('import')
      const t = performance.now()
      const note = await system.importAll(docs)
      const ms = performance.now() - t
      if (note) {
        const perSecond = (note.timedDocs / note.timedMs) * 1000
        result.import = { ms: (size / perSecond) * 1000, perSecond, partial: note.note }
      } else {
        result.import = { ms, perSecond: (size / ms) * 1000 }
      }
      if (system.warnings?.length) result.notes = [...system.warnings]
      await env.gc()
      const heapAfter = await env.heapBytes()
      if (heapBefore !== undefined && heapAfter !== undefined) {
        result.heapBytes = heapAfter - heapBefore
      }
      if (key === 'engram') result.vectorIndexBytes = vectorIndexBytes(docs)
    } catch (error) {
      result.error = describe(error)
      env.log(`${key} @ ${size}: FAILED ${result.error}`)
      await system.destroy().catch(() => {})
      continue
    }

    for (const mode of system.modes) {
      await attempt(`recall ${mode}`, async () => {
        const warm = Math.min(5, queries.length)
        for (let i = 0; i < warm; i++) {
          await system.recall(queries[queries.length - 1 - i] as Query, mode)
        }
        const times = await timeEach(
          queries.length,
          (i) => system.recall(queries[i] as Query, mode),
          budget,
        )
        result.recall[mode] = latency(times)
      })
    }

    const vectorTop10 = system.vectorTop10?.bind(system)
    if (vectorTop10 && exact.length > 0) {
      await attempt('recall@10', async () => {
        const overlaps: number[] = []
        await timeEach(
          exact.length,
          async (i) => {
            const found = await vectorTop10(queries[i] as Query)
            overlaps.push(overlap(found, exact[i] as number[]))
          },
          budget,
        )
        result.recallAt10 = overlaps.reduce((a, b) => a + b, 0) / overlaps.length
      })
    }

    if (!skip.has('remember') && probes.length > 0) {
      await attempt('remember', async () => {
        const times = await timeEach(
          probes.length,
          (i) => system.remember(probes[i] as Doc),
          budget,
        )
        result.remember = latency(times)
      })
    }

    if (!skip.has('storage')) {
      await attempt('storage', async () => {
        const { storedBytes, snapshotBytes } = await system.storage()
        if (storedBytes !== undefined) result.storedBytes = storedBytes
        if (snapshotBytes !== undefined) result.snapshotBytes = snapshotBytes
      })
    }

    if (!skip.has('cold')) {
      await attempt('cold start', async () => {
        const first = system.modes.includes('hybrid') ? 'hybrid' : (system.modes[0] as Mode)
        const runs: number[] = []
        for (let r = 0; r < (options.coldRuns ?? 3); r++) {
          await system.close()
          await env.gc()
          const t = performance.now()
          await system.open()
          await system.recall(queries[r % queries.length] as Query, first)
          runs.push(performance.now() - t)
        }
        result.coldStart = { ms: median(runs), runs: runs.length }
        if (system.coldStartParts) result.coldStart.parts = await system.coldStartParts()
      })
    }
    await system.destroy().catch(() => {})
    result.wallMs = performance.now() - started
  }
  return results
}
