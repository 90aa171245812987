/**
 * Runs an {@link EvalSet} through Engram: one fresh in-process engine per store (fake-indexeddb,
 * a new IDBFactory each), memories loaded with `rememberMany`, every question recalled in each
 * mode, and the plain BM25 baseline over the same memories when asked for.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { RetrievalOptions } from '../../src/core/options.ts'
import type {
  Embedder,
  EmbedderStats,
  EmbedKind,
  RecallMode,
  RecallOptions,
  RememberItem,
} from '../../src/core/types.ts'
import type { KeywordIndexOptions } from '../../src/engine/index/keyword-index.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'
import { PlainBm25 } from './baseline.ts'
import type { EvalItem, EvalSet } from './datasets.ts'
import { DEPTH, type Metrics, type ModeReport, scoreQuestion, summarize } from './metrics.ts'

export type EvalMode = 'baseline' | RecallMode
export const ALL_MODES: readonly EvalMode[] = ['baseline', 'keyword', 'semantic', 'hybrid']

export interface RunOptions {
  modes: readonly EvalMode[]
  /** Needed for `semantic` and `hybrid`. */
  embedder?: Embedder
  keyword?: Partial<KeywordIndexOptions>
  retrieval?: Partial<RetrievalOptions>
  weights?: RecallOptions['weights']
  /** The relevance floor for every recall (`RecallOptions.floor`). @default the engine's */
  floor?: RecallOptions['floor']
  /** Print the top hits with explanations of every question containing this text. */
  trace?: string
  /** Progress and traces; stderr in the CLI. */
  log?: (line: string) => void
}

export interface EvalReport {
  dataset: string
  unit: string
  embedder: string | null
  /** Questions counted in `overall`. */
  scored: number
  /** Questions left out: no usable evidence (LoCoMo), or no relevant memory. */
  skipped: number
  skippedBy: Record<string, number>
  /** Scored questions reported apart (kind → count), kept out of `overall`. */
  apart: Record<string, number>
  /** Scored questions per kind, `apart` kinds included. */
  kinds: Record<string, number>
  memories: number
  /** Writes that came back as duplicates of an earlier memory, by match. Their keys are credited to it. */
  merged: { exact: number; near: number }
  /** Memories the poison screen stored flagged (`poison: 'flag'`: nothing is rejected). */
  flagged: number
  seconds: { load: number; recall: number }
  modes: Partial<Record<EvalMode, ModeReport>>
  /** Per engine mode, over the questions counted in `overall`: what the relevance floor did. */
  floor: Partial<Record<RecallMode, FloorTally>>
}

/** What the relevance floor did over a mode's questions. */
export interface FloorTally {
  questions: number
  /** Sum of `RecallResult.filtered`: hits the floor took out of a top 10. */
  filtered: number
  /** Questions left with no hit at all. */
  empty: number
  /** Sum of hits returned (at most 10 a question). */
  returned: number
}

