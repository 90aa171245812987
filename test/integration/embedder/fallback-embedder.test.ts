/**
 * The chain on its own, over real embedders: a transformers.js model that is not on disk (its
 * load fails for real), then the n-gram embedder. Concurrent loads share one walk, each link is
 * built once and only when reached, and the stats say which model answers and why.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmbedderUnavailableError } from '../../../src/core/errors.ts'
import type { Embedder } from '../../../src/core/types.ts'
import { type ChainLink, FallbackEmbedder } from '../../../src/embedder/fallback-embedder.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'

const MISSING = 'engram-test/not-on-disk'
const NGRAM = new NgramEmbedder().model
let empty = ''

beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), 'engram-no-models-'))
})
afterAll(async () => {
  await rm(empty, { recursive: true, force: true })
})

/** The two links, counting how often each is built. */
function chain(): { links: ChainLink[]; built: Record<string, number> } {
  const built: Record<string, number> = { [MISSING]: 0, [NGRAM]: 0 }
  const count =
    <E extends Embedder>(model: string, make: () => E) =>
    () => {
      built[model]!++
      return make()
    }
  return {
    built,
    links: [
      {
        model: MISSING,
        create: count(MISSING, () => new TransformersEmbedder({ model: MISSING, localDir: empty })),
      },
      { model: NGRAM, create: count(NGRAM, () => new NgramEmbedder()) },
    ],
  }
}

describe('FallbackEmbedder', () => {
  it('shares one walk of the chain between concurrent loads and builds each link once', async () => {
    const { links, built } = chain()
    const embedder = new FallbackEmbedder(links)
    expect(embedder).toMatchObject({ model: MISSING, state: 'idle', dims: 0 })
    const first = embedder.load()
    const second = embedder.load()
    expect(second).toBe(first)
    await first
    expect(built).toEqual({ [MISSING]: 1, [NGRAM]: 1 })
    expect(embedder.model).toBe(NGRAM)
    const stats = embedder.stats()
    expect(stats).toMatchObject({ model: NGRAM, state: 'ready', dims: 384 })
    expect(stats.fallback).toMatchObject({ from: MISSING, reason: 'failed' })
    expect(stats.fallback?.error).toContain(MISSING)
    const [vector] = await embedder.embed(['metric units'], { kind: 'query' })
    expect(vector).toHaveLength(embedder.dims)
    await embedder.load()
    expect(built).toEqual({ [MISSING]: 1, [NGRAM]: 1 })
  })

  it('starts past a link known not to answer without building it, keeping the reason', async () => {
    const { links, built } = chain()
    const reason = { from: MISSING, reason: 'unreachable' as const, error: 'HTTP 404' }
    const embedder = new FallbackEmbedder(links, 1, reason)
    expect(embedder.model).toBe(NGRAM)
    const [vector] = await embedder.embed(['loads on first use'], { kind: 'passage' })
    expect(vector).toHaveLength(384)
    expect(built).toEqual({ [MISSING]: 0, [NGRAM]: 1 })
    // The embedder classifies the error text it was given: a 404 is a file not found.
    expect(embedder.stats().fallback).toEqual({ ...reason, failure: { reason: 'not-found' } })
  })

  it('moves on from a link that cannot even be built, and fails with the last link', async () => {
    const broken: ChainLink = {
      model: 'engram-test/broken',
      create: () => {
        throw new Error('module failed to import')
      },
    }
    const alone = new FallbackEmbedder([broken])
    await expect(alone.load()).rejects.toBeInstanceOf(EmbedderUnavailableError)
    expect(alone.stats()).toMatchObject({ state: 'failed', error: 'module failed to import' })
    await expect(alone.embed(['x'], { kind: 'query' })).rejects.toThrow(/failed to load/)

    const chained = new FallbackEmbedder([broken, chain().links[1]!])
    await chained.load()
    expect(chained.stats()).toMatchObject({
      model: NGRAM,
      state: 'ready',
      fallback: { from: 'engram-test/broken', reason: 'failed' },
    })
  })

  it('refuses an empty chain or a start outside it', () => {
    expect(() => new FallbackEmbedder([])).toThrow(RangeError)
    expect(() => new FallbackEmbedder(chain().links, 2)).toThrow(/from 0 to 1, got 2/)
  })
})
