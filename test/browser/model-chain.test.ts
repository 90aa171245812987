/**
 * The model chain in the PWA, on a first visit with the Hugging Face hub unreachable: asked for
 * bge, the app answers with the bundled USE-lite, says why (`stats().embedder.fallback`), and a
 * paraphrase question finds its fact by meaning at rank 1. The service worker precaches only
 * what that chain uses: USE-lite and TF.js' SIMD wasm, not ONNX Runtime's 27 MB.
 */
import { describe, expect, it } from 'vitest'
import type { MemoryStats, RecallResult } from '../../src/core/types.ts'
import { DEFAULT_MODEL, USE_LITE_MODEL } from '../../src/embedder/model-table.ts'
import { BROWSER_TESTS, inPage, modelReady, openApp, uniqueMemory, useRig } from './harness.ts'

const rig = useRig()

const FACTS = [
  'I prefer metric units',
  'My sister Priya lives in Lisbon',
  'The standup meeting starts at nine',
  'Deploys go out on Thursdays',
  'The car is parked in bay B12',
  'I am allergic to peanuts',
]

describe.skipIf(!BROWSER_TESTS)('the model chain', { timeout: 180_000 }, () => {
  it('answers with USE-lite, says why, and finds a paraphrase at rank 1 when bge cannot be reached', async () => {
    const context = await rig().newContext()
    const origin = new URL(rig().server.url).origin
    const foreign: string[] = []
    await context.route('**/*', (route) => {
      const url = route.request().url()
      if (new URL(url).origin === origin) return route.continue()
      foreign.push(url)
      return route.abort('internetdisconnected')
    })
    const page = await context.newPage()
    await openApp(page, rig().url({ memory: uniqueMemory('chain'), model: DEFAULT_MODEL }))
    await modelReady(page, 90_000)
    const stats = await inPage<MemoryStats>(page, 'return memory.inspect.stats()')
    expect(stats.embedder).toMatchObject({
      model: USE_LITE_MODEL,
      state: 'ready',
      dims: 512,
      fallback: { from: DEFAULT_MODEL, reason: 'unreachable' },
    })
    // The probe was the only request off the app's origin: bge's config.json on the hub.
    expect(foreign.every((url) => url.includes(`/${DEFAULT_MODEL}/`))).toBe(true)
    for (const text of FACTS) await inPage(page, `return memory.remember(${JSON.stringify(text)})`)
    const result = await inPage<RecallResult>(
      page,
      `return memory.recall('what measurement system do I like?', { mode: 'semantic' })`,
    )
    expect(result.degraded).toBeUndefined()
    expect(result.hits[0]?.text).toBe('I prefer metric units')

    // Once the service worker controls the page it has activated: its precache is complete.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 60_000,
    })
    const precached = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of (await caches.keys()).filter((n) => n.includes('precache'))) {
        for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
      }
      return urls
    })
    expect(
      precached.some((url) => url.includes(`/models/${USE_LITE_MODEL}/group1-shard7of7`)),
    ).toBe(true)
    expect(precached.some((url) => url.includes('/tfjs/tfjs-backend-wasm-simd.wasm'))).toBe(true)
    expect(precached.filter((url) => /\/ort-wasm[^/]*\.wasm/.test(url))).toEqual([])
  })
})
