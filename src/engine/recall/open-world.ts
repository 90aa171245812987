import { OPEN_WORLD_TEXTS } from '../../core/recall/open-world.ts'
import type { Embedder } from '../../core/types.ts'
import { USE_LITE_MODEL } from '../../embedder/model-table.ts'

/**
 * The models whose small stores are held against the open world: those it was measured on and
 * helped (USE-lite, `npx tsx scripts/eval/small-store-eval.ts`). The n-gram embedder reads
 * characters, not meaning: word salad shares few with the world's sentences, and on the tuning
 * sets the rule let through off-topic queries its expected-maximum bar empties, so it keeps that
 * bar; a model not measured keeps it too. (A flag on the model's calibration would be its home.)
 */
export const OPEN_WORLD_MODELS: ReadonlySet<string> = new Set([USE_LITE_MODEL])

/** The open world's vectors, embedded once per embedder; a failed embed is tried again later. */
const embedded = new WeakMap<Embedder, Promise<readonly Float32Array[]>>()

function worldVectors(embedder: Embedder): Promise<readonly Float32Array[]> {
  let vectors = embedded.get(embedder)
  if (!vectors) {
    vectors = embedder.embed([...OPEN_WORLD_TEXTS], { kind: 'passage' })
    vectors.catch(() => embedded.delete(embedder))
    embedded.set(embedder, vectors)
  }
  return vectors
}

/**
 * The query's best cosine to the open world (`core/recall/open-world.ts`), what the floor holds a
 * small store's best hit against; undefined when the embedder fails, and the floor then falls back
 * to its expected-maximum bar. `query` is the vector the vector list embedded: only the world is
 * embedded here, once per embedder. Vectors are unit length, so cosine is a dot product.
 */
export async function openWorldCosine(
  embedder: Embedder,
  query: Float32Array,
): Promise<number | undefined> {
  let world: readonly Float32Array[]
  try {
    world = await worldVectors(embedder)
  } catch {
    return undefined
  }
  let best = Number.NEGATIVE_INFINITY
  for (const v of world) {
    let dot = 0
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!
    if (dot > best) best = dot
  }
  return Number.isFinite(best) ? best : undefined
}
