import { boostFactor, computeBoosts } from '../core/boosts.ts'
import { EmbedderUnavailableError, InvalidInputError } from '../core/errors.ts'
import { explainHit, viaOf } from '../core/explain.ts'
import { fuse, type RankedItem, type RankedList } from '../core/fusion.ts'
import type { LimitOptions, RetrievalOptions } from '../core/options.ts'
import { DEFAULT_NAMESPACE } from '../core/options.ts'
import { matchesPhrases, type ParsedQuery, parseQuery } from '../core/query.ts'
import { tokenize } from '../core/tokenize.ts'
import type {
  Degraded,
  Embedder,
  ListName,
  RecallHit,
  RecallMode,
  RecallOptions,
  TrustLevel,
} from '../core/types.ts'
import { assertOneOf, validateAliases, validateK, validateTags } from '../core/validate.ts'
import type { IndexSet } from './index-set.ts'
import { describe } from './prepare.ts'

const MODES: RecallMode[] = ['hybrid', 'keyword', 'semantic']
const TRUST: TrustLevel[] = ['trusted', 'unverified', 'untrusted']
const LISTS: ListName[] = ['keyword', 'vector', 'alias', 'tag']

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

/** Recall options with defaults applied and types checked. */
export interface CheckedRecallOptions {
  k: number
  mode: RecallMode
  namespace: string
  types?: string[]
  tags?: string[]
  weights: Record<ListName, number>
  explain: boolean
  minTrust?: TrustLevel
  includeFlagged: boolean
  boosts: boolean
  log: boolean
}

export function checkRecallOptions(
  query: unknown,
  options: RecallOptions | undefined,
  retrieval: RetrievalOptions,
  limits: LimitOptions,
): CheckedRecallOptions {
  if (typeof query !== 'string') {
    throw new InvalidInputError('BAD_OPTION', 'query', `expected a string, got ${describe(query)}`)
  }
  if (query.trim() === '')
    throw new InvalidInputError(
      'EMPTY_TEXT',
      'query',
      'expected some text to search for, got an empty query',
    )
  if (query.length > limits.maxQueryLength) {
    throw new InvalidInputError(
      'TEXT_TOO_LONG',
      'query',
      `expected at most ${limits.maxQueryLength} characters, got ${query.length}`,
    )
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new InvalidInputError(
      'BAD_OPTION',
      'options',
      `expected an object, got ${describe(options)}`,
    )
  }
  const o = options ?? {}
  const mode = o.mode ?? 'hybrid'
  assertOneOf(mode, MODES, 'mode')
  if (o.minTrust !== undefined) assertOneOf(o.minTrust, TRUST, 'minTrust')
  const namespace = o.namespace ?? DEFAULT_NAMESPACE
  if (typeof namespace !== 'string' || namespace === '') {
    throw new InvalidInputError(
      'BAD_OPTION',
      'namespace',
      `expected a non-empty string, got ${describe(namespace)}`,
    )
  }
  const weights = { keyword: 1, vector: 1, alias: 1, tag: 1 }
  if (o.weights !== undefined) {
    if (!o.weights || typeof o.weights !== 'object') {
      throw new InvalidInputError(
        'BAD_OPTION',
        'weights',
        `expected an object, got ${describe(o.weights)}`,
      )
    }
    for (const [name, weight] of Object.entries(o.weights)) {
      if (!LISTS.includes(name as ListName)) {
        throw new InvalidInputError(
          'BAD_OPTION',
          `weights.${name}`,
          `expected one of ${LISTS.join(', ')}`,
        )
      }
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
        throw new InvalidInputError(
          'BAD_OPTION',
          `weights.${name}`,
          `expected a finite number ≥ 0, got ${describe(weight)}`,
        )
      }
      weights[name as ListName] = weight
    }
  }
  const checked: CheckedRecallOptions = {
    k: validateK(o.k ?? retrieval.k, limits.maxK),
    mode,
    namespace,
    weights,
    explain: o.explain ?? true,
    includeFlagged: o.includeFlagged ?? true,
    boosts: o.boosts ?? true,
    log: o.log ?? true,
  }
  if (o.types !== undefined) checked.types = validateAliases(o.types, 'types', 64, 256)
  if (o.tags !== undefined)
    checked.tags = validateTags(o.tags, 'tags', limits.maxTags, limits.maxTagLength)
  if (o.minTrust !== undefined) checked.minTrust = o.minTrust
  return checked
}

