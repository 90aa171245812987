/**
 * USE-lite, the model the PWA ships (`?model=use`): with every request off the app's origin
 * aborted, the weights and TF.js' wasm come from the app itself; after the service worker has
 * precached them and the server is stopped, a reload still finds a paraphrase by meaning alone.
 */
import { describe, expect, it } from 'vitest'
import type { MemoryStats, RecallResult } from '../../src/core/types.ts'
import { USE_LITE_MODEL } from '../../src/embedder/model-table.ts'
import {
  BROWSER_TESTS,
  goOffline,
  inPage,
  modelReady,
  openApp,
  uniqueMemory,
  useRig,
} from './harness.ts'

const rig = useRig()

const FACTS = [
  "The owner's wife is Priya",
  'The owner prefers metric units',
  'My brother Tom lives in Leeds',
  'The car is parked in the garage',
  'The standup meeting starts at nine',
]

describe.skipIf(!BROWSER_TESTS)('USE-lite offline', { timeout: 180_000 }, () => {
  it('recalls a paraphrase by meaning with the server stopped and no other origin', async () => {
    const context = await rig().newContext()
    const foreign: string[] = []
    const origin = new URL(rig().server.url).origin
    // No Hugging Face hub, no CDN: anything not for the app's own origin fails.
    await context.route('**/*', (route) => {
      const url = route.request().url()
      if (new URL(url).origin === origin) return route.continue()
      foreign.push(url)
      return route.abort('internetdisconnected')
    })
    const page = await context.newPage()
    const url = rig().url({ memory: uniqueMemory('use-offline'), model: 'use' })
    await openApp(page, url)
    await modelReady(page, 60_000)
    expect(await page.textContent('#model-name')).toBe(USE_LITE_MODEL)
    for (const text of FACTS) {
      await inPage(page, `return memory.remember(${JSON.stringify(text)})`)
    }
    // In control, the precache, weights included, is complete.
    const served = await goOffline(rig(), page, {
      timeout: 60_000,
      whileOnline: async () => {
        const requested = rig().server.requests
        expect(requested).toContain(`/models/${USE_LITE_MODEL}/group1-shard7of7`)
        expect(requested.some((path) => /^\/tfjs\/tfjs-backend-wasm[\w-]*\.wasm$/.test(path))).toBe(
          true,
        )
      },
    })
    const result = await inPage<RecallResult>(
      page,
      `return memory.recall("Who is the owner's spouse?", { mode: 'semantic', k: 3 })`,
    )
    expect(result.degraded).toBeUndefined()
    expect(result.hits[0]?.text).toBe("The owner's wife is Priya")
    const stats = await inPage<MemoryStats>(page, 'return memory.inspect.stats()')
    expect(stats.embedder).toMatchObject({ model: USE_LITE_MODEL, state: 'ready', dims: 512 })
    expect(stats.vectors).toBe(FACTS.length)

    expect(rig().server.requests.length).toBe(served)
    expect(foreign).toEqual([])
  })
})
