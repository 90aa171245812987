import type { PreparedWrite } from './prepare.ts'

/**
 * The vector of each candidate: its own when the caller supplied one, else from `embed` (outside
 * any transaction). A candidate is left without one when no model is ready or embedding failed;
 * the backfill embeds it later.
 */
export async function embedCandidates(
  items: readonly PreparedWrite[],
  candidates: readonly number[],
  embed: (texts: string[]) => Promise<Float32Array[] | undefined>,
): Promise<Map<number, Float32Array>> {
  const vectors = new Map<number, Float32Array>()
  for (const i of candidates) {
    const v = items[i]!.vector
    if (v instanceof Float32Array) vectors.set(i, v)
  }
  const missing = candidates.filter((i) => !vectors.has(i))
  if (missing.length === 0) return vectors
  const embedded = await embed(missing.map((i) => items[i]!.text))
  if (!embedded) return vectors
  for (const [j, i] of missing.entries()) vectors.set(i, embedded[j]!)
  return vectors
}
