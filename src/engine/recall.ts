import { boostFactor, computeBoosts } from '../core/boosts.ts'
import { EmbedderUnavailableError } from '../core/errors.ts'
import { explainHit, viaOf } from '../core/explain.ts'
import {
  combine,
  type FusedCandidate,
  fuse,
  type RankedItem,
  type RankedList,
} from '../core/fusion.ts'
import type { LimitOptions, RetrievalOptions, SelectOptions } from '../core/options.ts'
import { matchesPhrases, type ParsedQuery, parseQuery } from '../core/query.ts'
import { tokenize } from '../core/tokenize.ts'
import type { Degraded, Embedder, RecallHit, SelectHook, SelectionOutcome } from '../core/types.ts'
import type { IndexSet } from './index-set.ts'
import type { CheckedRecallOptions } from './recall-options.ts'

/** What recall needs from the engine. */
export interface RecallContext {
  indexes: IndexSet
  embedder?: Embedder
  /** Why the vector list cannot run right now, or null when it can. */
  vectorBlocker(): 'no-embedder' | 'loading' | 'failed' | 'reembedding' | null
  retrieval: RetrievalOptions
  limits: LimitOptions
  now: number
}

/** Hits and the lists behind them, before logging. */
export interface RecallOutcome {
  hits: RecallHit[]
  degraded?: Degraded
  /** Present when a `select` hook was given. */
  selection?: SelectionOutcome
}

/**
 * The read path of DESIGN §5: keyword, vector, alias and tag lists over the same filter, fused
 * by weighted RRF, boosted, cut to k, each hit explained; then the optional `select` hook.
 */
export async function runRecall(
  ctx: RecallContext,
  query: string,
  o: CheckedRecallOptions,
): Promise<RecallOutcome> {
  const parsed = parseQuery(query)
  const { indexes, retrieval } = ctx
  const filter = {
    namespace: o.namespace,
    includeFlagged: o.includeFlagged,
    now: ctx.now,
    ...(o.types ? { types: o.types } : {}),
    ...(o.tags ? { tags: o.tags } : {}),
    ...(o.minTrust ? { minTrust: o.minTrust } : {}),
  }
  const accept = indexes.accept(filter)
  const phraseOk = (id: string) =>
    parsed.phrases.length === 0 ||
    matchesPhrases(indexes.catalogue.get(id)?.text ?? '', parsed.phrases)
  const lists: RankedList[] = []
  const keywordTerms = new Map<string, string[]>()
  const cosines = new Map<string, number>()
  let degraded: Degraded | undefined
  // A memory the deep vector read left out scores at most its last cosine.
  let cosineBound: number | undefined

  if (o.mode !== 'semantic') {
    const hits = indexes.keyword.search(
      parsed.text,
      retrieval.candidates,
      (id) => accept(id) && phraseOk(id),
    )
    const items: RankedItem[] = hits.map((h) => ({
      id: h.id,
      score: h.score,
      tieGroup: [...h.terms].sort().join(' '),
    }))
    for (const h of hits) keywordTerms.set(h.id, h.terms)
    phrasePass(ctx, parsed.text, items)
    if (parsed.phrases.length > 0 && items.length < retrieval.candidates) {
      items.push(
        ...phraseScan(ctx, parsed, accept, retrieval.candidates - items.length, keywordTerms),
      )
    }
    lists.push({ name: 'keyword', items, weight: o.weights.keyword })
  }

  if (o.mode !== 'keyword') {
    const blocker = ctx.vectorBlocker()
    if (blocker === null || (o.mode === 'semantic' && blocker === 'loading')) {
      if (blocker === 'loading') await ctx.embedder!.load().catch(() => {})
      const vector = await embedQuery(ctx, parsed.text || query)
      const vectors = indexes.vectors
      if (vector && vectors) {
        const groups = indexes.groupsFor(o.namespace, o.types)
        const strict = (id: string) => accept(id) && phraseOk(id)
        // Hybrid reads deeper than the list it fuses, for the cosines of keyword candidates
        // the list leaves out; one scan serves both.
        const depth =
          o.mode === 'hybrid' ? COSINE_DEPTH * retrieval.candidates : retrieval.candidates
        const found = vectors.search(vector, depth, { groups, accept: strict })
        for (const f of found) cosines.set(f.id, f.score)
        if (found.length === depth && o.mode === 'hybrid') cosineBound = found.at(-1)?.score
        lists.push({
          name: 'vector',
          items: found.slice(0, retrieval.candidates),
          weight: o.weights.vector,
        })
      } else if (o.mode === 'semantic') {
        throw new EmbedderUnavailableError(
          'the embedding model is not available for semantic recall',
        )
      } else degraded = 'failed'
    } else if (o.mode === 'semantic') {
      throw new EmbedderUnavailableError(
        blocker === 'reembedding'
          ? 'memories are being re-embedded with a new model; semantic recall resumes when that finishes'
          : `no embedding model is available (${blocker})`,
      )
    } else degraded = blocker
  }

  if (o.mode !== 'semantic') {
    const found = new Set(lists.flatMap((list) => list.items.map((item) => item.id)))
    const size = indexes.catalogue.size
    const exact = (named: Iterable<ReadonlySet<string> | undefined>) =>
      selective(named, accept, found, retrieval.candidates, size)
    const names = [query, ...parsed.phrases, ...tokenize(query)]
    lists.push({
      name: 'alias',
      items: exact(names.map((name) => indexes.aliasHits(name))),
      weight: o.weights.alias,
    })
    lists.push({
      name: 'tag',
      items: exact(tokenize(query).map((token) => indexes.tagHits(token))),
      weight: o.weights.tag,
    })
  }

  const vectorList = lists.find((list) => list.name === 'vector')
  const { fusion: method, tieEpsilon } = fusionOf(retrieval)
  let fused: FusedCandidate[]
  if (method === 'rrf') {
    fused = fuse(lists, retrieval.rrfK, tieEpsilon !== undefined ? { tieEpsilon } : {})
  } else {
    // BM25 near-ties are left to the vector list; without one, BM25's own order stands.
    const epsilon = vectorList ? tieEpsilon : 0
    fused = combine(lists, {
      outside: { vector: (id) => cosines.get(id) ?? cosineBound },
      ...(epsilon !== undefined ? { tieEpsilon: epsilon } : {}),
    })
  }
  const scored = fused.flatMap((candidate) => {
    const memory = indexes.catalogue.get(candidate.id)
    if (!memory) return []
    const boosts = o.boosts ? computeBoosts(memory, ctx.now, retrieval.boosts) : []
    return [{ candidate, memory, boosts, score: candidate.fused * boostFactor(boosts) }]
  })
  // Stable: equal scores keep fusion's order, which already breaks ties deterministically.
  scored.sort((a, b) => b.score - a.score)
  const shown = o.select ? Math.max(o.k, o.selectOptions.candidates) : o.k
  const hits = scored.slice(0, shown).map(({ candidate, memory, boosts, score }, i): RecallHit => {
    const terms = keywordTerms.get(candidate.id) ?? []
    const cosine = cosines.get(candidate.id)
    const hit: RecallHit = {
      id: memory.id,
      text: memory.text,
      memory,
      rank: i + 1,
      score,
      fused: candidate.fused,
      via: viaOf(candidate.lists),
      lists: candidate.lists,
      terms,
      boosts,
      flagged: memory.flags.length > 0,
      explanation: '',
    }
    if (cosine !== undefined) hit.cosine = cosine
    if (o.explain) hit.explanation = explain(hit, method)
    return hit
  })
  const outcome: RecallOutcome = { hits: hits.slice(0, o.k) }
  if (o.select) {
    const { selection, chosen } = await runSelect(o.select, query, hits, o.selectOptions)
    outcome.selection = selection
    if (chosen) outcome.hits = renumber(chosen.slice(0, o.k), o.explain)
  }
  if (degraded) outcome.degraded = degraded
  return outcome
}

