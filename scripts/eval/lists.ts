/**
 * Collects, for every question of an {@link EvalSet}, the lists hybrid recall fuses — the
 * keyword list with BM25 scores and matched terms, exact cosines of the query against every
 * memory, the tag list — plus the engine's own top 10 per mode, so fusion functions can be
 * compared offline on identical inputs (scripts/eval/fusion-lab.ts). Lists come from the
 * engine's public recall (`mode: 'keyword'`, `explain` evidence in `hit.lists` / `hit.terms`);
 * cosines are computed here from the same embedder, exactly rather than through the int8 index.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { COSINE_DEPTH, DEFAULT_RETRIEVAL } from '../../src/core/options.ts'
import { parseQuery } from '../../src/core/query.ts'
import { analyze, tokenize } from '../../src/core/tokenize.ts'
import type { Embedder, ListPage, Memory, RecallMode } from '../../src/core/types.ts'
import type { EvalItem, EvalSet } from './datasets.ts'
import { type FusionInputs, fusionInputs, mirrorIndex } from './fusion-inputs.ts'
import { DEPTH } from './metrics.ts'

/** One scored entry of a list. */
export interface Scored {
  id: string
  score: number
}

/** One question with everything fusion sees. Ids are the store's memory ids. */
export interface QueryLists {
  query: string
  kind: string
  relevant: string[]
  /** Unique index terms of the query's free text, under the default analyser. */
  queryTerms: string[]
  /** Quoted phrases in the query. */
  phrases: number
  /** The keyword list as recall builds it (phrase pass applied), best first, with matched terms. */
  keyword: (Scored & { terms: string[] })[]
  /** Every memory's cosine to the query, best first. */
  cosines: Scored[]
  /** Memories carrying a tag the query names, with the name's selectivity (before the cut). */
  tags: Scored[]
  /** The engine's own top 10 ids per mode, and hybrid under `fusion: 'rrf'` (`rrf`). */
  engine: Record<RecallMode | 'rrf', string[]>
  /** The engine's top 10 per mode with `floor: false`: what fusion alone is judged against. */
  engineOff?: Record<RecallMode, string[]>
  /** Recall's own fusion inputs (scripts/eval/fusion-inputs.ts); absent in older caches. */
  fusion?: FusionInputs
}

export interface StoreLists {
  name: string
  /** Memory id → the relevance keys it is credited with. */
  keys: Record<string, string[]>
  /** Memory id → its text, for traces. */
  texts: Record<string, string>
  questions: QueryLists[]
}

export interface CollectedSet {
  name: string
  unit: string
  embedder: string
  apart: string[]
  stores: StoreLists[]
}

let counter = 0

