/**
 * What a changed page costs: which stored chunks stay (their vectors reused), which are new and
 * which go. Chunks are matched by what they are embedded from, text and heading path, so a chunk
 * that only moved (an edit in an earlier section shifts its offsets) keeps its vector.
 */

import type { PageChunk } from './chunk.ts'

/** A chunk as stored: its memory id and what it was embedded from. */
export interface StoredChunk {
  id: string
  text: string
  headingPath: readonly string[]
}

/** The update of a page's chunks, as {@link planChunkUpdate} works it out. */
export interface ChunkPlan {
  /** New chunks with a stored twin: keep that memory and its vector, update its position. */
  kept: { index: number; id: string }[]
  /** Indexes of new chunks with no stored twin: to be embedded and stored. */
  added: number[]
  /** Ids of stored chunks with no new twin: to be forgotten. */
  removed: string[]
}

/**
 * Pairs the new chunks of a page with its stored ones by text (trimmed) and heading path, equal
 * twins in order. A kept chunk's stored text should still be replaced by the new one, whose
 * trailing blank lines may differ. The page title is not compared: when it changes, every
 * chunk's embedding text does.
 *
 * @example
 * const stored = [{ id: 'a', text: 'One.', headingPath: [] }, { id: 'b', text: 'Two.', headingPath: [] }]
 * planChunkUpdate(stored,
 *   chunkPage('One.\n\n# New\n\nThree.'))
 * // => { kept: [{ index: 0, id: 'a' }], added: [1], removed: ['b'] }
 */
export function planChunkUpdate(
  stored: readonly StoredChunk[],
  next: readonly Pick<PageChunk, 'index' | 'text' | 'headingPath'>[],
): ChunkPlan {
  const waiting = new Map<string, string[]>()
  for (const chunk of stored) {
    const key = chunkKey(chunk)
    const ids = waiting.get(key)
    if (ids) ids.push(chunk.id)
    else waiting.set(key, [chunk.id])
  }
  const plan: ChunkPlan = { kept: [], added: [], removed: [] }
  for (const chunk of next) {
    const id = waiting.get(chunkKey(chunk))?.shift()
    if (id === undefined) plan.added.push(chunk.index)
    else plan.kept.push({ index: chunk.index, id })
  }
  for (const ids of waiting.values()) plan.removed.push(...ids)
  return plan
}

// Trimmed, as embeddingText trims: the blank lines a chunk ends with depend on what follows it.
function chunkKey(chunk: Pick<StoredChunk, 'text' | 'headingPath'>): string {
  return `${chunk.headingPath.join('\u0000')}\u0001${chunk.text.trim()}`
}