function explain(hit: RecallHit, method: FusionSettings['fusion']): string {
  return explainHit({
    method,
    terms: hit.terms,
    lists: hit.lists,
    ...(hit.cosine !== undefined ? { cosine: hit.cosine } : {}),
    fused: hit.fused,
    boosts: hit.boosts,
    rank: hit.rank,
  })
}

/** Selected hits ranked in the hook's order; the explanation keeps the fused rank too. */
function renumber(chosen: RecallHit[], explained: boolean): RecallHit[] {
  return chosen.map((hit, i) => ({
    ...hit,
    rank: i + 1,
    explanation: explained ? `${hit.explanation}; selected -> #${i + 1}` : '',
  }))
}

/** Hybrid reads this many times `candidates` from the vector index, for cosines only. */
const COSINE_DEPTH = 4

const TIMED_OUT = Symbol('timeout')

/**
 * Shows the hook the top `candidates` hits and keeps the ids it names, in its order: unknown
 * and repeated ids are ignored, at most `keep` are kept. Anything else (a throw, a reply that
 * is not a list of strings, no usable id, no reply within `timeoutMs`) leaves `chosen` unset so
 * the fused ranking stands.
 */
async function runSelect(
  select: SelectHook,
  query: string,
  hits: RecallHit[],
  options: SelectOptions,
): Promise<{ selection: SelectionOutcome; chosen?: RecallHit[] }> {
  const shown = hits.slice(0, options.candidates)
  if (shown.length === 0) return { selection: 'empty' }
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), options.timeoutMs)
  })
  let reply: unknown
  try {
    // A hook that throws synchronously is a failure like one that rejects.
    const answer = Promise.resolve().then(() => select(query, shown.slice()))
    // A late rejection after a timeout must not surface as an unhandled rejection.
    answer.catch(() => {})
    reply = await Promise.race([answer, timeout])
  } catch {
    return { selection: 'failed' }
  } finally {
    clearTimeout(timer)
  }
  if (reply === TIMED_OUT) return { selection: 'timeout' }
  if (!Array.isArray(reply) || reply.some((id) => typeof id !== 'string')) {
    return { selection: 'failed' }
  }
  const byId = new Map(shown.map((hit) => [hit.id, hit]))
  const chosen: RecallHit[] = []
  for (const id of new Set(reply as string[])) {
    const hit = byId.get(id)
    if (hit) chosen.push(hit)
    if (chosen.length === options.keep) break
  }
  return chosen.length > 0 ? { selection: 'applied', chosen } : { selection: 'empty' }
}

