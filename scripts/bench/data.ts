/**
 * Docs and queries with their vectors: the corpus of {@link buildCorpus}, embedded by the
 * deterministic n-gram embedder (384 dims, unit length). Search timing does not depend on the
 * weights behind a vector, and the n-gram vectors give queries real neighbours (shared words and
 * word pieces), so recall@10 against the exact scan means something. Query-embedding cost is
 * measured apart (`npm run bench:embed`).
 */
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import { buildCorpus } from './corpus.ts'
import type { Doc, Query } from './types.ts'

export interface BenchData {
  /** The largest size's docs; smaller sizes take a prefix. */
  docs: Doc[]
  /** Fresh memories for the single-write measure, never part of any store's import. */
  probes: Doc[]
  queries: Query[]
  provenance: { msc: number; locomo: number; combined: number }
}

export function prepareData(maxSize: number, queryCount: number, probeCount: number): BenchData {
  const corpus = buildCorpus(maxSize + probeCount, queryCount)
  const embedder = new NgramEmbedder({ dims: 384 })
  const all = corpus.texts.map((text, id) => ({ id, text, vector: embedder.embedOne(text) }))
  return {
    docs: all.slice(0, maxSize),
    probes: all.slice(maxSize),
    queries: corpus.queries.map((text) => ({ text, vector: embedder.embedOne(text) })),
    provenance: corpus.provenance,
  }
}
