import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureModel } from '../../../scripts/make-models.ts'
import type { Embedder, EmbedderState, EmbedderStats, EmbedKind } from '../../../src/core/types.ts'
import { TINY_TEST_MODEL } from '../../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { EngramDatabase } from '../../../src/storage/index.ts'
import { freshIdb } from '../../helpers/engine.ts'
import { eventually } from '../../helpers/eventually.ts'

const MODELS = fileURLToPath(new URL('../../../.models', import.meta.url))

const tiny = () =>
  new TransformersEmbedder({ model: TINY_TEST_MODEL, localDir: MODELS, allowRemote: false })

const FACTS = [
  'The owner prefers metric units',
  'Deploys go out through scripts/ship.sh',
  'Priya lives in Pune with two cats',
  'The wifi password is on the fridge',
  'Standup moved to 9:30 on Tuesdays',
  'The car is due for a service in March',
]

/**
 * The real embedder behind a gate: `load()` waits until `open()` is called, so a test can
 * write while "the model is still downloading" and then let it finish.
 */
class GatedEmbedder implements Embedder {
  readonly #inner: TransformersEmbedder
  #release!: () => void
  readonly #gate = new Promise<void>((resolve) => {
    this.#release = resolve
  })
  constructor(inner: TransformersEmbedder) {
    this.#inner = inner
  }
  get model() {
    return this.#inner.model
  }
  get dims() {
    return this.#inner.dims
  }
  get state(): EmbedderState {
    return this.#inner.state === 'ready' ? 'ready' : 'loading'
  }
  async load() {
    await this.#gate
    await this.#inner.load()
  }
  embed(texts: string[], options: { kind: EmbedKind }) {
    return this.#inner.embed(texts, options)
  }
  stats(): EmbedderStats {
    return { ...this.#inner.stats(), state: this.state }
  }
  open() {
    this.#release()
  }
}

beforeAll(async () => {
  await ensureModel('tiny', MODELS)
})

describe('MemoryEngine with the real transformers.js pipeline', () => {
  it('remembers and recalls through the generated model', async () => {
    const engine = await MemoryEngine.open({ name: 'real', ...freshIdb(), embedder: tiny() })
    await engine.rememberMany(FACTS.map((text) => ({ text })))
    await eventually(async () => (await engine.inspect.stats()).pendingVectors === 0)
    const result = await engine.recall('metric units', { mode: 'semantic' })
    expect(result.degraded).toBeUndefined()
    expect(result.hits).toHaveLength(5)
    expect(result.hits[0]?.via).toBe('vec')
    expect(result.hits[0]?.cosine).toBeGreaterThan(0)
    const hybrid = await engine.recall('metric units')
    expect(hybrid.hits[0]?.text).toBe(FACTS[0])
    expect(hybrid.hits[0]?.via).toBe('both')
    expect((await engine.inspect.stats()).embedder).toMatchObject({
      model: TINY_TEST_MODEL,
      state: 'ready',
    })
    await engine.close()
  })

  it('stores writes made while the model loads and backfills their vectors', async () => {
    const gated = new GatedEmbedder(tiny())
    const events: string[] = []
    const engine = await MemoryEngine.open({
      name: 'backfill',
      ...freshIdb(),
      embedder: gated,
      onEvent: (e) => events.push(e.type),
    })
    const results = await engine.rememberMany(FACTS.map((text) => ({ text })))
    expect(results.every((r) => r.status === 'created')).toBe(true)
    const before = await engine.inspect.stats()
    expect(before.vectors).toBe(0)
    expect(before.pendingVectors).toBe(FACTS.length)
    const early = await engine.recall('metric units')
    expect(early.degraded).toBe('loading')
    expect(early.hits[0]?.text).toBe(FACTS[0])

    gated.open()
    await eventually(async () => (await engine.inspect.stats()).pendingVectors === 0)
    const after = await engine.inspect.stats()
    expect(after.vectors).toBe(FACTS.length)
    expect(events).toContain('model-ready')
    expect(events).toContain('backfill')
    expect(await engine.inspect.verify()).toMatchObject({ ok: true, vectorEntries: FACTS.length })
    expect((await engine.recall('metric units')).degraded).toBeUndefined()
    await engine.close()
  })

  it('re-embeds every memory when the model changes and never mixes models meanwhile', async () => {
    const idb = freshIdb()
    const first = await MemoryEngine.open({ name: 'swap', ...idb, embedder: new NgramEmbedder() })
    await first.rememberMany(FACTS.map((text) => ({ text })))
    await first.close()

    const gated = new GatedEmbedder(tiny())
    const second = await MemoryEngine.open({ name: 'swap', ...idb, embedder: gated })
    // Old-model vectors exist but are never searched against new-model queries.
    const during = await second.recall('metric units')
    expect(['loading', 'reembedding']).toContain(during.degraded)
    expect(during.hits.every((h) => h.lists.vector === undefined)).toBe(true)
    gated.open()
    await eventually(async () => (await second.inspect.stats()).pendingVectors === 0)
    await eventually(
      async () => (await second.recall('metric', { log: false })).degraded === undefined,
    )
    await second.close()

    const db = new EngramDatabase('swap', idb)
    const rows = await db.vectors.toArray()
    db.close()
    expect(rows).toHaveLength(FACTS.length)
    expect(new Set(rows.map((r) => r.model))).toEqual(new Set([TINY_TEST_MODEL]))
  })

  it('answers keyword-only, labelled degraded, when the model cannot load', async () => {
    const broken = new TransformersEmbedder({
      model: 'engram-test/missing',
      localDir: MODELS,
      allowRemote: false,
    })
    const engine = await MemoryEngine.open({ name: 'broken', ...freshIdb(), embedder: broken })
    await engine.rememberMany(FACTS.map((text) => ({ text })))
    await eventually(async () => (await engine.inspect.stats()).embedder?.state === 'failed')
    const result = await engine.recall('metric units')
    expect(result.degraded).toBe('failed')
    expect(result.hits[0]?.text).toBe(FACTS[0])
    await expect(engine.recall('metric units', { mode: 'semantic' })).rejects.toMatchObject({
      name: 'EmbedderUnavailableError',
    })
    expect((await engine.inspect.verify()).ok).toBe(true)
    await engine.close()
  })
})
