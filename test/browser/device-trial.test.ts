/**
 * `device: 'auto'` in a real Chromium: the worker times WASM against WebGPU on SwiftShader's
 * software adapter with the tiny model, keeps the winner, and remembers it in the origin's
 * `engram-device-choice` database, so the next page load of the same profile skips the trial.
 * The figures are whatever this machine measured: the tests check the rule's bookkeeping
 * (who was cut, who won, what was stored), never how fast anything was.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { DeviceTrialEntry, DeviceTrialStats, EmbedderStats } from '../../src/core/types.ts'
import { DEVICE_CHOICE_MAX_AGE_MS } from '../../src/embedder/choose-device.ts'
import { DEVICE_CHOICE_DB } from '../../src/embedder/device-choice-store.ts'
import { DEVICE_TRIAL_FLOOR_MS } from '../../src/embedder/transformers-options.ts'
import { BROWSER_TESTS, inPage, modelReady, openApp, uniqueMemory, useRig } from './harness.ts'

const MODEL = 'engram-test/tiny'
const rig = useRig()

interface StoredChoice {
  key: string
  device: string
  decidedAt: number
  trial: DeviceTrialStats
}

/** Opens the app on `memory` with `device: 'auto'` and returns its embedder's stats once ready. */
async function openAuto(page: Page, memory: string): Promise<EmbedderStats> {
  await openApp(page, rig().url({ memory, model: MODEL, device: 'auto', remote: '0' }))
  await modelReady(page, 120_000)
  const stats = await inPage<{ embedder?: EmbedderStats }>(page, 'return memory.inspect.stats()')
  if (!stats.embedder) throw new Error('memory.inspect.stats() has no embedder')
  return stats.embedder
}

/** Every decision in the origin's device-choice database, read from the page. */
function storedChoices(page: Page): Promise<StoredChoice[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name)
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    try {
      const tx = db.transaction('choices', 'readonly')
      const store = tx.objectStore('choices')
      const [keys = [], values = []] = await Promise.all(
        [store.getAllKeys(), store.getAll()].map(
          (request) =>
            new Promise<unknown[]>((resolve, reject) => {
              request.onsuccess = () => resolve(request.result)
              request.onerror = () => reject(request.error)
            }),
        ),
      )
      return (values as Omit<StoredChoice, 'key'>[]).map((v, i) => ({ ...v, key: String(keys[i]) }))
    } finally {
      db.close()
    }
  }, DEVICE_CHOICE_DB)
}

/** Ages the stored decision by `ms`, as if it had been made that long ago. */
function ageChoice(page: Page, key: string, ms: number): Promise<void> {
  return page.evaluate(
    async ({ name, key, ms }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name)
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('choices', 'readwrite')
        const store = tx.objectStore('choices')
        const get = store.get(key)
        get.onsuccess = () =>
          store.put({ ...get.result, decidedAt: get.result.decidedAt - ms }, key)
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
      db.close()
    },
    { name: DEVICE_CHOICE_DB, key, ms },
  )
}

/** What the page itself sees of the WebGPU adapter, as the decision's key should name it. */
function pageAdapter(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu
    const adapter = (await gpu?.requestAdapter()) as
      | { info: Record<string, string | boolean | undefined> }
      | null
      | undefined
    if (!adapter) return undefined
    const { vendor, architecture, device, description, isFallbackAdapter } = adapter.info
    const name = [vendor, architecture, device, description].map((f) => f ?? '').join('/')
    return isFallbackAdapter === true ? `${name}/fallback` : name
  })
}

