/**
 * Two tabs on one memory: each runs its own worker and engine on the same IndexedDB database;
 * BroadcastChannel announcements and a Web Lock keep them consistent.
 */
import { describe, expect, it } from 'vitest'
import type { RecallResult, RememberResult } from '../../src/core/types.ts'
import {
  BROWSER_TESTS,
  inPage,
  openApp,
  rememberInUi,
  screenshot,
  uniqueMemory,
  useRig,
} from './harness.ts'

const rig = useRig()

describe.skipIf(!BROWSER_TESTS)('two tabs', () => {
  it('a fact remembered in one tab is recalled in the other without a reload', async () => {
    const context = await rig().newContext()
    const url = rig().url({ memory: uniqueMemory('tabs'), model: 'ngram' })
    const [a, b] = [await context.newPage(), await context.newPage()]
    await openApp(a, url)
    await openApp(b, url)
    expect(await rememberInUi(a, 'The spare key is under the blue flowerpot')).toMatch(/Remembered/)
    const found = await b.waitForFunction(
      async () => {
        const memory = (
          globalThis as { engram?: { memory: { recall(q: string): Promise<RecallResult> } } }
        ).engram!.memory
        const { hits } = await memory.recall('spare key flowerpot')
        return hits[0]?.text ?? false
      },
      null,
      // How fast it arrives is a benchmark figure, not this test's business.
      { timeout: 15_000, polling: 50 },
    )
    expect(await found.jsonValue()).toBe('The spare key is under the blue flowerpot')
    // The other tab's browse list refreshes from the change event.
    await b.waitForSelector('#browse-list .memory >> text=blue flowerpot', { timeout: 2000 })
    await screenshot(b, 'second-tab')
  })

  it('the same fact remembered in both tabs at once is stored once', async () => {
    const context = await rig().newContext()
    const url = rig().url({ memory: uniqueMemory('tabs-dedup'), model: 'ngram' })
    const [a, b] = [await context.newPage(), await context.newPage()]
    await openApp(a, url)
    await openApp(b, url)
    for (let round = 0; round < 3; round++) {
      const text = `Standup moves to 9:${30 + round} on Tuesdays`
      const body = `return memory.remember(${JSON.stringify(text)})`
      const [ra, rb] = await Promise.all([
        inPage<RememberResult>(a, body),
        inPage<RememberResult>(b, body),
      ])
      expect(ra.id).toBe(rb.id)
      expect([ra.status, rb.status].sort()).toEqual(['created', 'duplicate'])
    }
    expect(await inPage<number>(a, 'return memory.count()')).toBe(3)
    await expect.poll(() => inPage<number>(b, 'return memory.count()')).toBe(3)
    expect((await inPage<{ ok: boolean }>(b, 'return memory.inspect.verify()')).ok).toBe(true)
  })
})
