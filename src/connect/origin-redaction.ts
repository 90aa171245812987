import type { Memory, RecallHit, RememberResult } from '../core/types.ts'
import type { RemoteMemoryApi } from '../host/protocol.ts'
import type { Namespaces } from './origin-namespaces.ts'

/**
 * Which ids one call may show an origin: those of memories in its namespaces. Each id is looked
 * up once per call; memories the call already holds (its hits) need no lookup.
 */
export class VisibleIds {
  readonly #api: RemoteMemoryApi
  readonly #granted: Namespaces
  readonly #known = new Map<string, Promise<boolean>>()

  constructor(api: RemoteMemoryApi, granted: Namespaces, held: Iterable<Memory> = []) {
    this.#api = api
    this.#granted = granted
    for (const memory of held)
      this.#known.set(memory.id, Promise.resolve(granted.has(memory.namespace)))
  }

  has(id: string): Promise<boolean> {
    let known = this.#known.get(id)
    if (!known) {
      known = this.#api
        .get(id)
        .then((memory) => memory !== undefined && this.#granted.has(memory.namespace))
      this.#known.set(id, known)
    }
    return known
  }
}

/**
 * Recall hits as an origin may see them: only those of its namespaces, and explanations that
 * name no memory outside them. An explanation names other memories by the edges of its hit
 * (`; contradicts 01J…`, `rel: 01J… related_to 01J…`), and ids have no fixed shape (an import
 * keeps its own), so the ids to hide are the hit's edge ends the origin cannot see, plus any
 * ULID-shaped word, whatever a later explanation learns to mention.
 */
export async function hitsForOrigin(
  api: RemoteMemoryApi,
  granted: Namespaces,
  hits: readonly RecallHit[],
): Promise<RecallHit[]> {
  const own = hits.filter((hit) => granted.has(hit.memory.namespace))
  const visible = new VisibleIds(
    api,
    granted,
    own.map((hit) => hit.memory),
  )
  const hidden = new Set<string>()
  await Promise.all(
    own
      .filter((hit) => hit.explanation !== '')
      .map(async (hit) => {
        const edges = await api.relations.of(hit.id)
        const named = new Set([
          ...edges.flatMap((edge) => [edge.from, edge.to]),
          ...(hit.explanation.match(ULID_SHAPED) ?? []),
        ])
        for (const id of named) if (!(await visible.has(id))) hidden.add(id)
      }),
  )
  if (hidden.size === 0) return own
  return own.map((hit) => ({ ...hit, explanation: redactExplanation(hit.explanation, hidden) }))
}

/** A write's answer without the neighbours the origin cannot see (`related` names ids). */
export async function resultForOrigin(
  api: RemoteMemoryApi,
  granted: Namespaces,
  result: RememberResult,
): Promise<RememberResult> {
  if (!result.related) return result
  const visible = new VisibleIds(api, granted)
  const kept = await Promise.all(result.related.map((near) => visible.has(near.id)))
  const related = result.related.filter((_, i) => kept[i])
  const { related: _all, ...rest } = result
  return related.length > 0 ? { ...rest, related } : rest
}

const ULID_SHAPED = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g

/**
 * `explanation` without the `hidden` ids: a `contradicts a, b` clause keeps the ids the origin
 * may see (and goes when none is left, so it does not even learn that something disagrees);
 * any other clause naming a hidden id goes whole.
 *
 * @example
 * redactExplanation('matched [tea] (bm25 #1); contradicts A, B', new Set(['B']))
 * // => 'matched [tea] (bm25 #1); contradicts A'
 */
export function redactExplanation(explanation: string, hidden: ReadonlySet<string>): string {
  const clauses = explanation.split(CLAUSE).flatMap((clause) => {
    if (clause.startsWith(CONTRADICTS)) {
      const ids = clause.slice(CONTRADICTS.length).split(', ')
      const shown = ids.filter((id) => !hidden.has(id))
      return shown.length > 0 ? [`${CONTRADICTS}${shown.join(', ')}`] : []
    }
    return [...hidden].some((id) => clause.includes(id)) ? [] : [clause]
  })
  return clauses.join(CLAUSE)
}

const CLAUSE = '; '
const CONTRADICTS = 'contradicts '
