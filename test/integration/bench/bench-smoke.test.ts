/**
 * A 1k smoke run of `npm run bench` in Node: every system imports, answers every mode it has,
 * writes, reports sizes and starts cold. Timings are figures, so nothing here asserts on them;
 * only that each result is well formed. The corpus is the shared MSC/LoCoMo data when it is
 * beside the repository, else the generated one (scripts/bench/corpus.ts), so a fresh clone
 * runs it too (`ENGRAM_BENCH_CORPUS=generated` forces that here).
 */
import { describe, expect, it } from 'vitest'
import { renderMarkdown, renderSvg } from '../../../scripts/bench/report.ts'
import { runBench } from '../../../scripts/bench/run.ts'
import { SYSTEM_KEYS } from '../../../scripts/bench/suite.ts'
import type { Latency } from '../../../scripts/bench/types.ts'

const isLatency = (l: Latency | undefined) =>
  l !== undefined && Number.isFinite(l.p50) && Number.isFinite(l.p99) && l.p50 <= l.p99 && l.n > 0

describe('the benchmark', () => {
  it('produces a well-formed result for every system at 1k memories and 20 queries', async () => {
    const report = await runBench({
      sizes: [1000],
      queries: 20,
      probes: 5,
      runtimes: ['node'],
      recallBudgetMs: 4000,
      write: false,
      log: () => {},
    })
    expect(report.runs).toHaveLength(1)
    const run = report.runs[0]!
    expect(run.runtime).toBe('node')
    for (const system of SYSTEM_KEYS) {
      const found = run.results.find((r) => r.system === system && r.size === 1000)
      expect(found, system).toBeDefined()
      const result = found!
      expect(result.error, system).toBeUndefined()
      expect(result.notes ?? [], system).toEqual([])
      const modes = Object.keys(result.recall)
      expect(modes.length, system).toBeGreaterThan(0)
      for (const mode of modes) {
        expect(
          isLatency(result.recall[mode as keyof typeof result.recall]),
          `${system} ${mode}`,
        ).toBe(true)
      }
      expect(result.import!.ms, system).toBeGreaterThan(0)
      expect(result.import!.perSecond, system).toBeGreaterThan(0)
      expect(isLatency(result.remember), system).toBe(true)
      expect(result.coldStart!.ms, system).toBeGreaterThan(0)
      expect(result.storedBytes, system).toBeGreaterThan(0)
      if (result.recall.vector) {
        expect(result.recallAt10, system).toBeGreaterThanOrEqual(0)
        expect(result.recallAt10, system).toBeLessThanOrEqual(1)
      }
    }
    const engram = run.results.find((r) => r.system === 'engram')!
    expect(engram.vectorIndexBytes).toBeGreaterThan(0)
    expect(engram.snapshotBytes).toBeGreaterThan(0)
    const markdown = renderMarkdown(report)
    expect(markdown).toContain('| 1k | Engram |')
    expect(renderSvg(report)).toMatch(/^<svg[^>]*>[\s\S]*<\/svg>\n$/)
  }, 300_000)
})