/** Checks a trial's entries against the cap rule: the loser is marked, the winner is fastest. */
function expectRuleKept(trial: DeviceTrialStats, winner: string): void {
  const [wasm, webgpu] = trial.entries as [DeviceTrialEntry, DeviceTrialEntry]
  expect(trial.entries.map((e) => e.device)).toEqual(['wasm', 'webgpu'])
  // WASM is the baseline: it always finishes its warm-up and three timed runs.
  expect(wasm).toMatchObject({
    runsMs: [expect.any(Number), expect.any(Number), expect.any(Number)],
  })
  expect(wasm.loadMs).toBeGreaterThanOrEqual(0)
  expect(wasm.medianMs).toBe([...wasm.runsMs].sort((a, b) => a - b)[1])
  expect(wasm.cut).toBeUndefined()
  expect(wasm.error).toBeUndefined()
  expect(trial.budgetMs).toBeGreaterThanOrEqual(DEVICE_TRIAL_FLOOR_MS)
  expect(trial.totalMs).toBeGreaterThanOrEqual(wasm.loadMs!)
  if (winner === 'webgpu') {
    expect(webgpu.cut).toBeUndefined()
    expect(webgpu.medianMs).toBeLessThan(wasm.medianMs!)
    return
  }
  expect(winner).toBe('wasm')
  // A challenger that finishes its runs has, by the cannot-win rule, the lower median: so a
  // losing WebGPU was stopped, and its entry says why.
  expect(webgpu.medianMs).toBeUndefined()
  if (webgpu.error === undefined) expect(['budget', 'cannot-win']).toContain(webgpu.cut)
  if (webgpu.cut === 'cannot-win') {
    const slow = webgpu.runsMs.filter((ms) => ms >= wasm.medianMs!)
    expect(slow.length).toBeGreaterThanOrEqual(2)
  }
}

describe.skipIf(!BROWSER_TESTS)("device: 'auto' in the worker", { timeout: 300_000 }, () => {
  it('times WASM against the software WebGPU adapter once, then reuses the decision on the next page load', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    const memory = uniqueMemory('auto-device')
    const first = await openAuto(page, memory)
    expect(first).toMatchObject({ model: MODEL, state: 'ready', deviceSource: 'trial' })
    const device = first.device!
    expectRuleKept(first.trial!, device)
    expect(first.trial!.retried).toBeUndefined()
    expect(await page.textContent('#model-device')).toBe(
      device === 'webgpu' ? 'WebGPU' : 'WASM (CPU)',
    )

    const adapter = await pageAdapter(page)
    expect(adapter).toBeDefined()
    const choices = await storedChoices(page)
    expect(choices).toHaveLength(1)
    const [choice] = choices as [StoredChoice]
    expect(choice.key.split('|')).toEqual([
      expect.stringMatching(/^v\d+$/),
      MODEL,
      'q8',
      'wasm,webgpu',
      adapter,
    ])
    expect(choice.device).toBe(device)
    expect(choice.trial).toEqual(first.trial)

    // A new page load: a new worker and embedder, the same origin's IndexedDB.
    const second = await openAuto(page, memory)
    expect(second).toMatchObject({
      model: MODEL,
      state: 'ready',
      deviceSource: 'remembered',
      device,
    })
    expect(second.trial).toEqual(first.trial)
    expect(await storedChoices(page)).toEqual(choices)
    // Remembered across memories too: the decision belongs to the model, not to one database.
    const other = await openAuto(page, uniqueMemory('auto-device-other'))
    expect(other).toMatchObject({ deviceSource: 'remembered', device })
    expect(rig().pageErrors).toEqual([])
  })

  it('runs the trial again once the remembered decision is older than 30 days', async () => {
    const context = await rig().newContext()
    const page = await context.newPage()
    const memory = uniqueMemory('auto-device-stale')
    const first = await openAuto(page, memory)
    expect(first.deviceSource).toBe('trial')
    const [before] = (await storedChoices(page)) as [StoredChoice]
    await ageChoice(page, before.key, DEVICE_CHOICE_MAX_AGE_MS + 60_000)

    const again = await openAuto(page, memory)
    expect(again.deviceSource).toBe('trial')
    expectRuleKept(again.trial!, again.device!)
    const after = await storedChoices(page)
    expect(after).toHaveLength(1)
    expect(after[0]!.key).toBe(before.key)
    expect(after[0]!.decidedAt).toBeGreaterThan(before.decidedAt)
    expect(after[0]!.device).toBe(again.device)
    expect(after[0]!.trial).toEqual(again.trial)
  })
})
