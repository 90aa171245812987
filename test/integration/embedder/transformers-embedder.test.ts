import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { env } from '@huggingface/transformers'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildModel, ensureModel } from '../../../scripts/make-models.ts'
import { EmbedderUnavailableError, InvalidInputError } from '../../../src/core/errors.ts'
import { BGE_QUERY_INSTRUCTION, TINY_TEST_MODEL } from '../../../src/embedder/model-table.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'
import {
  EMBEDDER_DTYPES,
  type ModelProgressEvent,
  type TransformersEmbedderOptions,
} from '../../../src/embedder/transformers-options.ts'
import { dot, maxDiff } from './vector-checks.ts'

const MODELS = fileURLToPath(new URL('../../../.models', import.meta.url))

let modelDir = ''
let scratch = ''

function tiny(options: TransformersEmbedderOptions = {}): TransformersEmbedder {
  return new TransformersEmbedder({
    model: TINY_TEST_MODEL,
    localDir: MODELS,
    allowRemote: false,
    ...options,
  })
}

/** A copy of the tiny model under `<scratch>/<name>/<model id>`, for breaking or renaming. */
async function copyOfTiny(name: string, modelId = TINY_TEST_MODEL): Promise<string> {
  const root = join(scratch, name)
  await cp(modelDir, join(root, modelId), { recursive: true })
  return root
}

/** Serves `.models/` on 127.0.0.1, the way an app serves self-hosted models. */
async function serveModels(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = []
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    requests.push(`${req.method} ${path}`)
    try {
      const body = await readFile(join(MODELS, path))
      res.writeHead(200, { 'content-length': body.length }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

/**
 * Runs `test` against `.models/` served on 127.0.0.1 with a scratch file cache (in Node,
 * transformers.js hands ONNX Runtime a path in that cache, so downloads need one), then puts
 * transformers.js' process-wide settings back.
 */
async function withServedModels(
  cache: string,
  test: (server: Awaited<ReturnType<typeof serveModels>>) => Promise<void>,
): Promise<void> {
  const server = await serveModels()
  const saved = { host: env.remoteHost, path: env.remotePathTemplate, cacheDir: env.cacheDir }
  env.cacheDir = join(scratch, cache)
  try {
    await test(server)
  } finally {
    env.remoteHost = saved.host
    env.remotePathTemplate = saved.path
    env.cacheDir = saved.cacheDir
    await server.close()
  }
}

beforeAll(async () => {
  modelDir = await ensureModel('tiny', MODELS)
  scratch = await mkdtemp(join(tmpdir(), 'engram-embedder-'))
})

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('generated tiny model', () => {
  it('stays small enough to serve to a browser test', async () => {
    const { size } = await stat(join(modelDir, 'onnx', 'model.onnx'))
    expect(size).toBeLessThan(2 * 2 ** 20)
  })

  it('is not rebuilt when it is already up to date', async () => {
    const again = await buildModel('tiny', MODELS)
    expect(again.built).toBe(false)
    expect(again.dir).toBe(modelDir)
  })

  it('is rebuilt byte for byte the same', async () => {
    const copy = await buildModel('tiny', join(scratch, 'rebuilt'))
    const [a, b] = await Promise.all([
      readFile(join(modelDir, 'onnx', 'model.onnx')),
      readFile(join(copy.dir, 'onnx', 'model.onnx')),
    ])
    expect(copy.built).toBe(true)
    expect(Buffer.compare(new Uint8Array(a), new Uint8Array(b))).toBe(0)
  })
})

describe('TransformersEmbedder on the tiny model', () => {
  const embedder = tiny()

  beforeAll(() => embedder.load())
  afterAll(() => embedder.dispose())

  it('returns unit-length vectors as long as config.json hidden_size', async () => {
    const config = JSON.parse(await readFile(join(modelDir, 'config.json'), 'utf8'))
    const vectors = await embedder.embed(['Priya is the owner’s sister-in-law', 'hello'], {
      kind: 'passage',
    })
    expect(embedder.dims).toBe(config.hidden_size)
    expect(vectors).toHaveLength(2)
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array)
      expect(v).toHaveLength(config.hidden_size)
      expect(Math.abs(dot(v, v) - 1)).toBeLessThan(1e-5)
    }
  })

  it('gives a text the same vector alone and padded in a batch with a longer text', async () => {
    const text = 'the deploy script runs at night'
    const longer =
      'a much longer sentence about the weekly team meeting that moved to thursday afternoon because of the holiday'
    const [alone] = await embedder.embed([text], { kind: 'passage' })
    const [, padded] = await embedder.embed([longer, text], { kind: 'passage' })
    expect(maxDiff(alone!, padded!)).toBeLessThan(1e-5)
  })

  it('splits inputs longer than batchSize and keeps their order', async () => {
    const small = tiny({ batchSize: 2 })
    const texts = ['one apple', 'two pears', 'three plums', 'four figs', 'five limes']
    const batched = await small.embed(texts, { kind: 'passage' })
    const whole = await embedder.embed(texts, { kind: 'passage' })
    expect(batched).toHaveLength(5)
    batched.forEach((v, i) => {
      expect(maxDiff(v, whole[i]!)).toBeLessThan(1e-5)
    })
    await small.dispose()
  })

  it('embeds queries and passages alike for a model without an instruction', async () => {
    const [q] = await embedder.embed(['who is priya'], { kind: 'query' })
    const [p] = await embedder.embed(['who is priya'], { kind: 'passage' })
    expect(maxDiff(q!, p!)).toBe(0)
  })

  it('returns an empty list for no texts', async () => {
    expect(await embedder.embed([], { kind: 'passage' })).toEqual([])
  })

  it('puts texts that share words closer than texts that do not, and below near-duplicate', async () => {
    const [a, b, c] = await embedder.embed(
      [
        'my sister likes green tea in the morning',
        'my sister likes black coffee in the morning',
        'the server deploy failed with a database error',
      ],
      { kind: 'passage' },
    )
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!))
    expect(dot(a!, b!)).toBeLessThan(0.97)
  })

  it('reports model, dims, state, device, how it was picked and the load time in stats()', () => {
    expect(embedder.stats()).toEqual({
      model: TINY_TEST_MODEL,
      dims: 64,
      state: 'ready',
      device: 'cpu',
      deviceSource: 'fixed',
      loadMs: expect.any(Number),
    })
  })
})

