/**
 * Offline: after one online visit the service worker holds the app shell, the worker bundle
 * and ONNX Runtime, and the model is cached; with the server stopped, a reload and a fresh tab
 * both open, remember and recall with the real model. No request ever leaves the origin.
 */
import { describe, expect, it } from 'vitest'
import type { MemoryStats } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  goOffline,
  inPage,
  modelReady,
  openApp,
  recallInUi,
  rememberInUi,
  screenshot,
  uniqueMemory,
  useRig,
  waitReady,
} from './harness.ts'

const rig = useRig()

// The waits inside (the model, the service worker) have no limit of their own: this timeout is
// the one bound. The test loads the model four times; on a 2-core machine under a load average
// of 12 it took 282 s, so the bound is set for a hang, not for a slow machine.
describe.skipIf(!BROWSER_TESTS)('offline', { timeout: 600_000 }, () => {
  it('reloads, opens in a fresh tab, remembers and recalls with the server stopped', async () => {
    const context = await rig().newContext()
    const foreign: string[] = []
    context.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(rig().server.url) && !/^(data|blob|chrome-extension):/.test(url)) {
        foreign.push(url)
      }
    })
    const page = await context.newPage()
    const url = rig().url({
      memory: uniqueMemory('offline'),
      model: 'engram-test/tiny',
      device: 'wasm',
    })
    await openApp(page, url)
    await modelReady(page)
    expect(await rememberInUi(page, 'The spare key is under the blue flowerpot')).toMatch(
      /Remembered/,
    )
    // In control, the precache (shell, worker, ORT wasm) is complete.
    const served = await goOffline(rig(), page, {
      // A second online visit, now through the service worker, caches the model files too.
      whileOnline: async () => {
        await page.reload()
        await waitReady(page)
        await modelReady(page)
      },
    })
    expect(await page.textContent('#offline-badge')).toMatch(/works offline/)
    expect(await rememberInUi(page, 'The wifi password is on the fridge')).toMatch(/Remembered/)
    const hits = await recallInUi(page, 'where is the spare key')
    expect(hits[0]?.text).toBe('The spare key is under the blue flowerpot')
    const stats = await inPage<MemoryStats>(page, 'return memory.inspect.stats()')
    expect(stats.vectors).toBe(2)
    expect(stats.embedder?.state).toBe('ready')

    const fresh = await context.newPage()
    await openApp(fresh, url)
    await modelReady(fresh)
    const again = await recallInUi(fresh, 'wifi password')
    expect(again[0]?.text).toBe('The wifi password is on the fridge')
    expect(['vec', 'both']).toContain(again[0]?.via)
    await screenshot(fresh, 'offline')

    expect(rig().server.requests.length).toBe(served)
    expect(foreign).toEqual([])
  })
})
