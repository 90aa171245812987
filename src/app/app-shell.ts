import { Workbox } from 'workbox-window'
import { byId } from './dom.ts'

/**
 * Registers the service worker (production builds only) and shows the "new version" banner
 * when an update is installed and waiting. Reloading activates it.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const banner = byId('update-banner')
  const reload = byId<HTMLButtonElement>('update-reload')
  const base = import.meta.env.BASE_URL
  const wb = new Workbox(`${base}sw.js`, { scope: base })
  wb.addEventListener('waiting', () => {
    banner.hidden = false
    reload.onclick = () => {
      reload.disabled = true
      wb.addEventListener('controlling', () => location.reload())
      wb.messageSkipWaiting()
    }
  })
  wb.addEventListener('activated', () => showNetworkState())
  wb.register().catch((error: unknown) => {
    console.warn('service worker registration failed; the app works online only', error)
  })
}

/** The header badge: online/offline, and whether this page can reload without a network. */
export function watchNetwork(): void {
  addEventListener('online', showNetworkState)
  addEventListener('offline', showNetworkState)
  navigator.serviceWorker?.addEventListener('controllerchange', showNetworkState)
  showNetworkState()
}

function showNetworkState(): void {
  const badge = byId('offline-badge')
  const online = navigator.onLine
  const cached = Boolean(navigator.serviceWorker?.controller)
  badge.textContent = online ? (cached ? 'online · works offline' : 'online') : 'offline'
  badge.dataset.state = online ? 'online' : 'offline'
  badge.title = cached
    ? 'The app shell, the worker and ONNX Runtime are cached: it reloads without a network.'
    : 'Not cached yet: reload once while online to make the app work offline.'
}
