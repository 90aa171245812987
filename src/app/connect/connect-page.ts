/**
 * `connect.html`: the memory's host page for other origins. In an iframe it serves the app's
 * memory to the embedding site once the user allows it (`serveOrigins`); opened on its own it
 * says what it is and where the allowed sites are managed.
 */
import { serveOrigins } from '../../connect/index.ts'
import { byId } from '../dom.ts'
import { embedderChoice, readSettings } from '../settings.ts'
import { askConsent } from './consent-prompt.ts'

async function main(): Promise<void> {
  if (window.top === window) {
    byId('connect-top').hidden = false
    return
  }
  // The frame's query string is the embedder's to write, so it must not choose the memory or
  // the model (a model change would re-embed the user's whole memory): only saved settings count.
  const settings = readSettings(new URL(location.pathname, location.origin))
  const status = byId('connect-status')
  serveOrigins({
    memory: { name: settings.memory, embedder: await embedderChoice(settings) },
    consent: askConsent,
    onStatus(update) {
      status.dataset.state = update.state
      status.textContent =
        update.state === 'connected'
          ? `${update.origin} is connected to your memory.`
          : update.state === 'asking'
            ? `${update.origin} is asking for your memory.`
            : `${update.origin} was refused: ${update.reason}`
    },
  })
}

main().catch((error: unknown) => {
  byId('connect-status').textContent = `The memory host failed: ${String(error)}`
  console.error(error)
})
