/**
 * Recall's own fusion inputs, recorded per question, and their replay through recall's own
 * `fuseLists` (issue 26 §1): the lab judges a fusion rule on exactly the lists, depths, tie
 * groups, deep cosines, cosine bound and time boosts the engine fuses, so a rule's lab figures
 * are the engine's. The lists are read off one hybrid recall with the floor off and `k` at the
 * limit (every fused candidate comes back with each list's rank and score); BM25's matched stems,
 * which hits show only as written words, come from a keyword index built beside the engine with
 * the same memories and default options, checked against the engine's scores.
 */
import type { ModelCalibration } from '../../src/core/adaptive-fusion.ts'
import type { RankedItem, RankedList } from '../../src/core/fusion.ts'
import { COSINE_DEPTH, DEFAULT_RETRIEVAL } from '../../src/core/options.ts'
import { boostFactor } from '../../src/core/recall/boosts.ts'
import type { ListName, Memory, RecallHit } from '../../src/core/types.ts'
import { KeywordIndex } from '../../src/engine/index/keyword-index.ts'
import { analyzeQuery } from '../../src/engine/recall/analyze-query.ts'
import { type FusionEvidence, fuseLists } from '../../src/engine/recall/fuse.ts'
import { keywordList } from '../../src/engine/recall/keyword-list.ts'

/** One list item as recorded. */
export interface Scored {
  id: string
  score: number
}

/** Everything recall handed `fuseLists` for one question, and what it made of it. */
export interface FusionInputs {
  /** The query's index terms (`AnalyzedQuery.terms`), for the adaptive rule's coverage. */
  terms: string[]
  /**
   * The keyword list, best first, with the stems each BM25 item matched (its tie group); a
   * phrase match BM25 did not find has none.
   */
  keyword: (Scored & { terms?: string[] })[]
  vector: Scored[]
  alias: Scored[]
  tag: Scored[]
  /** Cosines of the fused candidates that the deep vector read returned. */
  cosine: Record<string, number>
  /** The deep read's last cosine, from the engine's own index, when the read was full. */
  bound?: number
  /** Each candidate's time-boost factor (recall ran with `boosts: false`, `time` on). */
  factor: Record<string, number>
  /** The engine's order of every candidate, floor off: what the replay must reproduce. */
  order: string[]
  /** Keyword items whose recorded score differs from the engine's (0 when the mirror agrees). */
  keywordMismatches: number
}

/** A keyword index holding a store's memories as the engine's does, for matched stems. */
export function mirrorIndex(memories: readonly Memory[]): {
  index: KeywordIndex
  catalogue: Map<string, Memory>
} {
  const index = new KeywordIndex()
  const catalogue = new Map<string, Memory>()
  for (const memory of memories) {
    index.put(memory)
    catalogue.set(memory.id, memory)
  }
  return { index, catalogue }
}

const LIST_NAMES: readonly ListName[] = ['keyword', 'vector', 'alias', 'tag']

/**
 * The fusion inputs of `query`, from the hits of a hybrid recall with `floor: false`,
 * `boosts: false` and `k` = every candidate, and the store's mirror index. `deepCosines` are the
 * engine's own top cosines, best first, at least as deep as its deep read (`COSINE_DEPTH` ×
 * `listDepth`), from a semantic recall that deep: the int8 index's cosines, not exact ones.
 */
