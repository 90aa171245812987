/**
 * The real transformers.js pipeline in the worker, on the tiny generated BERT served from the
 * app's own origin, with ONNX Runtime's wasm from the build: on WASM, and on WebGPU through
 * SwiftShader's software adapter. Model files are trickled so the progress bar visibly moves.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MemoryStats } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  type BrowserRig,
  inPage,
  openApp,
  recallInUi,
  rememberInUi,
  screenshot,
  startRig,
  uniqueMemory,
} from './harness.ts'

let rig: BrowserRig

async function loadModel(page: Page, device: string): Promise<MemoryStats> {
  const memory = uniqueMemory(`model-${device}`)
  await openApp(page, rig.url({ memory, model: 'engram-test/tiny', device, remote: '0' }))
  await page.waitForSelector(
    '#model-state[data-state="ready"], #model-state[data-state="failed"]',
    {
      timeout: 60_000,
    },
  )
  expect(await page.textContent('#model-state')).toBe('ready')
  expect(await page.isVisible('#model-notice')).toBe(false)
  return inPage<MemoryStats>(page, 'return memory.stats()')
}

describe.skipIf(!BROWSER_TESTS)('transformers.js in the worker', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    rig = await startRig({ slow: { prefix: '/models/', chunkBytes: 64 * 1024, delayMs: 20 } })
  })

  afterAll(async () => {
    await rig?.close()
  })

  it('embeds on WASM with the tiny model, the progress bar moving to 100%', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    const stats = await loadModel(page, 'wasm')
    expect(stats.embedder).toMatchObject({ model: 'engram-test/tiny', dims: 64, device: 'wasm' })
    const seen = ((await page.getAttribute('#model-progress', 'data-seen')) ?? '')
      .split(' ')
      .map(Number)
    expect(seen.some((v) => v > 0 && v < 1)).toBe(true)
    expect(seen.at(-1)).toBe(1)
    expect(await page.textContent('#model-device')).toBe('WASM (CPU)')

    expect(await rememberInUi(page, 'Priya prefers green tea in the afternoon')).toMatch(
      /Remembered/,
    )
    expect(await rememberInUi(page, 'The deploy script lives in tools/deploy.sh')).toMatch(
      /Remembered/,
    )
    const hits = await recallInUi(page, 'green tea')
    expect(hits[0]?.text).toBe('Priya prefers green tea in the afternoon')
    expect(hits[0]?.via).toBe('both')
    expect(hits[0]?.explanation).toMatch(/semantic/)
    const after = await inPage<MemoryStats>(page, 'return memory.stats()')
    expect(after.vectors).toBe(2)
    await screenshot(page, 'model-wasm')
  })

  it('embeds on WebGPU with the software adapter', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    const stats = await loadModel(page, 'webgpu')
    expect(stats.embedder?.device).toBe('webgpu')
    expect(await page.textContent('#model-device')).toBe('WebGPU')
    expect(await rememberInUi(page, 'The boiler service is due in October')).toMatch(/Remembered/)
    const hits = await recallInUi(page, 'boiler service')
    expect(hits[0]?.via).toBe('both')
  })

  it('stays usable in keyword mode with a notice when the model cannot load', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    await openApp(
      page,
      rig.url({ memory: uniqueMemory('no-model'), model: 'engram-test/missing', remote: '0' }),
    )
    await page.waitForSelector('#model-state[data-state="failed"]', { timeout: 30_000 })
    expect(await page.isVisible('#model-notice')).toBe(true)
    expect(await page.textContent('#model-notice')).toMatch(/keywords only/)
    expect(await rememberInUi(page, 'Keyword recall still works without a model')).toMatch(
      /Remembered/,
    )
    const hits = await recallInUi(page, 'keyword recall')
    expect(hits[0]?.via).toBe('kw')
    expect(await page.textContent('#recall-meta')).toMatch(/keyword-only/)
    await screenshot(page, 'model-failed')
  })
})
