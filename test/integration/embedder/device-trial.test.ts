import { fileURLToPath } from 'node:url'
import * as transformers from '@huggingface/transformers'
import { env } from '@huggingface/transformers'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureModel } from '../../../scripts/make-models.ts'
import { TRIAL_TEXTS } from '../../../src/embedder/device-plan.ts'
import { runDeviceTrial, type TrialCandidate } from '../../../src/embedder/device-trial.ts'
import { TINY_TEST_MODEL } from '../../../src/embedder/model-table.ts'
import {
  embedWith,
  type LoadedPipe,
  openPipe,
  type PipelineSpec,
} from '../../../src/embedder/transformers-pipeline.ts'
import { eventually } from '../../helpers/eventually.ts'

const MODELS = fileURLToPath(new URL('../../../.models', import.meta.url))

const SPEC: PipelineSpec = {
  model: TINY_TEST_MODEL,
  source: `${MODELS}/${TINY_TEST_MODEL}`,
  allowRemote: false,
  pooling: 'mean',
  batchSize: 32,
  expectedDims: 64,
  dtype: 'fp32',
  onProgress: () => {},
}

interface Probe {
  candidate: TrialCandidate<LoadedPipe>
  /** Runs that finished, and sessions released, as the trial left them. */
  finished: number
  disposed: number
}

/**
 * A real backend: the tiny model on onnxruntime-node, embedding the trial batch `work` times
 * over per run. Larger `work` is a genuinely slower backend, timed for real.
 */
function backend(device: string, work: number, preloaded?: LoadedPipe): Probe {
  const texts = Array.from({ length: work }, () => [...TRIAL_TEXTS]).flat()
  const probe: Probe = {
    finished: 0,
    disposed: 0,
    candidate: {
      device,
      open: async () => preloaded ?? openPipe(transformers, SPEC, 'cpu'),
      run: async (loaded) => {
        await embedWith(loaded.pipe, SPEC, texts, undefined)
        probe.finished++
      },
      dispose: async (loaded) => {
        probe.disposed++
        await loaded.pipe.dispose()
      },
    },
  }
  return probe
}

function settled(probe: Probe, disposed = 1): Promise<void> {
  return eventually(() => probe.disposed >= disposed, `${disposed} pipeline(s) released`)
}

beforeAll(async () => {
  await ensureModel('tiny', MODELS)
  env.allowRemoteModels = false
})

describe('the device trial on real pipelines', () => {
  it('abandons a slow backend that overruns its budget, counting none of its runs', async () => {
    const fast = backend('fast', 1)
    // Loaded beforehand, so that the cut falls in its warm-up rather than in its load; 256 times
    // the work, so its warm-up alone outlasts the budget even when load slows the baseline too
    // (at 64 times, a loaded run once finished two timed runs first and was cut as cannot-win).
    const slow = backend('slow', 256, await openPipe(transformers, SPEC, 'cpu'))
    const outcome = await runDeviceTrial([fast.candidate, slow.candidate], {
      runs: 3,
      factor: 4,
      floorMs: 0,
    })
    expect(outcome.winner?.device).toBe('fast')
    const [base, cut] = outcome.stats.entries
    expect(base?.medianMs).toBeGreaterThan(0)
    expect(cut).toMatchObject({ device: 'slow', cut: 'budget', runsMs: [] })
    expect(cut?.medianMs).toBeUndefined()
    // How many of the slow backend's runs ended before it was let go is not asserted: the cut
    // is a timer, and tokenising a big batch blocks the thread it runs on (under a loaded CI
    // machine the warm-up, once even a timed run, ended first). None is counted, and the
    // abandoned session is released once its run in flight ends.
    await settled(slow)
    expect(slow.disposed).toBe(1)
    await outcome.winner?.loaded.pipe.dispose()
  })

  it('stops a backend once its runs can no longer beat the baseline, even inside its budget', async () => {
    const fast = backend('fast', 1)
    const slow = backend('slow', 16)
    const outcome = await runDeviceTrial([fast.candidate, slow.candidate], {
      runs: 3,
      factor: 4,
      floorMs: 600_000,
    })
    expect(outcome.winner?.device).toBe('fast')
    const cut = outcome.stats.entries[1]
    expect(cut?.cut).toBe('cannot-win')
    // Two of three runs slower than the baseline's median settle it: the third never runs.
    expect(cut?.runsMs).toHaveLength(2)
    await settled(slow)
    expect(slow.finished).toBe(3) // the warm-up and two timed runs
    await outcome.winner?.loaded.pipe.dispose()
  })

  it('keeps a faster challenger and releases the baseline', async () => {
    const slowBaseline = backend('baseline', 16)
    const faster = backend('challenger', 1)
    const outcome = await runDeviceTrial([slowBaseline.candidate, faster.candidate])
    expect(outcome.winner?.device).toBe('challenger')
    expect(outcome.stats.entries.map((e) => e.cut)).toEqual([undefined, undefined])
    expect(outcome.stats.entries[1]!.medianMs!).toBeLessThan(outcome.stats.entries[0]!.medianMs!)
    expect(slowBaseline.disposed).toBe(1)
    expect(faster.disposed).toBe(0)
    const [v] = await embedWith(outcome.winner!.loaded.pipe, SPEC, ['still usable'], 64)
    expect(v).toHaveLength(64)
    await outcome.winner?.loaded.pipe.dispose()
  })

  it('makes the next candidate the baseline when the first fails to load', async () => {
    const broken: TrialCandidate<LoadedPipe> = {
      device: 'broken',
      open: () => openPipe(transformers, { ...SPEC, source: `${MODELS}/missing` }, 'cpu'),
      run: async () => {},
      dispose: async () => {},
    }
    const working = backend('working', 1)
    const outcome = await runDeviceTrial([broken, working.candidate], {
      runs: 3,
      factor: 4,
      floorMs: 0,
    })
    expect(outcome.winner?.device).toBe('working')
    expect(outcome.stats.entries[0]?.error).toMatch(/\S/)
    // A baseline is never cut: there was nothing to be slower than.
    expect(outcome.stats.entries[1]?.cut).toBeUndefined()
    expect(outcome.stats.budgetMs).toBeUndefined()
    await outcome.winner?.loaded.pipe.dispose()
  })
})
