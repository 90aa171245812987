import type { AppContext } from './context.ts'
import { byId, formatBytes, h, mountCard } from './dom.ts'
import { counted } from './words.ts'

/** The "Storage" card: bytes used of the quota, and a request for persistent storage. */
export function mountStoragePanel(ctx: AppContext): { refresh(): Promise<void> } {
  const bar = h('div', { id: 'storage-bar', class: 'meter-fill' })
  const text = h('p', { id: 'storage-text', class: 'muted', text: 'Measuring…' })
  const button = h('button', {
    id: 'persist-button',
    type: 'button',
    text: 'Keep my data (persistent storage)',
  })
  const persistText = h('p', { id: 'persist-text', class: 'muted small' })
  mountCard(
    'storage',
    'Storage',
    h('div', { class: 'meter' }, bar),
    text,
    h('div', { class: 'actions' }, button),
    persistText,
  )
  const count = byId('memory-count')
  const storage = navigator.storage as StorageManager | undefined

  async function refresh(): Promise<void> {
    const memories = await ctx.memory.count().catch(() => undefined)
    if (memories !== undefined) count.textContent = counted(memories, 'memory', 'memories')
    if (!storage?.estimate) {
      text.textContent = 'This browser does not report storage use.'
      return
    }
    const { usage = 0, quota = 0 } = await storage.estimate()
    const fraction = quota > 0 ? usage / quota : 0
    bar.style.width = `${Math.max(0.5, Math.min(100, fraction * 100)).toFixed(1)}%`
    text.textContent = `${formatBytes(usage)} used of ${formatBytes(quota)} (${(fraction * 100).toFixed(fraction < 0.01 ? 2 : 1)}%)`
  }

  async function showPersisted(): Promise<void> {
    if (!storage?.persisted) {
      button.hidden = true
      persistText.textContent = 'This browser cannot pin storage.'
      return
    }
    const persisted = await storage.persisted()
    button.disabled = persisted
    persistText.textContent = persisted
      ? 'Persistent: the browser will not evict this data to free space.'
      : 'Best effort: the browser may evict this data when the disk is nearly full.'
  }

  button.addEventListener('click', async () => {
    // persist() must be asked from the page: workers cannot show the permission prompt.
    const granted = await storage?.persist?.()
    await showPersisted()
    if (!granted)
      persistText.textContent = 'The browser declined for now (it decides by how you use the site).'
  })

  ctx.on('changed', () => void refresh())
  void showPersisted()
  void refresh()
  return { refresh }
}
