/**
 * The Engram PWA: one page, one memory in a worker, and a card per verb. Settings come from
 * the URL (`?model=`, `?device=`, `?memory=`, `?remote=0`), see `settings.ts`.
 */
import { SiteGrants } from '../connect/index.ts'
import { openMemory } from '../index.ts'
import { mountAgentPanel } from './agent-panel.ts'
import { registerServiceWorker, watchNetwork } from './app-shell.ts'
import { mountBrowsePanel } from './browse-panel.ts'
import { mountConnectedSitesPanel } from './connected-sites-panel.ts'
import { createContext, EventBus } from './context.ts'
import { byId } from './dom.ts'
import { mountEncryptionSetting, type OpenWith, openUnlocked } from './encryption-setting.ts'
import { describeError } from './field-errors.ts'
import { mountModelPanel } from './model-panel.ts'
import { mountPagesPanel } from './pages-panel.ts'
import { mountRecallLogPanel } from './recall-log-panel.ts'
import { mountRecallPanel } from './recall-panel.ts'
import { mountRememberPanel } from './remember-panel.ts'
import { mountReviewPanel } from './review-panel.ts'
import { embedderChoice, readSettings } from './settings.ts'
import { mountStoragePanel } from './storage-panel.ts'
import { mountSyncPanel } from './sync-panel.ts'
import { mountTransferPanel } from './transfer-panel.ts'

async function main(): Promise<void> {
  registerServiceWorker()
  watchNetwork()
  const settings = readSettings()
  byId('app-version').textContent = `Engram ${__ENGRAM_VERSION__} · memory “${settings.memory}”`
  const bus = new EventBus()
  const embedder = await embedderChoice(settings)
  const open: OpenWith = (encryption) =>
    openMemory({
      name: settings.memory,
      embedder,
      onEvent: bus.emit,
      ...(encryption && { encryption }),
    })
  const memory = await openUnlocked(open)
  const ctx = createContext(memory, settings, bus)
  const model = mountModelPanel(ctx)
  mountRememberPanel(ctx)
  mountRecallPanel(ctx)
  mountAgentPanel(ctx)
  const browse = mountBrowsePanel(ctx)
  mountReviewPanel(ctx)
  mountPagesPanel(ctx)
  mountTransferPanel(ctx)
  mountStoragePanel(ctx)
  mountSyncPanel(ctx)
  mountEncryptionSetting(ctx, open)
  mountRecallLogPanel(ctx)
  mountConnectedSitesPanel(SiteGrants.open(), settings.memory)
  await Promise.all([browse.refresh(), model.sync()])
  // A handle for the console and the browser tests.
  Object.assign(globalThis, { engram: { memory, settings } })
  document.body.dataset.ready = 'true'
  // Closing on the way out writes an index snapshot, so the next visit starts without a rebuild.
  addEventListener('pagehide', () => void memory.close())
  // A page restored from the back/forward cache had its memory closed by that pagehide.
  addEventListener('pageshow', (event: PageTransitionEvent) => {
    if (event.persisted) location.reload()
  })
}

main().catch((error: unknown) => {
  const fatal = byId('fatal')
  fatal.textContent = `Engram could not open its memory: ${describeError(error)}`
  fatal.hidden = false
  document.body.dataset.ready = 'failed'
  console.error(error)
})
