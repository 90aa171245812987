/** The shapes relation sync keeps, apart from its steps (`edges.ts`), so the context can name them. */
import type { Relation } from '../core/types.ts'

/** The plaintext of a replicated edge: its ends as document ids, so every device can map them. */
export interface EdgePayload {
  t: 'relation'
  from: string
  to: string
  kind: Relation['kind']
  createdAt: number
  /** Which version this is (see `versions.ts`): an older one served as new is refused. */
  vv?: Record<string, number>
}

/** What sync keeps about edges between steps. */
export interface EdgeState {
  /** Edges live here and in the mirror, by document id, with their local ends. */
  held: Map<string, Relation>
  /** Live edges from the mirror whose ends are not both here yet, retried every step. */
  pending: Map<string, EdgePayload>
  /** Document ids of edges already hashed, by `from \0 to \0 kind` of document ids. */
  ids: Map<string, string>
}
