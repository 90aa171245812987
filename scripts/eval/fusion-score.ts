/**
 * What the fusion lab scores: a fusion under test, the lists recall would hand it, and the
 * metrics of its ranking over one lab set. Shared by the lab (fusion-lab.ts), its candidates
 * (fusions.ts), the tuner and the report, so none of them imports another's entry.
 */
import {
  combine,
  type FusedCandidate,
  type RankedItem,
  type RankedList,
} from '../../src/core/fusion.ts'
import { calibrationFor, NGRAM_MODEL, USE_LITE_MODEL } from '../../src/embedder/model-table.ts'
import { replayFusion } from './fusion-inputs.ts'
import type { QueryLists, StoreLists } from './lists.ts'
import { type Metrics, mean, scoreQuestion } from './metrics.ts'

/** A fusion under test: the ranked memory ids (best first) for one question. */
export type Fusion = (q: QueryLists, store: StoreLists, embedder: string) => string[]

const CANDIDATES = 30
const COSINE_DEPTH = 4 * CANDIDATES

/**
 * The lists rebuilt from an older cache's exact cosines and keyword-mode hits: near recall's, not
 * equal (exact rather than int8 cosines, the keyword list as the floor left it, written words for
 * stems). Caches with `QueryLists.fusion` replay recall's own inputs instead (`fusion-inputs.ts`).
 */
export function recallLists(q: QueryLists): {
  keyword: RankedItem[]
  vector: RankedItem[]
  tag: RankedItem[]
  cosine: (id: string) => number | undefined
} {
  const keyword = q.keyword.map((h) => ({
    id: h.id,
    score: h.score,
    tieGroup: [...h.terms].sort().join(' '),
  }))
  const vector = q.cosines.slice(0, CANDIDATES)
  const found = new Set([...keyword, ...vector].map((i) => i.id))
  const tag = q.tags.length > CANDIDATES ? q.tags.filter((t) => found.has(t.id)) : q.tags
  const deep = new Map(q.cosines.slice(0, COSINE_DEPTH).map((c) => [c.id, c.score]))
  const bound = q.cosines.length >= COSINE_DEPTH ? q.cosines[COSINE_DEPTH - 1]!.score : undefined
  return { keyword, vector, tag, cosine: (id) => deep.get(id) ?? bound }
}

const ids = (fused: FusedCandidate[]) => fused.map((c) => c.id)

export const BASE_FUSIONS: Record<string, Fusion> = {
  'engine keyword': (q) => q.engine.keyword,
  'engine semantic': (q) => q.engine.semantic,
  'engine hybrid': (q) => q.engine.hybrid,
  'engine hybrid, floor off': (q) => q.engineOff?.hybrid ?? [],
  // Recall's own inputs through recall's own fuseLists (fusion-inputs.ts): equals the line above.
  'engine replay': (q, _store, embedder) =>
    q.fusion
      ? replayFusion(q.fusion, {
          calibration: calibrationFor(embedder === 'use' ? USE_LITE_MODEL : NGRAM_MODEL),
        })
      : [],
  'offline default': (q) => {
    const l = recallLists(q)
    const lists: RankedList[] = [
      { name: 'keyword', items: l.keyword },
      { name: 'vector', items: l.vector },
      { name: 'tag', items: l.tag },
    ]
    return ids(combine(lists, { outside: { vector: l.cosine } }))
  },
}

export interface SetScore {
  set: string
  role: string
  n: number
  overall: Metrics
  byKind: Record<string, { n: number; metrics: Metrics }>
}

export function scoreFusion(
  fusion: Fusion,
  collected: { stores: StoreLists[]; apart: string[] },
  embedder: string,
): {
  overall: Metrics
  n: number
  byKind: Record<string, { n: number; metrics: Metrics }>
  perQuery: Metrics[]
} {
  const rows: { kind: string; m: Metrics }[] = []
  for (const store of collected.stores) {
    for (const q of store.questions) {
      const ranked = fusion(q, store, embedder).slice(0, 10)
      rows.push({
        kind: q.kind,
        m: scoreQuestion(
          ranked.map((id) => store.keys[id] ?? []),
          new Set(q.relevant),
        ),
      })
    }
  }
  const counted = rows.filter((r) => !collected.apart.includes(r.kind))
  const kinds = [...new Set(rows.map((r) => r.kind))].sort()
  return {
    overall: mean(counted.map((r) => r.m)),
    n: counted.length,
    byKind: Object.fromEntries(
      kinds.map((k) => {
        const ms = rows.filter((r) => r.kind === k).map((r) => r.m)
        return [k, { n: ms.length, metrics: mean(ms) }]
      }),
    ),
    perQuery: counted.map((r) => r.m),
  }
}
