/**
 * `connect.html`: the memory's host page for other origins. In an iframe, or in a window another
 * origin opened (`embedMemory({ via: 'window' })`), it serves the app's memory to that site once
 * the user allows it (`serveOrigins`); a window stays open as the site's companion, since the
 * memory runs in it. Opened on its own it says what it is and where allowed sites are managed.
 */
import { serveOrigins } from '../../connect/index.ts'
import { byId } from '../dom.ts'
import { embedderChoice, readSettings } from '../settings.ts'
import { askConsent } from './consent-prompt.ts'

async function main(): Promise<void> {
  const inWindow = window.top === window
  if (inWindow && !window.opener) {
    byId('connect-top').hidden = false
    return
  }
  // The page's query string is the embedder's to write, so it must not choose the memory or
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
          ? inWindow
            ? `${update.origin} is connected to your memory through this window. Closing it disconnects the site.`
            : `${update.origin} is connected to your memory.`
          : update.state === 'asking'
            ? `${update.origin} is asking for your memory.`
            : `${update.origin} was refused: ${update.reason}`
      if (inWindow) document.title = `Engram — ${update.origin}`
      // A refused window has nothing left to do; a connected one holds the site's memory.
      if (inWindow && update.state === 'refused') window.close()
    },
  })
}

main().catch((error: unknown) => {
  byId('connect-status').textContent = `The memory host failed: ${String(error)}`
  console.error(error)
})
