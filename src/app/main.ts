/**
 * The Engram PWA: one page, one memory in a worker (switched in place from the Memories card),
 * and a card per verb, each built by its module into its slot of index.html (`mountCard`). Settings are saved in the app; the URL (`?model=`, `?device=`,
 * `?memory=`, `?remote=0`) overrides them for one visit, and says so (`settings-notice.ts`).
 */
import { SiteGrants } from '../connect/index.ts'
import { openMemory } from '../index.ts'
import { mountAgentPanel } from './agent-panel.ts'
import { registerServiceWorker, watchNetwork } from './app-shell.ts'
import { mountBrowsePanel } from './browse-panel.ts'
import { mountConnectedSitesPanel } from './connected-sites-panel.ts'
import { createContext, EventBus, type OpenMemory } from './context.ts'
import { byId } from './dom.ts'
import { mountEncryptionSetting, openUnlocked } from './encryption-setting.ts'
import { describeError } from './field-errors.ts'
import { mountImportPanel } from './import-panel.ts'
import { mountMemoriesPanel } from './memories-panel.ts'
import { mountModelCard } from './model-card.ts'
import { mountModelPanel } from './model-panel.ts'
import { mountPagesPanel } from './pages-panel.ts'
import { mountRecallLogPanel } from './recall-log-panel.ts'
import { mountRecallPanel } from './recall-panel.ts'
import { mountRememberPanel } from './remember-panel.ts'
import { mountReviewPanel } from './review-panel.ts'
import { embedderChoice, readSettings } from './settings.ts'
import { mountSettingsPanel } from './settings-panel.ts'
import { mountStoragePanel } from './storage-panel.ts'
import { mountSyncPanel } from './sync-panel.ts'
import { mountTimelinePanel } from './timeline-panel.ts'
import { mountTransferPanel } from './transfer-panel.ts'

async function main(): Promise<void> {
  registerServiceWorker()
  watchNetwork()
  const settings = readSettings()
  const bus = new EventBus()
  const embedder = await embedderChoice(settings)
  const open: OpenMemory = (name, encryption) =>
    openMemory({ name, embedder, onEvent: bus.emit, ...(encryption && { encryption }) })
  const memory = await openUnlocked((encryption) => open(settings.memory, encryption))
  const ctx = createContext(memory, settings, bus, open)
  const version = byId('app-version')
  const label = () => {
    version.textContent = `Engram ${__ENGRAM_VERSION__} · memory “${ctx.settings.memory}”`
  }
  label()
  mountMemoriesPanel(ctx)
  mountModelCard()
  mountSettingsPanel(ctx)
  const model = mountModelPanel(ctx)
  mountRememberPanel(ctx)
  mountRecallPanel(ctx)
  mountAgentPanel(ctx)
  const browse = mountBrowsePanel(ctx)
  mountTimelinePanel(ctx)
  mountReviewPanel(ctx)
  mountPagesPanel(ctx)
  mountTransferPanel(ctx)
  mountImportPanel(ctx)
  mountStoragePanel(ctx)
  mountSyncPanel(ctx)
  mountEncryptionSetting(ctx)
  mountRecallLogPanel(ctx)
  const sites = mountConnectedSitesPanel(SiteGrants.open(), () => ctx.settings.memory)
  ctx.on('replaced', () => {
    label()
    void model.sync()
    void sites.refresh()
  })
  await Promise.all([browse.refresh(), model.sync()])
  // A handle for the console and the browser tests; `memory` follows a switch.
  Object.assign(globalThis, {
    engram: {
      get memory() {
        return ctx.memory
      },
      settings,
    },
  })
  document.body.dataset.ready = 'true'
  // Closing on the way out writes an index snapshot, so the next visit starts without a rebuild.
  addEventListener('pagehide', () => void ctx.memory.close())
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
