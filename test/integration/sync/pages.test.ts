/**
 * Pages cross devices whole: sync's near-duplicate fold never takes a page's chunks, so a page
 * that repeats a section another page already holds (a footer, a code block) arrives with every
 * chunk. Against a real CouchDB-protocol server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CouchServer } from '../../helpers/couch-server.ts'
import { type Device, openDevice, syncUntilQuiet, testKey } from './sync-helpers.ts'

let server: CouchServer
beforeAll(async () => {
  server = await CouchServer.start()
})
afterAll(async () => {
  await server?.close()
})

// A section both pages end with, word for word: its chunks are byte-identical, so their vectors
// are too (cosine 1, far above any near-duplicate threshold).
const CONTACT = `## Contact\n\n${'Questions go to the platform team in the ops channel, weekdays nine to five. '.repeat(12)}`

function runbook(topic: string): string {
  const steps = ['Install', 'Configure', 'Deploy'].map(
    (step) => `## ${step}\n\n${`How to ${step.toLowerCase()} the ${topic} service. `.repeat(25)}`,
  )
  return `# ${topic} runbook\n\n${steps.join('\n\n')}\n\n${CONTACT}`
}

describe('sync of pages', () => {
  it('brings a page whose section another page already holds to another device whole', async () => {
    const devices: Device[] = [await openDevice(), await openDevice()]
    try {
      const [a, b] = devices as [Device, Device]
      const options = { url: server.url('pages-whole'), key: await testKey() }
      await a.engine.pages.remember({ title: 'Billing runbook', text: runbook('billing') })
      await syncUntilQuiet(devices, options)
      const second = await a.engine.pages.remember({
        title: 'Search runbook',
        text: runbook('search'),
      })
      const stored = await a.engine.pages.get(second.pageId)
      await syncUntilQuiet(devices, options)

      const arrived = (await b.engine.pages.list()).find((p) => p.title === 'Search runbook')
      expect(arrived).toBeDefined()
      const page = await b.engine.pages.get(arrived!.pageId)
      expect(page?.chunks).toBe(stored?.chunks)
      expect(page?.text).toBe(stored?.text)
      for (const device of devices) expect((await device.engine.inspect.verify()).ok).toBe(true)
    } finally {
      await Promise.allSettled(devices.map((d) => d.engine.close()))
    }
  })
})
