import { describe, expect, it } from 'vitest'
import { EmbedderUnavailableError } from '../../../../src/core/errors.ts'
import type { RecallMode } from '../../../../src/core/types.ts'
import { analyzeQuery } from '../../../../src/engine/recall/analyze-query.ts'
import { recallScope } from '../../../../src/engine/recall/scope.ts'
import { type VectorBlocker, vectorList } from '../../../../src/engine/recall/vector-list.ts'
import { embedder, indexed, row } from '../fixtures.ts'

const filter = { namespace: 'default', includeFlagged: true }
const FACTS = Array.from({ length: 40 }, (_, i) =>
  row(`m${i}`, `Fact ${i}: the harbor log ${i * 7}`),
)

async function read(mode: RecallMode, blocker: VectorBlocker = null, candidates = 5) {
  const indexes = await indexed(FACTS)
  const q = analyzeQuery('harbor log 21', indexes.keyword)
  const source = { indexes, embedder, vectorBlocker: () => blocker }
  const o = { mode, namespace: 'default', weight: 0.7 }
  return vectorList(source, q, recallScope(indexes, q, filter, 0), o, candidates)
}

describe('vectorList', () => {
  it('returns the top candidates by cosine, best first', async () => {
    const { list, cosines, cosineBound } = await read('semantic')
    expect(list?.items).toHaveLength(5)
    expect(list?.weight).toBe(0.7)
    const scores = list!.items.map((i) => i.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    expect(cosines.size).toBe(5)
    expect(cosineBound).toBeUndefined()
  })

  it('reads deeper in hybrid mode for cosines, and bounds what the read left out', async () => {
    const { list, cosines, cosineBound } = await read('hybrid')
    expect(list?.items).toHaveLength(5)
    expect(cosines.size).toBe(20)
    expect(cosineBound).toBe(Math.min(...cosines.values()))
  })

  it('reports why hybrid recall went on without vectors', async () => {
    for (const blocker of ['no-embedder', 'loading', 'failed', 'reembedding'] as const) {
      const evidence = await read('hybrid', blocker)
      expect(evidence).toEqual({ cosines: new Map(), degraded: blocker })
    }
  })

  it('refuses semantic recall without a usable model, and waits for one that is loading', async () => {
    await expect(read('semantic', 'reembedding')).rejects.toBeInstanceOf(EmbedderUnavailableError)
    await expect(read('semantic', 'no-embedder')).rejects.toThrow(/no embedding model/)
    expect((await read('semantic', 'loading')).list?.items).toHaveLength(5)
  })
})
