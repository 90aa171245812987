import { describe, expect, it } from 'vitest'
import { OPEN_WORLD_TEXTS } from '../../../../src/core/recall/open-world'
import type { EmbedKind } from '../../../../src/core/types'
import { NgramEmbedder } from '../../../../src/embedder/ngram-embedder'
import { openWorldCosine } from '../../../../src/engine/recall/open-world'

/** The n-gram embedder, counting the passages it is asked to embed; `fail` makes it throw. */
class Counting extends NgramEmbedder {
  passages = 0
  fail = false
  override async embed(texts: string[], options: { kind: EmbedKind }) {
    if (this.fail) throw new Error('model crashed')
    if (options.kind === 'passage') this.passages += texts.length
    return super.embed(texts, options)
  }
}

describe('openWorldCosine', () => {
  it('returns the query’s best cosine to the open world, which for one of its own lines is 1', async () => {
    const embedder = new Counting()
    const own = await openWorldCosine(embedder, OPEN_WORLD_TEXTS[0]!)
    expect(own).toBeCloseTo(1, 5)
    const other = await openWorldCosine(embedder, 'my cat Miso eats at six')
    expect(other).toBeGreaterThan(-1)
    expect(other).toBeLessThan(own!)
  })

  it('embeds the open world once per embedder', async () => {
    const embedder = new Counting()
    await openWorldCosine(embedder, 'first query')
    await openWorldCosine(embedder, 'second query')
    expect(embedder.passages).toBe(OPEN_WORLD_TEXTS.length)
    const another = new Counting()
    await openWorldCosine(another, 'first query')
    expect(another.passages).toBe(OPEN_WORLD_TEXTS.length)
  })

  it('says nothing when the embedder fails, and tries the open world again later', async () => {
    const embedder = new Counting()
    embedder.fail = true
    expect(await openWorldCosine(embedder, 'a query')).toBeUndefined()
    embedder.fail = false
    expect(await openWorldCosine(embedder, 'a query')).toBeTypeOf('number')
    expect(embedder.passages).toBe(OPEN_WORLD_TEXTS.length)
  })
})
