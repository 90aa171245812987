/**
 * Two tabs on an origin without Web Locks: `navigator.locks` exists only in secure contexts, so
 * a page served over plain http from a real host name has none, and two tabs' writes are not
 * serialised. Chromium counts 127.0.0.1 and localhost as secure, so the test maps a made-up host
 * name onto the static server instead.
 */
import { describe, expect, it } from 'vitest'
import type { Memory, RememberResult, VerifyReport } from '../../src/core/types.ts'
import { BROWSER_TESTS, inPage, openApp, uniqueMemory, useRig } from './harness.ts'

const HOST = 'engram.test'

const rig = useRig({}, { args: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`] })

describe.skipIf(!BROWSER_TESTS)('two tabs on a plain-http origin', () => {
  it("regression: an update in another tab without Web Locks lost this tab's tags", async () => {
    const context = await rig().newContext()
    const url = new URL(rig().url({ memory: uniqueMemory('lost-update'), model: 'ngram' }))
    url.hostname = HOST
    const [a, b] = [await context.newPage(), await context.newPage()]
    await openApp(a, url.href)
    await openApp(b, url.href)
    for (const page of [a, b]) {
      expect(await page.evaluate('window.isSecureContext')).toBe(false)
      expect(await page.evaluate('navigator.locks === undefined')).toBe(true)
    }
    const { id } = await inPage<RememberResult>(
      a,
      `return memory.remember('The spare key is under the blue flowerpot')`,
    )
    const quoted = JSON.stringify(id)
    for (let round = 1; round <= 10; round++) {
      const text = `The spare key is under flowerpot number ${round}`
      const tags = [`round-${round}`]
      await Promise.all([
        inPage(a, `return memory.update(${quoted}, { text: ${JSON.stringify(text)} })`),
        inPage(b, `return memory.update(${quoted}, { tags: ${JSON.stringify(tags)} })`),
      ])
      for (const page of [a, b]) {
        const stored = await inPage<Memory>(page, `return memory.get(${quoted})`)
        expect(stored.text, `round ${round}`).toBe(text)
        expect(stored.tags, `round ${round}`).toEqual(tags)
      }
    }
    for (const page of [a, b]) {
      expect((await inPage<VerifyReport>(page, 'return memory.inspect.verify()')).ok).toBe(true)
    }
    await context.close()
  })
})
