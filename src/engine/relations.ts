import { InvalidInputError, MemoryNotFoundError } from '../core/errors.ts'
import type { Relation, RelationKind } from '../core/types.ts'
import { oneOf, validateId } from '../core/validate.ts'
import { RELATION_KINDS } from '../core/vocabulary.ts'
import type { EngramDatabase } from '../storage/index.ts'

/** A checked `relations.add` / `relations.remove` call. */
export interface CheckedEdge {
  from: string
  to: string
  kind: RelationKind
}

/**
 * Checks an edge's ends and kind: two ids, not the same one, and a kind of `RELATION_KINDS`.
 *
 * @throws InvalidInputError `BAD_ID`, `BAD_OPTION` (`kind`, or `to` equal to `from`).
 */
export function checkEdge(from: unknown, to: unknown, kind: unknown): CheckedEdge {
  validateId(from, 'fromId')
  validateId(to, 'toId')
  const checkedKind = oneOf(kind, RELATION_KINDS, 'kind')
  if (from === to)
    throw new InvalidInputError('BAD_OPTION', 'toId', `expected another memory than ${from}`)
  return { from: from as string, to: to as string, kind: checkedKind }
}

/**
 * Stores an edge, inside the caller's transaction; both ends must exist. Relating twice is a
 * no-op that keeps the first `createdAt`.
 *
 * @throws MemoryNotFoundError for a missing end.
 */
export async function putEdge(
  db: EngramDatabase,
  edge: CheckedEdge,
  now: number,
): Promise<Relation> {
  const [from, to] = await db.memories.bulkGet([edge.from, edge.to])
  if (!from) throw new MemoryNotFoundError(edge.from)
  if (!to) throw new MemoryNotFoundError(edge.to)
  const held = await db.relations.get([edge.from, edge.to, edge.kind])
  if (held) return held
  const row: Relation = { ...edge, createdAt: now }
  await db.relations.put(row)
  return row
}

/** Every edge touching any of `ids`, each once. */
export async function edgesOf(db: EngramDatabase, ids: readonly string[]): Promise<Relation[]> {
  if (ids.length === 0) return []
  const [out, inn] = await Promise.all([
    db.relations.where('from').anyOf(ids).toArray(),
    db.relations.where('to').anyOf(ids).toArray(),
  ])
  const seen = new Map<string, Relation>()
  for (const r of [...out, ...inn]) seen.set(`${r.from}\u0000${r.to}\u0000${r.kind}`, r)
  return [...seen.values()]
}

/** Removes every edge with an end among `ids`, inside the caller's transaction. */
export async function dropEdges(db: EngramDatabase, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  await db.relations.where('from').anyOf(ids).delete()
  await db.relations.where('to').anyOf(ids).delete()
}