describe('TransformersEmbedder options', () => {
  it('prepends the query instruction to queries only', async () => {
    const embedder = tiny({ queryInstruction: BGE_QUERY_INSTRUCTION })
    const text = 'where does priya live'
    const [query] = await embedder.embed([text], { kind: 'query' })
    const [passage, instructed] = await embedder.embed([text, BGE_QUERY_INSTRUCTION + text], {
      kind: 'passage',
    })
    expect(maxDiff(query!, passage!)).toBeGreaterThan(1e-3)
    expect(maxDiff(query!, instructed!)).toBeLessThan(1e-5)
    await embedder.dispose()
  })

  it('pools the [CLS] token when asked to, which differs from the mean', async () => {
    const cls = tiny({ pooling: 'cls' })
    const mean = tiny()
    const [a] = await cls.embed(['some text to pool'], { kind: 'passage' })
    const [b] = await mean.embed(['some text to pool'], { kind: 'passage' })
    expect(maxDiff(a!, b!)).toBeGreaterThan(1e-3)
    await Promise.all([cls.dispose(), mean.dispose()])
  })

  it('loads an unknown model with mean pooling and the dims the model reports', async () => {
    const root = await copyOfTiny('unknown', 'someone/unknown-model')
    const unknown = new TransformersEmbedder({
      model: 'someone/unknown-model',
      localDir: root,
      allowRemote: false,
    })
    expect(unknown.dims).toBe(0)
    const [u] = await unknown.embed(['mean pooled text'], { kind: 'query' })
    const known = tiny()
    const [k] = await known.embed(['mean pooled text'], { kind: 'query' })
    expect(unknown.dims).toBe(64)
    expect(maxDiff(u!, k!)).toBeLessThan(1e-6)
    await Promise.all([unknown.dispose(), known.dispose()])
  })

  it('fails to load when the dims option disagrees with the model', async () => {
    const embedder = tiny({ dims: 384 })
    await expect(embedder.load()).rejects.toThrow(EmbedderUnavailableError)
    expect(embedder.stats().error).toMatch(/expected 384-dimensional vectors/)
  })

  it("rejects device 'wasm' in Node with InvalidInputError", () => {
    expect(() => tiny({ device: 'wasm' })).toThrow(InvalidInputError)
    try {
      tiny({ device: 'wasm' })
    } catch (error) {
      expect((error as InvalidInputError).code).toBe('BAD_OPTION')
      expect((error as InvalidInputError).field).toBe('device')
    }
  })

  it('rejects a batchSize that is not a positive integer', () => {
    expect(() => tiny({ batchSize: 0 })).toThrow(InvalidInputError)
    expect(() => tiny({ batchSize: 2.5 })).toThrow(InvalidInputError)
  })

  it('rejects a dtype transformers.js does not know, naming the field', () => {
    try {
      tiny({ dtype: 'fp8' as unknown as 'fp32' })
      expect.unreachable('the constructor should have thrown')
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as InvalidInputError).field).toBe('dtype')
      expect((error as InvalidInputError).message).toMatch(/'fp32', 'fp16', 'q8'/)
    }
  })

  it('accepts every documented dtype', () => {
    for (const dtype of EMBEDDER_DTYPES) expect(tiny({ dtype }).model).toBe(TINY_TEST_MODEL)
  })

  it('loads the file a chosen dtype names and never swaps it for another', async () => {
    const embedder = tiny({ dtype: 'q8' })
    await expect(embedder.load()).rejects.toThrow(EmbedderUnavailableError)
    expect(embedder.stats().error).toMatch(/model_quantized\.onnx/)
  })

  it('rejects a kind other than query or passage', async () => {
    const embedder = tiny()
    await expect(embedder.embed(['x'], { kind: 'document' as unknown as 'query' })).rejects.toThrow(
      InvalidInputError,
    )
  })
})