/** Hits and the lists behind them, before logging. */
export interface RecallOutcome {
  hits: RecallHit[]
  degraded?: Degraded
}

/**
 * The read path of DESIGN §5: keyword, vector, alias and tag lists over the same filter, fused
 * by weighted RRF, boosted, cut to k, each hit explained.
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

  if (o.mode !== 'semantic') {
    const hits = indexes.keyword.search(
      parsed.text,
      retrieval.candidates,
      (id) => accept(id) && phraseOk(id),
    )
    const items: RankedItem[] = hits.map((h) => ({ id: h.id, score: h.score }))
    for (const h of hits) keywordTerms.set(h.id, h.terms)
    if (parsed.phrases.length > 0 && items.length < retrieval.candidates) {
      items.push(
        ...phraseScan(ctx, parsed, accept, retrieval.candidates - items.length, keywordTerms),
      )
    }
    lists.push({ name: 'keyword', items, weight: o.weights.keyword })
    lists.push({
      name: 'alias',
      items: aliasList(ctx, query, parsed, accept),
      weight: o.weights.alias,
    })
    lists.push({
      name: 'tag',
      items: tagList(ctx, query, accept, retrieval.candidates),
      weight: o.weights.tag,
    })
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
        const found = vectors.search(vector, retrieval.candidates, { groups, accept: strict })
        for (const f of found) cosines.set(f.id, f.score)
        lists.push({ name: 'vector', items: found, weight: o.weights.vector })
      } else if (o.mode === 'semantic') {
        throw new EmbedderUnavailableError(
          'the embedding model is not available for semantic recall',
        )
      } else degraded = 'no-embedding'
    } else if (o.mode === 'semantic') {
      throw new EmbedderUnavailableError(
        blocker === 'reembedding'
          ? 'memories are being re-embedded with a new model; semantic recall resumes when that finishes'
          : `no embedding model is available (${blocker})`,
      )
    } else degraded = 'no-embedding'
  }

  const fused = fuse(lists, retrieval.rrfK)
  const scored = fused.flatMap((candidate) => {
    const memory = indexes.catalogue.get(candidate.id)
    if (!memory) return []
    const boosts = o.boosts ? computeBoosts(memory, ctx.now, retrieval.boosts) : []
    return [{ candidate, memory, boosts, score: candidate.fused * boostFactor(boosts) }]
  })
  // Stable: equal scores keep fusion's order, which already breaks ties deterministically.
  scored.sort((a, b) => b.score - a.score)
  const hits = scored.slice(0, o.k).map(({ candidate, memory, boosts, score }, i): RecallHit => {
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
    if (o.explain) {
      hit.explanation = explainHit({
        terms,
        lists: candidate.lists,
        ...(cosine !== undefined ? { cosine } : {}),
        fused: candidate.fused,
        boosts,
        rank: i + 1,
      })
    }
    return hit
  })
  return degraded ? { hits, degraded } : { hits }
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

/** Memories whose alias is the whole query, a quoted phrase, or one of the query's tokens. */
function aliasList(
  ctx: RecallContext,
  query: string,
  parsed: ParsedQuery,
  accept: (id: string) => boolean,
): RankedItem[] {
  const seen = new Set<string>()
  const items: RankedItem[] = []
  for (const candidate of [query, ...parsed.phrases, ...tokenize(query)]) {
    for (const id of ctx.indexes.aliasHits(candidate) ?? []) {
      if (seen.has(id) || !accept(id)) continue
      seen.add(id)
      items.push({ id, score: 1 })
    }
  }
  return items
}

/** Memories carrying a tag the query names, most recently confirmed first. */
function tagList(
  ctx: RecallContext,
  query: string,
  accept: (id: string) => boolean,
  limit: number,
): RankedItem[] {
  const ids = new Set<string>()
  for (const token of tokenize(query)) {
    for (const id of ctx.indexes.tagHits(token) ?? []) if (accept(id)) ids.add(id)
  }
  const { catalogue } = ctx.indexes
  return [...ids]
    .sort((a, b) => (catalogue.get(b)?.confirmedAt ?? 0) - (catalogue.get(a)?.confirmedAt ?? 0))
    .slice(0, limit)
    .map((id) => ({ id, score: 1 }))
}
