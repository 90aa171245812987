import { EMBED_CHUNK } from '../../core/options.ts'
import type { Embedder } from '../../core/types.ts'
import { chunkEmbeddingText } from './page-rows.ts'
import type { PlannedRow } from './plan-page.ts'

/**
 * Vectors for the planned rows that need one, by id, embedded outside any transaction from
 * their title, headings and text (`chunkEmbeddingText`). Empty when no model is ready or
 * embedding failed: the rows are stored without vectors and the backfill embeds them.
 */
export async function embedChunks(
  rows: readonly PlannedRow[],
  embedder: Embedder | undefined,
  ready: boolean,
): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>()
  const wanted = rows.filter((r) => r.embed).map((r) => r.row)
  if (!embedder || !ready || wanted.length === 0) return vectors
  try {
    for (let start = 0; start < wanted.length; start += EMBED_CHUNK) {
      const batch = wanted.slice(start, start + EMBED_CHUNK)
      const embedded = await embedder.embed(batch.map(chunkEmbeddingText), { kind: 'passage' })
      for (const [i, row] of batch.entries()) vectors.set(row.id, embedded[i]!)
    }
  } catch {
    // The page still lands; the backfill embeds its chunks when the model works again.
    vectors.clear()
  }
  return vectors
}
