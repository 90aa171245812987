import { EmbedderUnavailableError } from '../../core/errors.ts'
import type { RankedList } from '../../core/fusion.ts'
import { COSINE_DEPTH } from '../../core/options.ts'
import type { Degraded, Embedder, RecallMode } from '../../core/types.ts'
import type { IndexSet } from '../index/index-set.ts'
import type { AnalyzedQuery } from './analyze-query.ts'
import type { PhraseScope } from './keyword-list.ts'

/** Why the vector list cannot run right now; null when it can. */
export type VectorBlocker = Degraded | null

/** What the vector list needs from the engine. */
export interface VectorSource {
  indexes: IndexSet
  embedder?: Embedder
  vectorBlocker(): VectorBlocker
}

/** The vector list, the cosines behind it, or why there is none. */
export interface VectorEvidence {
  list?: RankedList
  /** Cosine to the query of every memory the vector read returned (deeper than the list). */
  cosines: ReadonlyMap<string, number>
  /** A memory the deep read left out scores at most this (hybrid only, when the read was full). */
  cosineBound?: number
  /**
   * The query's vector, set with `list`: the floor holds a small store against the open world
   * with it, where a second embed of the query cost as much as the first (USE-lite).
   */
  query?: Float32Array
  /** Set when hybrid recall went on without vectors. */
  degraded?: Degraded
}

/**
 * The query embedded, then a flat cosine scan of the scope's namespace and types, top
 * `candidates`. Hybrid reads `COSINE_DEPTH` times deeper, for the cosines of keyword candidates
 * the list leaves out; one scan serves both. Semantic recall waits for a loading model; without a
 * usable one it throws `EmbedderUnavailableError`, where hybrid reports `degraded` instead.
 */
export async function vectorList(
  source: VectorSource,
  q: AnalyzedQuery,
  scope: PhraseScope,
  o: { mode: RecallMode; namespace: string; types?: readonly string[]; weight: number },
  candidates: number,
): Promise<VectorEvidence> {
  const blocker = source.vectorBlocker()
  const semantic = o.mode === 'semantic'
  if (blocker !== null && !(semantic && blocker === 'loading')) {
    if (semantic) throw unavailable(blocker)
    return { cosines: new Map(), degraded: blocker }
  }
  if (blocker === 'loading') await source.embedder!.load().catch(() => {})
  const vector = await embedQuery(source.embedder!, q.embedText)
  const vectors = source.indexes.vectors
  if (!vector || !vectors) {
    if (semantic) {
      throw new EmbedderUnavailableError('the embedding model is not available for semantic recall')
    }
    return { cosines: new Map(), degraded: 'failed' }
  }
  const groups = source.indexes.groupsFor(o.namespace, o.types)
  const hybrid = o.mode === 'hybrid'
  const depth = hybrid ? COSINE_DEPTH * candidates : candidates
  // A quoted query's matches are known already (and few): score them, where a search filtered
  // to them would widen its pool until it had covered them, up to the whole index.
  const found = scope.phraseMatches
    ? vectors.scoreIds(vector, scope.phraseMatches).slice(0, depth)
    : vectors.search(vector, depth, { groups, accept: scope.strict })
  const evidence: VectorEvidence = {
    list: { name: 'vector', items: found.slice(0, candidates), weight: o.weight },
    cosines: new Map(found.map((f) => [f.id, f.score])),
    query: vector,
  }
  if (hybrid && found.length === depth) evidence.cosineBound = found.at(-1)?.score
  return evidence
}

function unavailable(blocker: Degraded): EmbedderUnavailableError {
  return new EmbedderUnavailableError(
    blocker === 'reembedding'
      ? 'memories are being re-embedded with a new model; semantic recall resumes when that finishes'
      : `no embedding model is available (${blocker})`,
  )
}

async function embedQuery(embedder: Embedder, text: string): Promise<Float32Array | undefined> {
  try {
    const [vector] = await embedder.embed([text], { kind: 'query' })
    return vector
  } catch {
    return undefined
  }
}
