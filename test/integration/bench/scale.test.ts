/**
 * The scale cell of `npm run bench` (`--million`), run small in Node over fake-indexeddb: it
 * imports in batches through the real engine, then reports recall, storage and cold start, and
 * its section renders. Timings are figures, so nothing here asserts on them.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { buildCorpus } from '../../../scripts/bench/corpus.ts'
import { runScale } from '../../../scripts/bench/scale.ts'
import { renderScale } from '../../../scripts/bench/scale-report.ts'
import type { SuiteEnv } from '../../../scripts/bench/suite.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'

function env(): SuiteEnv {
  return {
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    openPGlite: () => Promise.reject(new Error('the scale cell runs Engram alone')),
    dropPGlite: async () => {},
    gc: async () => {},
    heapBytes: async () => process.memoryUsage().heapUsed,
    log: () => {},
  }
}

describe('the scale cell', () => {
  it('imports every batch, then measures recall, storage and cold start on what it stored', async () => {
    const corpus = buildCorpus(1200, 10)
    const embedder = new NgramEmbedder({ dims: 384 })
    const result = await runScale(env(), {
      texts: corpus.texts,
      vectorOf: (text) => embedder.embedOne(text),
      queries: corpus.queries.map((text) => ({ text, vector: embedder.embedOne(text) })),
      capMs: 10 * 60_000,
      batch: 500,
      recallBudgetMs: 2000,
      coldRuns: 1,
      tag: 'smoke',
    })
    expect(result.stopped).toBeUndefined()
    expect(result).toMatchObject({ target: 1200, reached: 1200 })
    expect(result.import!.perSecond).toBeGreaterThan(0)
    for (const mode of ['hybrid', 'keyword', 'vector'] as const) {
      const l = result.recall[mode]!
      expect(l.n, mode).toBeGreaterThanOrEqual(5)
      expect(l.p50, mode).toBeLessThanOrEqual(l.p99)
    }
    expect(result.storedBytes).toBeGreaterThan(0)
    expect(result.snapshotBytes).toBeGreaterThan(0)
    expect(result.coldStart?.runs).toBe(1)
    const markdown = renderScale({
      machine: 'test',
      startedAt: '2026-01-01T00:00:00.000Z',
      corpus: 'generated',
      result,
    })
    expect(markdown).toContain('Imported all 1,200 memories')
    expect(markdown).toMatch(
      /\| hybrid recall p50 \/ p99 \(ms\) \| [\d.]+ \/ [\d.]+ \(\d+ q\.\) \|/,
    )
  }, 300_000)
})