/** Opens one engine per store, fills it, and records every question's lists. */
export async function collectLists(
  set: EvalSet,
  embedder: Embedder,
  log: (line: string) => void = () => {},
): Promise<CollectedSet> {
  // Imported here, so cached lists can be scored while the engine is being edited.
  const { MemoryEngine } = await import('../../src/engine/memory-engine.ts')
  await embedder.load()
  const out: CollectedSet = {
    name: set.name,
    unit: set.format === 'locomo' ? set.unit : 'memories',
    embedder: embedder.model,
    apart: set.apart,
    stores: [],
  }
  for (const store of set.stores) {
    const open = (fusion: 'score' | 'rrf', listDepth?: number) =>
      MemoryEngine.open({
        name: `lists-${++counter}`,
        indexedDB: new IDBFactory(),
        IDBKeyRange,
        // A benchmark measures its own operations: no review in its quiet spells.
        autoReview: false,
        embedder,
        retrieval: { fusion, ...(listDepth ? { listDepth } : {}) },
        ...(listDepth ? { limits: { maxK: listDepth } } : {}),
      })
    const engine = await open('score')
    const rrf = await open('rrf')
    // Semantic recall this deep reads the cosines hybrid's deep read ends at (the bound).
    const deep = await open('score', DEEP)
    try {
      const results = await engine.rememberMany(store.items.map(toItem))
      await rrf.rememberMany(store.items.map(toItem))
      await deep.rememberMany(store.items.map(toItem))
      const keys: Record<string, string[]> = {}
      const texts: Record<string, string> = {}
      const tagsOf = new Map<string, string[]>()
      results.forEach((r, i) => {
        const item = store.items[i]!
        keys[r.id] = [...(keys[r.id] ?? []), ...item.keys]
        if (r.status !== 'duplicate') {
          texts[r.id] = item.text
          tagsOf.set(
            r.id,
            (item.tags ?? []).map((t) => t.toLowerCase()),
          )
        }
      })
      const ids = Object.keys(texts)
      const mirror = mirrorIndex(await storedMemories(engine, ids))
      const vectors = await embedder.embed(
        ids.map((id) => texts[id]!),
        { kind: 'passage' },
      )
      // The two engines give the same texts different ids; map back by text.
      const idOfText = new Map(Object.entries(texts).map(([id, text]) => [text, id]))
      const questions: QueryLists[] = []
      for (const question of store.questions) {
        const parsed = parseQuery(question.query)
        const engineTop = {} as QueryLists['engine']
        let keyword: QueryLists['keyword'] = []
        for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
          const { hits } = await engine.recall(question.query, {
            mode,
            k: mode === 'keyword' ? 100 : DEPTH,
            explain: false,
            log: false,
            boosts: false,
          })
          engineTop[mode] = hits.slice(0, DEPTH).map((h) => h.id)
          if (mode === 'keyword') {
            keyword = hits
              .filter((h) => h.lists.keyword !== undefined)
              .sort((a, b) => a.lists.keyword!.rank - b.lists.keyword!.rank)
              .map((h) => ({ id: h.id, score: h.lists.keyword!.score, terms: h.terms }))
          }
        }
        const rrfHits = await rrf.recall(question.query, {
          mode: 'hybrid',
          k: DEPTH,
          explain: false,
          log: false,
          boosts: false,
        })
        engineTop.rrf = rrfHits.hits.map((h) => idOfText.get(h.text) ?? h.id)
        const [q] = await embedder.embed([parsed.text || question.query], { kind: 'query' })
        const cosines = ids
          .map((id, i) => ({ id, score: dot(q!, vectors[i]!) }))
          .sort((a, b) => b.score - a.score)
        const engineOff = {} as Record<RecallMode, string[]>
        let fusion: FusionInputs | undefined
        for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
          const { hits } = await engine.recall(question.query, {
            mode,
            // Every fused candidate: at most listDepth from each of four lists.
            k: MAX_K,
            explain: false,
            log: false,
            boosts: false,
            floor: false,
          })
          engineOff[mode] = hits.slice(0, DEPTH).map((h) => h.id)
          if (mode === 'hybrid') {
            const read = await deep.recall(question.query, {
              mode: 'semantic',
              k: DEEP,
              explain: false,
              log: false,
              boosts: false,
              floor: false,
              time: false,
            })
            const deepCosines = read.hits
              .map((h) => h.lists.vector?.score ?? Number.NEGATIVE_INFINITY)
              .sort((a, b) => b - a)
            fusion = fusionInputs(question.query, hits, mirror, deepCosines)
          }
        }
        questions.push({
          query: question.query,
          kind: question.kind,
          relevant: question.relevant,
          queryTerms: [...new Set(analyze(parsed.text))],
          phrases: parsed.phrases.length,
          keyword,
          cosines,
          tags: tagList(question.query, tagsOf),
          engine: engineTop,
          engineOff,
          ...(fusion ? { fusion } : {}),
        })
      }
      out.stores.push({ name: store.name, keys, texts, questions })
      log(`${set.name}/${store.name}: ${ids.length} memories, ${questions.length} questions`)
    } finally {
      await engine.close()
      await rrf.close()
      await deep.close()
    }
  }
  return out
}

const MAX_K = 100
const DEEP = COSINE_DEPTH * DEFAULT_RETRIEVAL.listDepth

/** The stored rows of `ids`, in the order they were written (BM25 breaks exact ties by it). */
async function storedMemories(
  engine: { list(o: { limit: number; cursor?: string }): Promise<ListPage> },
  ids: readonly string[],
): Promise<Memory[]> {
  const byId = new Map<string, Memory>()
  let cursor: string | undefined
  do {
    const page = await engine.list({ limit: 1000, ...(cursor ? { cursor } : {}) })
    for (const memory of page.items) byId.set(memory.id, memory)
    cursor = page.cursor
  } while (cursor)
  return ids.flatMap((id) => byId.get(id) ?? [])
}

function toItem(item: EvalItem) {
  if (item.aliases?.length) throw new Error('lists: alias shapes are not collected')
  return {
    text: item.text,
    poison: 'flag' as const,
    source: 'import' as const,
    ...(item.type ? { type: item.type } : {}),
    ...(item.tags ? { tags: item.tags } : {}),
    ...(item.meta ? { meta: item.meta } : {}),
  }
}

/** Recall's tag list before its cut: ln(1 + N/n) / ln(1 + N) for a tag n of N memories carry. */
function tagList(query: string, tagsOf: ReadonlyMap<string, string[]>): Scored[] {
  const size = tagsOf.size
  const scores = new Map<string, number>()
  for (const token of new Set(tokenize(query).map((t) => t.toLowerCase()))) {
    const carriers = [...tagsOf].filter(([, tags]) => tags.includes(token)).map(([id]) => id)
    if (carriers.length === 0) continue
    const specificity = Math.log1p(size / carriers.length) / Math.log1p(size)
    for (const id of carriers) scores.set(id, Math.max(scores.get(id) ?? -1, specificity))
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score)
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}