/** Memoises query vectors: semantic and hybrid ask for the same question. */
class QueryCache implements Embedder {
  readonly #cache = new Map<string, Float32Array>()
  constructor(readonly inner: Embedder) {}
  get model() {
    return this.inner.model
  }
  get dims() {
    return this.inner.dims
  }
  get state() {
    return this.inner.state
  }
  load() {
    return this.inner.load()
  }
  stats(): EmbedderStats {
    return this.inner.stats()
  }
  async embed(texts: string[], options: { kind: EmbedKind }): Promise<Float32Array[]> {
    if (options.kind !== 'query') return this.inner.embed(texts, options)
    const missing = texts.filter((t) => !this.#cache.has(t))
    if (missing.length > 0) {
      const vectors = await this.inner.embed(missing, options)
      missing.forEach((t, i) => {
        this.#cache.set(t, vectors[i]!)
      })
    }
    return texts.map((t) => this.#cache.get(t)!)
  }
}

function tallyFloor(tally: FloorTally, filtered: number, hits: number): void {
  tally.questions++
  tally.filtered += filtered
  tally.returned += hits
  if (hits === 0) tally.empty++
}

function toRememberItem(item: EvalItem): RememberItem {
  return {
    text: item.text,
    // Keep the default screen but store matches flagged, so no memory is lost to it.
    poison: 'flag',
    source: 'import',
    ...(item.type ? { type: item.type } : {}),
    ...(item.tags ? { tags: item.tags } : {}),
    ...(item.aliases ? { aliases: item.aliases } : {}),
    ...(item.meta ? { meta: item.meta } : {}),
  }
}

let storeCounter = 0

export async function runEvaluation(set: EvalSet, options: RunOptions): Promise<EvalReport> {
  const log = options.log ?? (() => {})
  const engineModes = options.modes.filter((m): m is RecallMode => m !== 'baseline')
  const needsVectors = engineModes.some((m) => m !== 'keyword')
  if (needsVectors && !options.embedder) {
    throw new TypeError('semantic and hybrid modes need an embedder')
  }
  const embedder = options.embedder && needsVectors ? new QueryCache(options.embedder) : undefined
  // Loaded before any store opens, so rememberMany embeds as it writes instead of leaving the
  // vectors to a background backfill that recall would race.
  await embedder?.load()
  const rows = new Map<EvalMode, { kind: string; scores: Metrics }[]>(
    options.modes.map((m) => [m, []]),
  )
  const report: EvalReport = {
    dataset: set.name,
    unit: set.format === 'locomo' ? set.unit : 'memories',
    embedder: embedder ? embedder.model : null,
    scored: 0,
    skipped: Object.values(set.skipped).reduce((a, b) => a + b, 0),
    skippedBy: set.skipped,
    apart: {},
    kinds: {},
    memories: 0,
    merged: { exact: 0, near: 0 },
    flagged: 0,
    seconds: { load: 0, recall: 0 },
    modes: {},
    floor: Object.fromEntries(
      engineModes.map((m) => [m, { questions: 0, filtered: 0, empty: 0, returned: 0 }]),
    ),
  }

  for (const store of set.stores) {
    const loadStart = performance.now()
    const engine = await MemoryEngine.open({
      name: `eval-${++storeCounter}`,
      indexedDB: new IDBFactory(),
      IDBKeyRange,
      // A benchmark measures its own operations: no review in its quiet spells.
      autoReview: false,
      ...(embedder ? { embedder } : {}),
      ...(options.keyword ? { keyword: options.keyword } : {}),
      ...(options.retrieval ? { retrieval: options.retrieval } : {}),
    })
    const keysOf = new Map<string, string[]>()
    let baseline: PlainBm25 | undefined
    try {
      const results = await engine.rememberMany(store.items.map(toRememberItem))
      results.forEach((result, i) => {
        const item = store.items[i]!
        const earlier = keysOf.get(result.id) ?? []
        keysOf.set(result.id, [...earlier, ...item.keys])
        if (result.status === 'duplicate') {
          report.merged[result.match ?? 'exact']++
          const similarity = result.similarity ? ` ${result.similarity.toFixed(3)}` : ''
          log(
            `  merged (${result.match}${similarity}): ${item.keys.join(',')} ` +
              `${JSON.stringify(item.text.slice(0, 60))} into ${earlier.join(',') || 'an existing memory'}; both credited`,
          )
        } else {
          report.memories++
          if (result.flags && result.flags.length > 0) report.flagged++
        }
      })
      if (embedder) {
        const { pendingVectors } = await engine.inspect.stats()
        if (pendingVectors > 0) {
          throw new Error(`${store.name}: ${pendingVectors} memories were stored without vectors`)
        }
      }
      if (options.modes.includes('baseline')) {
        baseline = new PlainBm25()
        for (const [id] of keysOf) baseline.add(id, (await engine.get(id))!.text)
      }
      const loaded = performance.now()
      report.seconds.load += (loaded - loadStart) / 1000

      for (const question of store.questions) {
        const relevant = new Set(question.relevant)
        const apart = set.apart.includes(question.kind)
        report.kinds[question.kind] = (report.kinds[question.kind] ?? 0) + 1
        if (apart) report.apart[question.kind] = (report.apart[question.kind] ?? 0) + 1
        else report.scored++
        const tracing = options.trace !== undefined && question.query.includes(options.trace)
        for (const mode of options.modes) {
          let ids: string[]
          if (mode === 'baseline') ids = baseline!.search(question.query, DEPTH)
          else {
            const result = await engine.recall(question.query, {
              mode,
              k: DEPTH,
              explain: tracing,
              log: false,
              // Recall counters grow as questions run; frequency boosts would make a question's
              // answer depend on the ones before it.
              boosts: false,
              ...(options.weights ? { weights: options.weights } : {}),
              ...(options.floor !== undefined ? { floor: options.floor } : {}),
            })
            ids = result.hits.map((h) => h.id)
            if (!apart) tallyFloor(report.floor[mode]!, result.filtered, ids.length)
            if (tracing) {
              log(`${store.name} [${mode}] ${question.query}  relevant: ${question.relevant}`)
              for (const h of result.hits) {
                const mark = keysOf.get(h.id)!.some((k) => relevant.has(k)) ? '*' : ' '
                log(` ${mark}#${h.rank} ${keysOf.get(h.id)!.join(',')} ${h.text.slice(0, 90)}`)
                log(`      ${h.explanation}`)
              }
            }
          }
          const scores = scoreQuestion(
            ids.map((id) => keysOf.get(id) ?? []),
            relevant,
          )
          rows.get(mode)!.push({ kind: question.kind, scores })
        }
      }
      report.seconds.recall += (performance.now() - loaded) / 1000
    } finally {
      await engine.close()
    }
    log(
      `${set.name}/${store.name}: ${store.items.length} memories, ${store.questions.length} questions`,
    )
  }
  for (const mode of options.modes) {
    report.modes[mode] = summarize(rows.get(mode)!, set.apart)
  }
  return report
}
