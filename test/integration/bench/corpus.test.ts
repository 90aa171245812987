/**
 * The benchmark corpus: the shared MSC/LoCoMo data when it is beside the repository, else a
 * generated one, so the benchmark (and its smoke test) runs from a fresh clone.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { availableSource, buildCorpus, EVAL_DIR } from '../../../scripts/bench/corpus.ts'
import { dedupKey } from '../../../src/core/text.ts'

describe('the generated benchmark corpus', () => {
  it('has the asked number of texts, all unique after the dedup key', () => {
    const corpus = buildCorpus(2000, 30, 'generated')
    expect(corpus.source).toBe('generated')
    expect(corpus.texts).toHaveLength(2000)
    expect(new Set(corpus.texts.map(dedupKey)).size).toBe(2000)
    expect(corpus.queries).toHaveLength(30)
    expect(corpus.provenance).toEqual({ msc: 0, locomo: 0, combined: 2000 - 672 })
  })

  it('is the same on every run (seeded), and a smaller size is a prefix of a larger one', () => {
    const a = buildCorpus(1000, 20, 'generated')
    const b = buildCorpus(1000, 20, 'generated')
    expect(b).toEqual(a)
    expect(buildCorpus(300, 20, 'generated').texts).toEqual(a.texts.slice(0, 300))
  })

  it('asks questions whose content words occur in the texts', () => {
    const corpus = buildCorpus(672, 40, 'generated')
    const words = new Set(
      corpus.texts
        .join(' ')
        .toLowerCase()
        .match(/[a-z]+/g),
    )
    const question = new Set(['what', 'which', 'where', 'who', 'does', 'did', 'for', 'the'])
    for (const query of corpus.queries) {
      const content = (query.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter(
        (word) => !question.has(word),
      )
      expect(
        content.some((word) => words.has(word)),
        query,
      ).toBe(true)
    }
  })
})

describe('the corpus source', () => {
  it('is the shared data exactly when ../shared/eval holds it, and buildCorpus follows it', () => {
    const shared =
      existsSync(join(EVAL_DIR, 'msc', 'msc_personas_all.json')) &&
      existsSync(join(EVAL_DIR, 'locomo', 'locomo-dev.json'))
    expect(availableSource()).toBe(shared ? 'shared' : 'generated')
    expect(buildCorpus(50, 5).source).toBe(availableSource())
  })

  it('is the generated corpus when ENGRAM_BENCH_CORPUS=generated, data or not', () => {
    const saved = process.env.ENGRAM_BENCH_CORPUS
    process.env.ENGRAM_BENCH_CORPUS = 'generated'
    try {
      expect(availableSource()).toBe('generated')
      expect(buildCorpus(50, 5).texts).toEqual(buildCorpus(50, 5, 'generated').texts)
    } finally {
      if (saved === undefined) delete process.env.ENGRAM_BENCH_CORPUS
      else process.env.ENGRAM_BENCH_CORPUS = saved
    }
  })
})
