/**
 * A chain that falls back while loading answers with another model: the vectors restored for
 * the configured one are dropped and every memory re-embedded, even when both models have the
 * same dims, so no query of the new model meets the old model's vectors.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Embedder } from '../../../src/core/types.ts'
import { FallbackEmbedder } from '../../../src/embedder/fallback-embedder.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'
import { freshIdb, openTestEngine } from '../../helpers/engine.ts'
import { eventually } from '../../helpers/eventually.ts'

const CONFIGURED = 'engram-test/configured-384'
const FALLBACK = 'engram-test/fallback-384'
const FACTS = [
  'The owner prefers metric units for every measurement',
  'Priya is the owner’s sister-in-law',
  'The staging database is restored every night at three',
]

/** An n-gram embedder under another model id: `n` changes its vectors, not its dims. */
function named(model: string, n: number): Embedder {
  const embedder = new NgramEmbedder({ n })
  Object.defineProperty(embedder, 'model', { value: model })
  return embedder
}

let empty = ''
beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), 'engram-no-models-'))
})
afterAll(async () => {
  await rm(empty, { recursive: true, force: true })
})

describe('a model chain that falls back while loading', () => {
  it('re-embeds every memory under the answering model, though its dims are the same', async () => {
    const idb = freshIdb()
    const name = 'fallback-same-dims'
    const first = await openTestEngine({ name, ...idb, embedder: named(CONFIGURED, 3) })
    for (const text of FACTS) await first.remember(text)
    await eventually(async () => (await first.inspect.stats()).pendingVectors === 0, 'all embedded')
    await first.close()

    const chain = new FallbackEmbedder([
      // Named as the configured model, so the engine restores its vectors; its load fails.
      {
        model: CONFIGURED,
        create: () =>
          new TransformersEmbedder({ model: 'engram-test/not-on-disk', localDir: empty }),
      },
      { model: FALLBACK, create: () => named(FALLBACK, 4) },
    ])
    const second = await openTestEngine({ name, ...idb, embedder: chain })
    try {
      await eventually(
        async () => (await second.inspect.stats()).embedder?.state === 'ready',
        'the fallback answers',
      )
      await eventually(
        async () => (await second.inspect.stats()).pendingVectors === 0,
        're-embedded',
      )
      expect((await second.inspect.stats()).embedder?.model).toBe(FALLBACK)
      // The query and the stored vector come from the same model only if it was re-embedded.
      const { hits } = await second.recall(FACTS[0]!, { mode: 'semantic', floor: false, k: 1 })
      expect(hits[0]?.text).toBe(FACTS[0])
      expect(hits[0]?.cosine).toBeCloseTo(1, 3)
    } finally {
      await second.close()
    }
  })
})
