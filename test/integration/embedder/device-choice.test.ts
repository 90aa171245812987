import { fileURLToPath } from 'node:url'
import { pipeline } from '@huggingface/transformers'
import { IDBFactory } from 'fake-indexeddb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureModel } from '../../../scripts/make-models.ts'
import { EmbedderUnavailableError } from '../../../src/core/errors.ts'
import type { DeviceTrialStats } from '../../../src/core/types.ts'
import {
  type DeviceChoiceStore,
  IndexedDbDeviceChoices,
} from '../../../src/embedder/device-choice-store.ts'
import { choiceKey, planDevices } from '../../../src/embedder/device-plan.ts'
import { TINY_TEST_MODEL } from '../../../src/embedder/model-table.ts'
import { TransformersEmbedder } from '../../../src/embedder/transformers-embedder.ts'
import type { TransformersEmbedderOptions } from '../../../src/embedder/transformers-options.ts'
import { MemoryEngine } from '../../../src/engine/memory-engine.ts'
import { freshIdb } from '../../helpers/engine.ts'
import { eventually } from '../../helpers/eventually.ts'

const MODELS = fileURLToPath(new URL('../../../.models', import.meta.url))
const MODEL_DIR = `${MODELS}/${TINY_TEST_MODEL}`

/** Node's candidates: onnxruntime-node's CPU first, then its WebGPU (no adapter on most hosts). */
const CANDIDATES = ['cpu', 'webgpu'] as const

/** Whether onnxruntime-node finds a WebGPU adapter here; the failing-device test needs none. */
async function webGpuLoadsInNode(): Promise<boolean> {
  try {
    const pipe = await pipeline('feature-extraction', MODEL_DIR, {
      device: 'webgpu',
      dtype: 'fp32',
      local_files_only: true,
    })
    await pipe.dispose()
    return true
  } catch {
    return false
  }
}

function auto(store: DeviceChoiceStore, options: TransformersEmbedderOptions = {}) {
  return new TransformersEmbedder({
    model: TINY_TEST_MODEL,
    localDir: MODELS,
    allowRemote: false,
    device: 'auto',
    trialDevices: [...CANDIDATES],
    deviceChoices: store,
    ...options,
  })
}

async function keyFor(): Promise<string> {
  const plan = await planDevices({ device: 'auto', trialDevices: CANDIDATES }, true)
  return choiceKey(TINY_TEST_MODEL, plan)
}

const held: TransformersEmbedder[] = []
function track(embedder: TransformersEmbedder): TransformersEmbedder {
  held.push(embedder)
  return embedder
}

let webgpuInNode = false

beforeAll(async () => {
  await ensureModel('tiny', MODELS)
  webgpuInNode = await webGpuLoadsInNode()
})

afterAll(async () => {
  await Promise.all(held.map((e) => e.dispose()))
})

