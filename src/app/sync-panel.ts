import type { SyncHandle, SyncStatus } from '../index.ts'
import type { AppContext } from './context.ts'
import { byId, h } from './dom.ts'
import { describeError } from './field-errors.ts'

/** Where the server URL is remembered between visits (the passphrase never is). */
const URL_KEY = 'engram:sync-url'

const STATE_TEXT: Record<SyncStatus['state'] | 'off', string> = {
  off: 'off',
  starting: 'starting',
  active: 'syncing',
  paused: 'up to date',
  complete: 'complete',
  stopped: 'stopped',
  error: 'error',
}

/**
 * The "Sync" card: a CouchDB-protocol server URL, a passphrase, Start and Stop, a status badge
 * and the counts. The passphrase goes straight to `memory.sync()` and the field is cleared: it
 * is kept nowhere on this side, in memory or storage (the worker holds only the derived keys
 * while the sync runs). The card is built here and placed after the Storage card.
 */
export function mountSyncPanel(ctx: AppContext): void {
  const url = h('input', {
    id: 'sync-url',
    type: 'url',
    placeholder: 'https://couch.example/alice-memory',
    autocomplete: 'url',
    required: true,
  })
  url.value = localStorage.getItem(URL_KEY) ?? ''
  const passphrase = h('input', {
    id: 'sync-passphrase',
    type: 'password',
    autocomplete: 'off',
    placeholder: 'passphrase (the same on every device)',
    required: true,
  })
  const start = h('button', {
    id: 'sync-start',
    type: 'submit',
    class: 'primary',
    text: 'Start sync',
  })
  const stop = h('button', { id: 'sync-stop', type: 'button', class: 'ghost', text: 'Stop' })
  stop.disabled = true
  const badge = h('span', { id: 'sync-state', class: 'badge', 'data-state': 'off', text: 'off' })
  const detail = h('p', { id: 'sync-detail', class: 'muted small' })
  const error = h('p', { id: 'sync-error', class: 'field-error', role: 'alert' })
  const field = (label: string, input: HTMLInputElement) =>
    h('label', { class: 'field' }, h('span', { text: label }), input)
  const form = h(
    'form',
    { id: 'sync-form' },
    field('Server database URL', url),
    field('Passphrase', passphrase),
    h('div', { class: 'actions' }, start, stop, badge),
  )
  const card = h(
    'section',
    { class: 'card', id: 'sync-panel', 'aria-labelledby': 'sync-title' },
    h('h2', { id: 'sync-title', text: 'Sync' }),
    h('p', {
      class: 'muted small',
      text: 'Keeps this memory in step with your other devices through a CouchDB server. Everything is encrypted here first: the server sees ciphertext only.',
    }),
    form,
    detail,
    error,
  )
  byId('storage-title').closest('section')?.after(card)

  let handle: SyncHandle | undefined
  let applied = 0
  const show = (status: SyncStatus | undefined): void => {
    const state = status?.state ?? 'off'
    badge.dataset.state = state
    badge.textContent = STATE_TEXT[state]
    detail.textContent = status
      ? `${status.pushed} sent · ${status.pulled} received · ${status.conflicts} merged`
      : ''
    error.textContent = status?.error ? status.error.message : ''
    const running = status !== undefined && !['complete', 'stopped', 'error'].includes(state)
    start.disabled = running
    stop.disabled = !running
    // Remote changes are news to the other cards (the browse list, the counts).
    if (status && status.applied > applied) ctx.changed()
    applied = status?.applied ?? 0
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const secret = passphrase.value
    passphrase.value = ''
    error.textContent = ''
    start.disabled = true
    show({ state: 'starting', pushed: 0, pulled: 0, applied: 0, conflicts: 0, nearDuplicates: 0 })
    localStorage.setItem(URL_KEY, url.value)
    ctx.memory
      .sync({ url: url.value, passphrase: secret })
      .then((started) => {
        handle = started
        started.on(show)
        show(started.status)
      })
      .catch((failure: unknown) => {
        show(undefined)
        error.textContent = describeError(failure)
      })
  })

  stop.addEventListener('click', () => {
    stop.disabled = true
    void handle?.stop().then(() => show(handle?.status))
  })
}
