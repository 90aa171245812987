import type { Memory, RecallHit, Relation } from '../../core/types.ts'
import type { Ranked } from './rank.ts'

/** Edges touching the memories a recall ranked, read once for the relation stages. */
export type RankedEdges = readonly Relation[]

/**
 * Leaves out every memory another one `supersedes`, unless `includeSuperseded`: the newer word
 * stands. The memory that supersedes need not be among the candidates.
 */
export function hideSuperseded(
  ranked: readonly Ranked[],
  edges: RankedEdges,
  includeSuperseded: boolean,
): Ranked[] {
  if (includeSuperseded) return [...ranked]
  const superseded = new Set(edges.filter((e) => e.kind === 'supersedes').map((e) => e.to))
  if (superseded.size === 0) return [...ranked]
  return ranked.filter((r) => !superseded.has(r.memory.id))
}

/**
 * Names each contradiction in the explanation of the hit at either end (`; contradicts 01J…`),
 * so a reader handed both knows they disagree.
 */
export function noteContradictions(hits: RecallHit[], edges: RankedEdges): RecallHit[] {
  const against = new Map<string, string[]>()
  const add = (id: string, other: string) => against.set(id, [...(against.get(id) ?? []), other])
  for (const e of edges) {
    if (e.kind !== 'contradicts') continue
    add(e.from, e.to)
    add(e.to, e.from)
  }
  if (against.size === 0) return hits
  return hits.map((hit) => {
    const others = against.get(hit.id)
    if (!others || !hit.explanation) return hit
    return { ...hit, explanation: `${hit.explanation}; contradicts ${others.join(', ')}` }
  })
}

/**
 * `expand: 1`: appends, after the hits, at most `k` memories one edge away from them that the
 * scope accepts and that are not hits already (nor superseded, unless asked), via `rel`, ranked
 * after the hits in the order of the hit they hang off. Each is scored at half its hit's score
 * and explained by its edge, e.g. `rel: 01J…A related_to 01J…B (from #1) -> #4`. The cap keeps a
 * well-connected memory from turning one recall into all its neighbours (issue 22 §13: 1,003
 * hits for `k: 3`).
 */
export function expandRelated(
  hits: RecallHit[],
  edges: RankedEdges,
  catalogue: ReadonlyMap<string, Memory>,
  accept: (id: string) => boolean,
  o: { k: number; expand: number; includeSuperseded: boolean; explain: boolean },
): RecallHit[] {
  if (o.expand === 0 || hits.length === 0) return hits
  const superseded = o.includeSuperseded
    ? new Set<string>()
    : new Set(edges.filter((e) => e.kind === 'supersedes').map((e) => e.to))
  const taken = new Set(hits.map((h) => h.id))
  const out = [...hits]
  const most = hits.length + o.k
  for (const hit of hits) {
    for (const e of edges) {
      if (out.length === most) return out
      const other = e.from === hit.id ? e.to : e.to === hit.id ? e.from : undefined
      if (other === undefined || taken.has(other) || superseded.has(other) || !accept(other))
        continue
      const memory = catalogue.get(other)
      if (!memory) continue
      taken.add(other)
      const rank = out.length + 1
      out.push({
        id: other,
        text: memory.text,
        memory,
        rank,
        score: hit.score / 2,
        fused: 0,
        via: 'rel',
        lists: {},
        terms: [],
        boosts: [],
        flagged: memory.flags.length > 0,
        explanation: o.explain
          ? `rel: ${e.from} ${e.kind} ${e.to} (from #${hit.rank}) -> #${rank}`
          : '',
      })
    }
  }
  return out
}
