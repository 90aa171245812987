import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CachedEmbedder } from '../../../scripts/eval/embed-cache.ts'
import type { EmbedKind } from '../../../src/core/types.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'

/** The n-gram embedder, counting the texts it is asked to embed. */
class Counting extends NgramEmbedder {
  calls: string[] = []
  override async embed(texts: string[], options: { kind: EmbedKind }) {
    this.calls.push(...texts)
    return super.embed(texts, options)
  }
}

const dir = mkdtempSync(join(tmpdir(), 'engram-embed-cache-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('CachedEmbedder', () => {
  it('embeds each text once and reads it back from disk in a later process', async () => {
    const first = new Counting({ dims: 16 })
    const a = new CachedEmbedder(first, { dir })
    await a.load()
    const v1 = await a.embed(['alpha', 'beta', 'alpha'], { kind: 'passage' })
    expect(first.calls).toEqual(['alpha', 'beta'])
    expect(Array.from(v1[0]!)).toEqual(Array.from(v1[2]!))
    expect(statSync(join(dir, 'engram_ngram-hash.bin')).size).toBe(2 * (20 + 4 * 16))

    const second = new Counting({ dims: 16 })
    const b = new CachedEmbedder(second, { dir })
    await b.load()
    const v2 = await b.embed(['beta', 'alpha'], { kind: 'passage' })
    expect(second.calls).toEqual([])
    expect(Array.from(v2[0]!)).toEqual(Array.from(v1[1]!))
    expect(b.hits).toBe(2)
  })

  it('keys by kind unless queries and passages embed alike', async () => {
    const inner = new Counting({ dims: 16 })
    const byKind = new CachedEmbedder(inner, { dir })
    await byKind.load()
    await byKind.embed(['gamma'], { kind: 'passage' })
    await byKind.embed(['gamma'], { kind: 'query' })
    expect(inner.calls).toEqual(['gamma', 'gamma'])

    const alike = new Counting({ dims: 16 })
    const shared = new CachedEmbedder(alike, { dir: join(dir, 'alike'), sameForQueries: true })
    await shared.load()
    await shared.embed(['delta'], { kind: 'passage' })
    await shared.embed(['delta'], { kind: 'query' })
    expect(alike.calls).toEqual(['delta'])
  })

  it('hands out copies, so a caller changing a vector does not change the cache', async () => {
    const c = new CachedEmbedder(new NgramEmbedder({ dims: 16 }), { dir: join(dir, 'copies') })
    await c.load()
    const [v] = await c.embed(['epsilon'], { kind: 'passage' })
    const before = Array.from(v!)
    v!.fill(0)
    const [again] = await c.embed(['epsilon'], { kind: 'passage' })
    expect(Array.from(again!)).toEqual(before)
  })
})
