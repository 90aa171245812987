import { describe, expect, it } from 'vitest'
import {
  cannotWin,
  DEFAULT_TRIAL_RULE,
  median,
  runDeviceTrial,
  type TrialCandidate,
  trialBudgetMs,
} from '../../../src/embedder/device-trial.ts'
import { NgramEmbedder } from '../../../src/embedder/ngram-embedder.ts'
import { DEVICE_TRIAL_FLOOR_MS } from '../../../src/embedder/transformers-options.ts'
import { uniform } from '../../helpers/random.ts'

/** Seeded sentences, so every run times the same work. */
function sentences(count: number): string[] {
  const next = uniform(7)
  const words = ['tea', 'deploy', 'Lisbon', 'report', 'cat', 'meeting', 'script', 'March']
  return Array.from({ length: count }, () =>
    Array.from({ length: 12 }, () => words[Math.floor(next() * words.length)]).join(' '),
  )
}

/**
 * The trial's clock, moved by the backends' work instead of read from the wall: on a loaded
 * machine a 10-sentence run once took 81 ms of wall time and outlasted the budget it set.
 */
function workClock() {
  const clock = { now: 0, read: () => clock.now }
  return clock
}

/**
 * A real, CPU-bound backend: the n-gram embedder over `count` sentences a run, each run counted
 * as `count` ms on `clock` once it is done.
 */
function ngramBackend(
  device: string,
  count: number,
  clock = workClock(),
): TrialCandidate<NgramEmbedder> & { released: number } {
  const texts = sentences(count)
  const candidate = {
    device,
    released: 0,
    open: async () => new NgramEmbedder({ dims: 256 }),
    run: async (e: NgramEmbedder) => {
      const vectors = await e.embed(texts, { kind: 'passage' })
      clock.now += count
      return vectors
    },
    dispose: async () => {
      candidate.released++
    },
  }
  return candidate
}

describe('the cap rule', () => {
  it('gives a challenger four times the baseline’s warm-up and runs, and never less than the floor', () => {
    expect(trialBudgetMs(100, DEFAULT_TRIAL_RULE)).toBe(DEVICE_TRIAL_FLOOR_MS)
    expect(trialBudgetMs(2000, DEFAULT_TRIAL_RULE)).toBe(8000)
    expect(trialBudgetMs(2000, { runs: 3, factor: 2, floorMs: 0 })).toBe(4000)
  })

  it('bounds the software-adapter case of issue 11 at the floor instead of 55 s', () => {
    // Measured in Chromium with SwiftShader: WASM's whole trial 0.5 s, WebGPU's 55 s.
    const wasmTrialMs = 500
    const webgpuTrialMs = 55_000
    const budget = trialBudgetMs(wasmTrialMs, DEFAULT_TRIAL_RULE)
    expect(budget).toBe(3000)
    expect(wasmTrialMs + budget).toBeLessThan(webgpuTrialMs / 10)
  })

  it('rules a challenger out once two of three runs are no faster than the baseline median', () => {
    expect(cannotWin([12], 10, 3)).toBe(false)
    expect(cannotWin([12, 9], 10, 3)).toBe(false)
    expect(cannotWin([12, 10], 10, 3)).toBe(true) // a tie goes to the baseline
    expect(cannotWin([9, 9, 30], 10, 3)).toBe(false)
    expect(cannotWin([30, 30], 10, 5)).toBe(false)
    expect(cannotWin([30, 30, 30], 10, 5)).toBe(true)
  })

  it('takes the middle value as the median, the upper one of an even count', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(3)
    expect(median([])).toBeNaN()
  })
})

describe('runDeviceTrial over real CPU work', () => {
  it('keeps the faster backend and releases the other', async () => {
    const clock = workClock()
    const slow = ngramBackend('slow', 400, clock)
    const fast = ngramBackend('fast', 10, clock)
    const rule = { runs: 3, factor: 4, floorMs: 60_000 }
    const outcome = await runDeviceTrial([slow, fast], rule, clock.read)
    expect(outcome.winner?.device).toBe('fast')
    expect(slow.released).toBe(1)
    expect(fast.released).toBe(0)
    expect(outcome.stats.entries.map((e) => e.runsMs)).toEqual([
      [400, 400, 400],
      [10, 10, 10],
    ])
    // Warm-up and three runs each.
    expect(outcome.stats.totalMs).toBe(4 * 400 + 4 * 10)
  })

  it('cuts a much slower challenger after it overruns a budget measured from the baseline', async () => {
    const clock = workClock()
    const fast = ngramBackend('fast', 10, clock)
    const slow = ngramBackend('slow', 4000, clock)
    const outcome = await runDeviceTrial(
      [fast, slow],
      { runs: 3, factor: 2, floorMs: 0 },
      clock.read,
    )
    expect(outcome.winner?.device).toBe('fast')
    const entry = outcome.stats.entries[1]
    // Its warm-up blocks the thread past the budget: it is cut when it hands the thread back.
    expect(entry?.cut).toBe('budget')
    expect(entry?.runsMs).toEqual([])
    expect(entry?.medianMs).toBeUndefined()
    // Twice the baseline's warm-up and three runs.
    expect(outcome.stats.budgetMs).toBe(2 * 4 * 10)
  })

  it('reports a candidate that throws, and chooses among the rest', async () => {
    const failing: TrialCandidate<never> = {
      device: 'failing',
      open: () => Promise.reject(new Error('no adapter')),
      run: async () => {},
      dispose: async () => {},
    }
    const working = ngramBackend('working', 10)
    const outcome = await runDeviceTrial<unknown>([failing, working])
    expect(outcome.winner?.device).toBe('working')
    expect(outcome.stats.entries[0]).toEqual({ device: 'failing', runsMs: [], error: 'no adapter' })
  })

  it('has no winner when every candidate fails', async () => {
    const failing = ngramBackend('a', 1)
    failing.run = () => Promise.reject(new Error('lost the device'))
    const outcome = await runDeviceTrial([failing])
    expect(outcome.winner).toBeUndefined()
    expect(outcome.stats.entries[0]?.error).toBe('lost the device')
    expect(failing.released).toBe(1)
  })
})
