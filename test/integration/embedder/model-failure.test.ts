/**
 * Why a model did not load, classified inside the embedder from real transformers.js failures
 * (the generated tiny model, broken on purpose in a temp folder, or served from 127.0.0.1), and
 * carried to the error, the stats and the engine's `model-failed` event as `reason`.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureModel } from '../../../scripts/make-models.ts'
import { EmbedderUnavailableError } from '../../../src/core/errors.ts'
import type { MemoryEvent } from '../../../src/core/types.ts'
import { FallbackEmbedder } from '../../../src/embedder/fallback-embedder.ts'
import { classifyModelFailure } from '../../../src/embedder/model-failure.ts'
import { TINY_TEST_MODEL } from '../../../src/embedder/model-table.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'
import { closingEngines } from '../../helpers/engine.ts'
import { eventually } from '../../helpers/eventually.ts'

const MODELS = fileURLToPath(new URL('../../../.models', import.meta.url))
const openEngine = closingEngines()

let modelDir = ''
let scratch = ''

beforeAll(async () => {
  modelDir = await ensureModel('tiny', MODELS)
  scratch = await mkdtemp(join(tmpdir(), 'engram-model-failure-'))
})

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

/** A copy of the tiny model under `<scratch>/<name>/`, with `file` overwritten by `body`. */
async function brokenTiny(name: string, file: string, body: string): Promise<string> {
  const root = join(scratch, name)
  await cp(modelDir, join(root, TINY_TEST_MODEL), { recursive: true })
  await writeFile(join(root, TINY_TEST_MODEL, file), body)
  return root
}

function local(localDir: string): TransformersEmbedder {
  return new TransformersEmbedder({ model: TINY_TEST_MODEL, localDir, allowRemote: false })
}

/** Loads `embedder`, expecting it to fail, and returns the error. */
async function failedLoad(embedder: TransformersEmbedder): Promise<EmbedderUnavailableError> {
  const error = await embedder.load().catch((e: unknown) => e)
  expect(error).toBeInstanceOf(EmbedderUnavailableError)
  return error as EmbedderUnavailableError
}

/** Serves nothing but 404s on 127.0.0.1: a self-hosted path the model was never copied to. */
async function emptyHost(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(404).end())
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/models/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

describe('model load failures, classified by the embedder', () => {
  it("says 'offline-only' and names the file when the model is not on disk and downloads are off", async () => {
    const error = await failedLoad(local(join(scratch, 'never-copied')))
    expect(error).toMatchObject({ code: 'EMBEDDER_UNAVAILABLE', reason: 'offline-only' })
    expect(error.file).toBe(join(scratch, 'never-copied', TINY_TEST_MODEL, 'config.json'))
  })

  it("says 'damaged' for a corrupt model.onnx, in the error and in stats()", async () => {
    const root = await brokenTiny('corrupt', 'onnx/model.onnx', 'not an onnx model '.repeat(50))
    const embedder = local(root)
    const error = await failedLoad(embedder)
    expect(error.reason).toBe('damaged')
    expect(embedder.stats()).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/Protobuf parsing failed/),
      failure: { reason: 'damaged' },
    })
  })

  it("says 'damaged' when a web page was served in place of config.json", async () => {
    const root = await brokenTiny('html', 'config.json', '<!doctype html><p>Sign in</p>')
    expect((await failedLoad(local(root))).reason).toBe('damaged')
  })

  it("says 'not-found' with the missing URL when the self-hosted path answers 404", async () => {
    const host = await emptyHost()
    try {
      const embedder = new TransformersEmbedder({ model: TINY_TEST_MODEL, modelBase: host.url })
      const error = await failedLoad(embedder)
      expect(error.reason).toBe('not-found')
      expect(error.file).toMatch(new RegExp(`^${host.url}${TINY_TEST_MODEL}/`))
    } finally {
      await host.close()
    }
  })

  it("says 'unreachable' when nothing listens where the model is served from", async () => {
    const embedder = new TransformersEmbedder({
      model: TINY_TEST_MODEL,
      modelBase: 'http://127.0.0.1:9/models/',
    })
    expect((await failedLoad(embedder)).reason).toBe('unreachable')
  })

  it('keeps the reason when a failed load is retried through embed()', async () => {
    const embedder = local(join(scratch, 'still-missing'))
    await failedLoad(embedder)
    const again = await embedder.embed(['x'], { kind: 'query' }).catch((e: unknown) => e)
    expect(again).toMatchObject({ name: 'EmbedderUnavailableError', reason: 'offline-only' })
  })

  it('gives the fallback the failure of the model it fell back from', async () => {
    const root = await brokenTiny('fallback', 'onnx/model.onnx', 'garbage')
    const chain = new FallbackEmbedder(
      [
        { model: TINY_TEST_MODEL, create: () => local(root) },
        { model: 'engram/ngram-hash', create: () => new NgramEmbedder() },
      ],
      0,
    )
    await chain.load()
    expect(chain.stats().fallback).toMatchObject({
      from: TINY_TEST_MODEL,
      reason: 'failed',
      failure: { reason: 'damaged' },
    })
  })

  it('announces model-failed with the reason and the raw error', async () => {
    const root = await brokenTiny('engine', 'onnx/model.onnx', 'garbage')
    const events: MemoryEvent[] = []
    await openEngine({ embedder: local(root), onEvent: (event) => events.push(event) })
    await eventually(() => events.some((e) => e.type === 'model-failed'), 'model-failed came')
    expect(events.find((e) => e.type === 'model-failed')).toMatchObject({
      type: 'model-failed',
      model: TINY_TEST_MODEL,
      reason: 'damaged',
      error: expect.stringMatching(/Protobuf parsing failed/),
    })
  })
})

describe('classifyModelFailure', () => {
  it('reads the words of a thrown value, its message and its causes', () => {
    const cause = new Error('RangeError: Array buffer allocation failed')
    expect(classifyModelFailure(new Error('could not load m', { cause }))).toEqual({
      reason: 'out-of-memory',
    })
    expect(classifyModelFailure('no available backend found. ERR: [wasm] …')).toEqual({
      reason: 'runtime',
    })
    expect(classifyModelFailure(new TypeError('Failed to fetch'))).toEqual({
      reason: 'unreachable',
    })
    expect(classifyModelFailure(new Error('something else'))).toEqual({ reason: 'unknown' })
  })

  it('keeps a reason an embedder already gave', () => {
    const given = new EmbedderUnavailableError('x', { failure: { reason: 'runtime' } })
    expect(classifyModelFailure(given)).toEqual({ reason: 'runtime' })
  })
})
