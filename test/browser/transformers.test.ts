/**
 * The real transformers.js pipeline in the worker, on the tiny generated BERT served from the
 * app's own origin, with ONNX Runtime's wasm from the build: on WASM, and on WebGPU through
 * SwiftShader's software adapter. Model files are trickled so the progress bar visibly moves.
 * When the model cannot load, the model card says why in plain words and Retry loads it.
 */
import { cp, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SELF_HOSTING_DOCS } from '../../src/app/model-panel.ts'
import type { MemoryStats } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  type BrowserRig,
  inPage,
  openApp,
  ROOT,
  recallInUi,
  rememberInUi,
  screenshot,
  startRig,
  uniqueMemory,
} from './harness.ts'

const TINY = join(ROOT, '.models', 'engram-test', 'tiny')
const TINY_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']

let rig: BrowserRig
/** Served at /models/engram-test/partial/: the tiny model's folder, without its weights at first. */
let partial = ''

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
  return inPage<MemoryStats>(page, 'return memory.inspect.stats()')
}

/**
 * Waits until USE-lite answers in place of the configured model (the chain's fallback) and the
 * Model card says why the configured one does not, with Retry and the self-hosting steps.
 */
async function fallbackOf(page: Page): Promise<{ reason: string; text: string; why: string }> {
  await page.waitForSelector('#model-notice[data-fallback]', { timeout: 60_000 })
  expect(await page.textContent('#model-state')).toBe('ready')
  expect(await page.isVisible('#model-retry')).toBe(true)
  expect(await page.getAttribute('#model-self-host', 'href')).toBe(SELF_HOSTING_DOCS)
  return {
    reason: (await page.getAttribute('#model-notice', 'data-reason')) ?? '',
    text: (await page.textContent('#model-notice')) ?? '',
    why: (await page.textContent('#model-why')) ?? '',
  }
}

describe.skipIf(!BROWSER_TESTS)('transformers.js in the worker', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    partial = await mkdtemp(join(tmpdir(), 'engram-partial-model-'))
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) {
      await cp(join(TINY, file), join(partial, file))
    }
    rig = await startRig({
      slow: { prefix: '/models/', chunkBytes: 64 * 1024, delayMs: 20 },
      mounts: {
        '/models/engram-test/partial/': partial,
        '/models/': join(ROOT, '.models'),
      },
    })
  })

  afterAll(async () => {
    await rig?.close()
    if (partial) await rm(partial, { recursive: true, force: true })
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
    const after = await inPage<MemoryStats>(page, 'return memory.inspect.stats()')
    expect(after.vectors).toBe(2)
    await screenshot(page, 'model-wasm')
  })

  it('counts each downloaded byte once: the bar’s total is the model files’ size', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    await loadModel(page, 'wasm')
    let onDisk = 0
    for (const file of TINY_FILES) onDisk += (await stat(join(TINY, file))).size
    expect(Number(await page.getAttribute('#model-progress', 'data-total'))).toBe(onDisk)
  })

  it('asks for the q8 file first on WASM and loads fp32 when the model has only that', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    const from = rig.server.requests.length
    await loadModel(page, 'wasm')
    const asked = rig.server.requests.slice(from)
    const q8 = asked.indexOf('/models/engram-test/tiny/onnx/model_quantized.onnx')
    expect(q8).toBeGreaterThanOrEqual(0)
    expect(asked.indexOf('/models/engram-test/tiny/onnx/model.onnx', q8)).toBeGreaterThan(q8)
    // ONNX Runtime's wasm came from this origin too (nothing else answers in the test).
    const wasm = rig.server.requests.filter((path) => path.endsWith('.wasm'))
    expect(wasm.length).toBeGreaterThan(0)
    expect(wasm.some((path) => /ort-wasm-simd-threaded\.asyncify/.test(path))).toBe(true)
    // The only other wasm is TF.js's, which the service worker precaches for `?model=use`.
    for (const path of wasm) expect(path).toMatch(/ort-wasm-simd-threaded\.asyncify|^\/tfjs\//)
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

  it('answers with USE-lite and says why when the model is not on the device and downloads are off', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    await openApp(
      page,
      rig.url({ memory: uniqueMemory('no-model'), model: 'engram-test/missing', remote: '0' }),
    )
    const fallback = await fallbackOf(page)
    expect(fallback.why).toMatch(
      /^USE-lite answers: engram-test\/missing (cannot be reached|failed to load)/,
    )
    expect(fallback.text).toMatch(/Meanwhile USE-lite answers/)
    expect(await rememberInUi(page, 'Recall still works while the model is missing')).toMatch(
      /Remembered/,
    )
    const hits = await recallInUi(page, 'recall works')
    expect(hits[0]?.text).toBe('Recall still works while the model is missing')
    await screenshot(page, 'model-fallback')
  })

  it('names the self-hosted folder and the missing file, and Retry loads the model once it is there', async () => {
    const context = await rig.newContext()
    const page = await context.newPage()
    await openApp(
      page,
      rig.url({ memory: uniqueMemory('partial'), model: 'engram-test/partial', device: 'wasm' }),
    )
    const failure = await fallbackOf(page)
    expect(failure.reason).toBe('not-found')
    expect(failure.text).toMatch(
      /files were not found at \/models\/engram-test\/partial\/ \(onnx\/model\.onnx is missing\)/,
    )
    await screenshot(page, 'model-not-found')

    await cp(join(TINY, 'onnx'), join(partial, 'onnx'), { recursive: true })
    await Promise.all([page.waitForEvent('load'), page.click('#model-retry')])
    await page.waitForSelector(
      '#model-state[data-state="ready"], #model-state[data-state="failed"]',
      { timeout: 60_000 },
    )
    expect(await page.textContent('#model-state')).toBe('ready')
    expect(await page.isVisible('#model-notice')).toBe(false)
    expect(await page.textContent('#model-why')).toBe('engram-test/partial answers, as configured.')
  })

  it('says the model host could not be reached when the hub does not answer', async () => {
    // No service worker: requests it made itself would bypass the route below.
    const context = await rig.browser.newContext({ serviceWorkers: 'block' })
    const blocked: string[] = []
    // The hub is never contacted in tests: every request to it fails here, as offline.
    await context.route(/^https:\/\/([\w-]+\.)*(huggingface\.co|hf\.co)\//, (route) => {
      blocked.push(route.request().url())
      return route.abort('internetdisconnected')
    })
    const page = await context.newPage()
    await openApp(
      page,
      rig.url({ memory: uniqueMemory('hub'), model: 'Xenova/all-MiniLM-L6-v2', device: 'wasm' }),
    )
    const failure = await fallbackOf(page)
    await context.close()
    expect(blocked.length).toBeGreaterThan(0)
    expect(failure.reason).toBe('unreachable')
    expect(failure.text).toMatch(/model host could not be reached/)
  })
})