describe("device: 'auto' with more than one candidate", () => {
  it('runs the trial once, and a second embedder over the same store reuses its decision', async () => {
    const store = new IndexedDbDeviceChoices(new IDBFactory())
    const first = track(auto(store))
    await first.load()
    const fresh = first.stats()
    expect(fresh.deviceSource).toBe('trial')
    expect(fresh.trial?.entries.map((e) => e.device)).toEqual([...CANDIDATES])
    const baseline = fresh.trial!.entries[0]!
    expect(baseline.runsMs).toHaveLength(3)
    expect(baseline.medianMs).toBeGreaterThan(0)
    expect(fresh.trial?.budgetMs).toBeGreaterThanOrEqual(3000)

    const second = track(auto(store))
    await second.load()
    const reused = second.stats()
    expect(reused.deviceSource).toBe('remembered')
    expect(reused.device).toBe(fresh.device)
    // The figures are the remembered trial's, not a new one's.
    expect(reused.trial).toEqual(fresh.trial)
    const [vector] = await second.embed(['embeds on the remembered device'], { kind: 'passage' })
    expect(vector).toHaveLength(64)
    await store.close()
  })

  it('keeps the decision in the engram-device-choice database, where a new connection finds it', async () => {
    const factory = new IDBFactory()
    const writer = new IndexedDbDeviceChoices(factory)
    const embedder = track(auto(writer))
    await embedder.load()
    await writer.close()
    const reader = new IndexedDbDeviceChoices(factory)
    const choice = await reader.get(await keyFor())
    expect(choice?.device).toBe(embedder.stats().device)
    expect(choice?.trial.entries).toHaveLength(2)
    expect((await factory.databases()).map((d) => d.name)).toEqual(['engram-device-choice'])
    await reader.close()
  })

  it('falls back and decides again when the remembered device fails to load', async (context) => {
    if (webgpuInNode) context.skip() // this host's onnxruntime-node has a WebGPU adapter
    const store = new IndexedDbDeviceChoices(new IDBFactory())
    const key = await keyFor()
    const stale: DeviceTrialStats = { totalMs: 1, entries: [{ device: 'webgpu', runsMs: [1] }] }
    await store.set(key, { device: 'webgpu', decidedAt: Date.now(), trial: stale })

    const embedder = track(auto(store))
    await embedder.load()
    const stats = embedder.stats()
    expect(stats.state).toBe('ready')
    expect(stats.device).toBe('cpu')
    expect(stats.deviceSource).toBe('trial')
    expect(stats.trial?.retried?.device).toBe('webgpu')
    expect(stats.trial?.retried?.error).toMatch(/\S/)
    expect((await store.get(key))?.device).toBe('cpu')

    const next = track(auto(store))
    await next.load()
    expect(next.stats()).toMatchObject({ device: 'cpu', deviceSource: 'remembered' })
    await store.close()
  })

  it('re-tries a decision older than a month', async () => {
    const store = new IndexedDbDeviceChoices(new IDBFactory())
    const old: DeviceTrialStats = { totalMs: 1, entries: [{ device: 'cpu', runsMs: [1] }] }
    await store.set(await keyFor(), { device: 'cpu', decidedAt: 0, trial: old })
    const embedder = track(auto(store))
    await embedder.load()
    expect(embedder.stats().deviceSource).toBe('trial')
    expect(embedder.stats().trial?.entries).toHaveLength(2)
    await store.close()
  })

  it('still loads when the store cannot be read or written', async () => {
    const broken: DeviceChoiceStore = {
      get: () => Promise.reject(new Error('quota exceeded')),
      set: () => Promise.reject(new Error('quota exceeded')),
      delete: () => Promise.reject(new Error('quota exceeded')),
    }
    const embedder = track(auto(broken))
    await embedder.load()
    expect(embedder.stats()).toMatchObject({ state: 'ready', deviceSource: 'trial' })
  })

  it('fails with EmbedderUnavailableError naming every candidate when none loads', async () => {
    const store = new IndexedDbDeviceChoices(new IDBFactory())
    const embedder = auto(store, { localDir: `${MODELS}/does-not-exist` })
    await expect(embedder.load()).rejects.toThrow(EmbedderUnavailableError)
    expect(embedder.stats().error).toMatch(/cpu: .*webgpu: /)
    expect(await store.get(await keyFor())).toBeUndefined()
    await store.close()
  })

  it('reaches MemoryEngine.stats(): a remembered device and where it came from', async () => {
    const store = new IndexedDbDeviceChoices(new IDBFactory())
    await track(auto(store)).load()
    const engine = await MemoryEngine.open({
      name: 'device-choice',
      ...freshIdb(),
      embedder: track(auto(store)),
    })
    await eventually(async () => (await engine.inspect.stats()).embedder?.state === 'ready')
    const { embedder } = await engine.inspect.stats()
    expect(embedder?.deviceSource).toBe('remembered')
    expect(embedder?.trial?.entries.map((e) => e.device)).toEqual([...CANDIDATES])
    await engine.close()
    await store.close()
  })
})

describe("device: 'auto' in Node by default", () => {
  it('loads the CPU with no trial and says the device was fixed', async () => {
    const embedder = track(
      new TransformersEmbedder({ model: TINY_TEST_MODEL, localDir: MODELS, allowRemote: false }),
    )
    await embedder.load()
    const stats = embedder.stats()
    expect(stats).toMatchObject({ device: 'cpu', deviceSource: 'fixed' })
    expect(stats.trial).toBeUndefined()
  })
})
