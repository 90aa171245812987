import { describe, expect, it } from 'vitest'
import { OPEN_WORLD_TEXTS } from '../../../../src/core/recall/open-world'
import type { EmbedKind } from '../../../../src/core/types'
import { NgramEmbedder } from '../../../../src/embedder/ngram-embedder'
import { openWorldCosine } from '../../../../src/engine/recall/open-world'

/** The n-gram embedder, counting the texts it is asked to embed by kind; `fail` makes it throw. */
class Counting extends NgramEmbedder {
  passages = 0
  queries = 0
  fail = false
  override async embed(texts: string[], options: { kind: EmbedKind }) {
    if (this.fail) throw new Error('model crashed')
    if (options.kind === 'passage') this.passages += texts.length
    else this.queries += texts.length
    return super.embed(texts, options)
  }
}

/** The query's vector as the vector list embeds it, with another embedder than the one counted. */
async function queryVector(text: string): Promise<Float32Array> {
  const [vector] = await new NgramEmbedder().embed([text], { kind: 'query' })
  return vector!
}

describe('openWorldCosine', () => {
  it('returns the query’s best cosine to the open world, which for one of its own lines is 1', async () => {
    const embedder = new Counting()
    const own = await openWorldCosine(embedder, await queryVector(OPEN_WORLD_TEXTS[0]!))
    expect(own).toBeCloseTo(1, 5)
    const other = await openWorldCosine(embedder, await queryVector('my cat Miso eats at six'))
    expect(other).toBeGreaterThan(-1)
    expect(other).toBeLessThan(own!)
  })

  it('embeds the open world once per embedder, and never the query', async () => {
    const embedder = new Counting()
    await openWorldCosine(embedder, await queryVector('first query'))
    await openWorldCosine(embedder, await queryVector('second query'))
    expect(embedder.passages).toBe(OPEN_WORLD_TEXTS.length)
    expect(embedder.queries).toBe(0)
    const another = new Counting()
    await openWorldCosine(another, await queryVector('first query'))
    expect(another.passages).toBe(OPEN_WORLD_TEXTS.length)
  })

  it('says nothing when the embedder fails, and tries the open world again later', async () => {
    const embedder = new Counting()
    const query = await queryVector('a query')
    embedder.fail = true
    expect(await openWorldCosine(embedder, query)).toBeUndefined()
    embedder.fail = false
    expect(await openWorldCosine(embedder, query)).toBeTypeOf('number')
    expect(embedder.passages).toBe(OPEN_WORLD_TEXTS.length)
  })
})
