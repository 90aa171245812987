/**
 * Regenerates docs/screenshot.png from the real app: builds it (as the browser tests do), serves
 * it, opens it in a fresh Chromium profile with every request off its origin refused (no hub, no CDN), lets the
 * default model chain load, remembers a handful of facts through the Remember card, asks a
 * paraphrase through the Recall card, and saves the whole page.
 *
 * `npx tsx scripts/docs/screenshot.ts` (about a minute after the build).
 */
import { join } from 'node:path'
import {
  modelReady,
  openApp,
  ROOT,
  recallInUi,
  rememberInUi,
  startRig,
} from '../../test/browser/harness.ts'

const FACTS = [
  'I prefer metric units',
  'My sister Priya lives in Lisbon',
  'The standup meeting starts at nine',
  'Deploys go out on Thursdays',
  'The car is parked in bay B12',
  'I am allergic to peanuts',
]

const rig = await startRig()
try {
  const context = await rig.newContext()
  const origin = new URL(rig.server.url).origin
  await context.route('**/*', (route) =>
    new URL(route.request().url()).origin === origin
      ? route.continue()
      : route.abort('internetdisconnected'),
  )
  const page = await context.newPage()
  // The default memory of a fresh profile: no settings banner, nothing stored before.
  await openApp(page, rig.url())
  await modelReady(page, 120_000)
  for (const fact of FACTS) await rememberInUi(page, fact)
  const hits = await recallInUi(page, 'what measurement system do I like?')
  if (hits[0]?.text !== FACTS[0]) {
    throw new Error(`expected "${FACTS[0]}" at rank 1, got ${JSON.stringify(hits[0])}`)
  }
  const path = join(ROOT, 'docs/screenshot.png')
  await page.screenshot({ path, fullPage: true })
  console.log(`wrote ${path}`)
} finally {
  await rig.close()
}