export function fusionInputs(
  query: string,
  hits: readonly RecallHit[],
  mirror: ReturnType<typeof mirrorIndex>,
  deepCosines: readonly number[],
): FusionInputs {
  const q = analyzeQuery(query, mirror.index)
  const byList = Object.fromEntries(LIST_NAMES.map((n) => [n, [] as (Scored & { rank: number })[]]))
  const cosine: Record<string, number> = {}
  const factor: Record<string, number> = {}
  for (const hit of hits) {
    for (const name of LIST_NAMES) {
      const evidence = hit.lists[name]
      if (evidence) byList[name]!.push({ id: hit.id, score: evidence.score, rank: evidence.rank })
    }
    if (hit.cosine !== undefined) cosine[hit.id] = hit.cosine
    factor[hit.id] = boostFactor(hit.boosts)
  }
  const ordered = (name: ListName) =>
    byList[name]!.sort((a, b) => a.rank - b.rank).map(({ id, score }) => ({ id, score }))
  // The matched stems of every BM25 hit, whatever the scope: a phrase's scope only filters.
  const stems = new Map(
    mirror.index.searchTerms(q.searchTerms, mirror.catalogue.size).map((h) => [h.id, h.terms]),
  )
  const keyword = ordered('keyword').map((item) => {
    const terms = stems.get(item.id)
    // A phrase match BM25 did not find fills the list with no terms, hence no tie group.
    return terms && item.score > 0 ? { ...item, terms } : item
  })
  const out: FusionInputs = {
    terms: [...q.terms],
    keyword,
    vector: ordered('vector'),
    alias: ordered('alias'),
    tag: ordered('tag'),
    cosine,
    factor,
    order: hits.map((h) => h.id),
    keywordMismatches: q.phrases.length > 0 ? 0 : mismatches(q, mirror, keyword),
  }
  const full = DEFAULT_RETRIEVAL.listDepth * COSINE_DEPTH
  if (deepCosines.length >= full) out.bound = deepCosines[full - 1]!
  return out
}

/** Keyword items where the mirror's list (recall's `keywordList` over it) and recall's differ. */
function mismatches(
  q: ReturnType<typeof analyzeQuery>,
  mirror: ReturnType<typeof mirrorIndex>,
  engine: readonly Scored[],
): number {
  const everything = { accept: () => true, strict: () => true }
  const indexes = { keyword: mirror.index, catalogue: mirror.catalogue }
  // Without quoted phrases keywordList reads only these two of the index set.
  const mirrored = keywordList(indexes as never, q, everything, DEFAULT_RETRIEVAL.listDepth, 1)
  let count = Math.abs(engine.length - mirrored.list.items.length)
  mirrored.list.items.forEach((item, i) => {
    const seen = engine[i]
    if (!seen || seen.id !== item.id || Math.abs(seen.score - item.score) > 1e-9 * seen.score) {
      count++
    }
  })
  return count
}

/** A fusion rule the lab can put in recall's place. */
export interface FusionRule {
  fusion?: 'score' | 'rrf'
  rrfK?: number
  /** Per-list weights (recall's `weights`), 1 each by default. */
  weights?: Partial<Record<ListName, number>>
  /** The adaptive rule's knobs; undefined for recall's default. */
  policy?: FusionEvidence['policy']
  /** The model's calibration, or a variant of it (another vector share); undefined: static shares. */
  calibration: Readonly<ModelCalibration> | undefined
}

/**
 * The candidates ranked as recall would rank them under `rule`: `fuseLists` over the recorded
 * lists, times each candidate's time boost, a stable sort (`rankCandidates`).
 */
export function replayFusion(f: FusionInputs, rule: FusionRule): string[] {
  const weight = (name: ListName) => rule.weights?.[name] ?? 1
  const keyword: RankedItem[] = f.keyword.map((h) =>
    h.terms ? { id: h.id, score: h.score, tieGroup: [...h.terms].sort().join(' ') } : h,
  )
  const lists: RankedList[] = [
    { name: 'keyword', items: keyword, weight: weight('keyword') },
    { name: 'vector', items: f.vector, weight: weight('vector') },
    { name: 'alias', items: f.alias, weight: weight('alias') },
    { name: 'tag', items: f.tag, weight: weight('tag') },
  ]
  const vector = {
    list: lists[1]!,
    cosines: new Map(Object.entries(f.cosine)),
    ...(f.bound !== undefined ? { cosineBound: f.bound } : {}),
  }
  const terms = new Map(f.keyword.flatMap((h) => (h.terms ? [[h.id, h.terms]] : [])))
  const { candidates } = fuseLists(
    lists,
    vector,
    { fusion: rule.fusion ?? 'score', rrfK: rule.rrfK ?? DEFAULT_RETRIEVAL.rrfK },
    {
      query: { terms: f.terms },
      terms,
      calibration: rule.calibration,
      ...(rule.policy ? { policy: rule.policy } : {}),
    },
  )
  return candidates
    .map((c) => ({ id: c.id, score: c.fused * (f.factor[c.id] ?? 1) }))
    .sort((a, b) => b.score - a.score)
    .map((c) => c.id)
}