describe('TransformersEmbedder loading', () => {
  it('shares one load between concurrent load() calls', async () => {
    const events: ModelProgressEvent[] = []
    const embedder = tiny({ onProgress: (e) => events.push(e) })
    expect(embedder.state).toBe('idle')
    const first = embedder.load()
    const second = embedder.load()
    expect(second).toBe(first)
    expect(embedder.state).toBe('loading')
    const third = embedder.embed(['joins the same load'], { kind: 'passage' })
    await Promise.all([first, second, third])
    expect(embedder.state).toBe('ready')
    const initiated = events.filter((e) => e.status === 'initiate').map((e) => e.file)
    expect(initiated.sort()).toEqual([
      'config.json',
      'onnx/model.onnx',
      'tokenizer.json',
      'tokenizer_config.json',
    ])
    await embedder.dispose()
  })

  it('reports each file done with its size for a progress bar', async () => {
    const events: ModelProgressEvent[] = []
    const embedder = tiny({ onProgress: (e) => events.push(e) })
    await embedder.load()
    const { size } = await stat(join(modelDir, 'onnx', 'model.onnx'))
    const done = events.find((e) => e.status === 'done' && e.file === 'onnx/model.onnx')
    expect(done).toEqual({ file: 'onnx/model.onnx', loaded: size, total: size, status: 'done' })
    expect(events.at(-1)?.status).toBe('ready')
    await embedder.dispose()
  })

  it('loads again after dispose()', async () => {
    const embedder = tiny()
    const [before] = await embedder.embed(['same text'], { kind: 'passage' })
    await embedder.dispose()
    expect(embedder.state).toBe('idle')
    const [after] = await embedder.embed(['same text'], { kind: 'passage' })
    expect(maxDiff(before!, after!)).toBe(0)
    await embedder.dispose()
  })

  it('fetches a self-hosted model from modelBase and nothing else', () =>
    withServedModels('hf-cache', async (server) => {
      const embedder = new TransformersEmbedder({ model: TINY_TEST_MODEL, modelBase: server.url })
      const [remote] = await embedder.embed(['served from our own origin'], { kind: 'passage' })
      const local = tiny()
      const [fromDisk] = await local.embed(['served from our own origin'], { kind: 'passage' })
      expect(maxDiff(remote!, fromDisk!)).toBeLessThan(1e-6)
      expect([...new Set(server.requests)].sort()).toEqual(
        ['config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json'].map(
          (f) => `GET /${TINY_TEST_MODEL}/${f}`,
        ),
      )
      await Promise.all([embedder.dispose(), local.dispose()])
    }))

  it('reports download progress per file, so the files add up to their true size', () =>
    withServedModels('hf-cache-progress', async (server) => {
      const events: ModelProgressEvent[] = []
      const embedder = new TransformersEmbedder({
        model: TINY_TEST_MODEL,
        modelBase: server.url,
        onProgress: (e) => events.push(e),
      })
      await embedder.load()
      expect(events.filter((e) => e.file === '' && e.status !== 'ready')).toEqual([])
      expect(events.some((e) => e.status === 'progress_total')).toBe(false)
      const totals = new Map<string, number>()
      for (const e of events) if (e.total > 0) totals.set(e.file, e.total)
      const files = ['config.json', 'onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json']
      expect([...totals.keys()].sort()).toEqual(files)
      let onDisk = 0
      for (const file of files) onDisk += (await stat(join(modelDir, file))).size
      let summed = 0
      for (const total of totals.values()) summed += total
      expect(summed).toBe(onDisk)
      await embedder.dispose()
    }))

  it('never touches the network for a hub model when allowRemote is false', async () => {
    const fetch = vi.fn(env.fetch)
    const original = env.fetch
    env.fetch = fetch
    try {
      const embedder = new TransformersEmbedder({
        model: 'Xenova/bge-small-en-v1.5',
        allowRemote: false,
        onProgress: () => {},
      })
      await expect(embedder.load()).rejects.toThrow(EmbedderUnavailableError)
      expect(fetch).not.toHaveBeenCalled()
    } finally {
      env.fetch = original
    }
  })

  it('fails with EmbedderUnavailableError when the model directory is missing', async () => {
    const embedder = tiny({ localDir: join(scratch, 'does-not-exist') })
    await expect(embedder.load()).rejects.toThrow(EmbedderUnavailableError)
    expect(embedder.state).toBe('failed')
    await expect(embedder.embed(['x'], { kind: 'passage' })).rejects.toThrow(
      EmbedderUnavailableError,
    )
    expect(embedder.stats()).toMatchObject({ state: 'failed', error: expect.any(String) })
  })

  it('fails with EmbedderUnavailableError when model.onnx is corrupt, and retries on load()', async () => {
    const root = await copyOfTiny('corrupt')
    const onnx = join(root, TINY_TEST_MODEL, 'onnx', 'model.onnx')
    await writeFile(onnx, 'this is not an onnx model '.repeat(100))
    const embedder = tiny({ localDir: root })
    await expect(embedder.load()).rejects.toThrow(EmbedderUnavailableError)
    expect(embedder.state).toBe('failed')
    await expect(embedder.embed(['x'], { kind: 'passage' })).rejects.toThrow(
      EmbedderUnavailableError,
    )

    await cp(join(modelDir, 'onnx', 'model.onnx'), onnx)
    await embedder.load()
    expect(embedder.state).toBe('ready')
    expect(embedder.stats().error).toBeUndefined()
    await embedder.dispose()
  })
})