/** How recall fuses its lists; read from `RetrievalOptions` when the engine passes them. */
export interface FusionSettings {
  /**
   * `score`: convex combination of normalised scores ({@link combine}); `rrf`: tie-aware
   * weighted reciprocal rank fusion ({@link fuse}). @default 'score'
   */
  fusion: 'score' | 'rrf'
  /**
   * The tie epsilon of every list: shared ranks for `rrf` (`FuseOptions.tieEpsilon`), smoothed
   * near-ties for `score` (`CombineOptions.tieEpsilon`). @default per list (keyword 0.1)
   */
  tieEpsilon?: number
}

export const DEFAULT_FUSION: Readonly<FusionSettings> = Object.freeze({ fusion: 'score' })

function fusionOf(retrieval: RetrievalOptions): FusionSettings {
  const { fusion, tieEpsilon } = retrieval
  return {
    fusion: fusion ?? DEFAULT_FUSION.fusion,
    ...(tieEpsilon !== undefined ? { tieEpsilon } : {}),
  }
}

/**
 * An exact list: memories carrying an alias or tag the query names, each scored by how
 * selective its name is, ln(1 + N/n) / ln(1 + N) for a name n of the store's N memories carry
 * (1 for a name only one memory has; near 0 for one nearly all carry). One that holds more than
 * `limit` memories keeps only those another list found, so it re-ranks candidates rather than
 * pulling in an arbitrary subset.
 */
function selective(
  named: Iterable<ReadonlySet<string> | undefined>,
  accept: (id: string) => boolean,
  found: ReadonlySet<string>,
  limit: number,
  size: number,
): RankedItem[] {
  const scores = new Map<string, number>()
  for (const ids of named) {
    if (!ids || ids.size === 0) continue
    const specificity = Math.log1p(size / ids.size) / Math.log1p(size)
    for (const id of ids) {
      if (accept(id) && specificity > (scores.get(id) ?? -1)) scores.set(id, specificity)
    }
  }
  let items = [...scores].map(([id, score]) => ({ id, score }))
  if (items.length > limit) items = items.filter((item) => found.has(item.id))
  return items.sort((a, b) => b.score - a.score)
}

async function embedQuery(ctx: RecallContext, text: string): Promise<Float32Array | undefined> {
  try {
    const [vector] = await ctx.embedder!.embed([text], { kind: 'query' })
    return vector
  } catch {
    return undefined
  }
}

/** Phrase matches BM25 could not find (a phrase of stop words, say), newest first. */
function phraseScan(
  ctx: RecallContext,
  parsed: ParsedQuery,
  accept: (id: string) => boolean,
  limit: number,
  seen: Map<string, string[]>,
): RankedItem[] {
  const items: RankedItem[] = []
  for (const memory of ctx.indexes.catalogue.values()) {
    if (items.length >= limit) break
    if (seen.has(memory.id) || !accept(memory.id)) continue
    if (matchesPhrases(memory.text, parsed.phrases)) items.push({ id: memory.id, score: 0 })
  }
  return items
}

/**
 * The keyword list's second pass: each hit's BM25 score times `1 + phraseBoost × (the share of
 * the query's adjacent term pairs that also stand side by side in the memory)`, then re-sorted.
 * "support group" then outranks a memory that says "support" here and "group" there.
 */
function phrasePass(ctx: RecallContext, query: string, items: RankedItem[]): void {
  const { keyword, catalogue } = ctx.indexes
  const boost = keyword.phraseBoost
  if (boost <= 0 || items.length < 2) return
  const terms = keyword.analyze(query)
  const pairs = new Set<string>()
  for (let i = 1; i < terms.length; i++) {
    if (terms[i - 1] !== terms[i]) pairs.add(`${terms[i - 1]} ${terms[i]}`)
  }
  if (pairs.size === 0) return
  for (const item of items) {
    const memory = catalogue.get(item.id)
    if (!memory) continue
    const text = keyword.termsOf(memory)
    const matched = new Set<string>()
    for (let i = 1; i < text.length; i++) {
      const pair = `${text[i - 1]} ${text[i]}`
      if (pairs.has(pair)) matched.add(pair)
    }
    item.score *= 1 + (boost * matched.size) / pairs.size
  }
  // Stable: equal scores keep BM25's order.
  items.sort((a, b) => b.score - a.score)
}
