import { type SyncHandle, type SyncStatus, startingSyncStatus } from '../index.ts'
import type { AppContext } from './context.ts'
import { h, mountCard } from './dom.ts'
import { describeError } from './field-errors.ts'
import { probeServer, reachHint } from './sync-probe.ts'

/** Where the server URL is remembered between visits (the passphrase never is). */
const URL_KEY = 'engram:sync-url'
/** The server user is remembered too; its password, like the passphrase, never is. */
const USER_KEY = 'engram:sync-user'

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
 * The "Sync" card: a CouchDB-protocol server URL, the server user and password (`auth`, as a
 * production CouchDB needs), a passphrase, Start and Stop, a status badge and the counts. The
 * passphrase and the password go straight to `memory.sync.start()` and their fields are cleared: they
 * are kept nowhere on this side, in memory or storage (the worker holds only the derived keys
 * while the sync runs). When the server cannot be used from this page the card says whether it
 * refuses the page's origin (CORS, with the settings that allow it) or nothing answers.
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
  const passphrase = secretInput('sync-passphrase', 'off', 'passphrase (the same on every device)')
  passphrase.required = true
  const username = h('input', {
    id: 'sync-username',
    autocomplete: 'username',
    placeholder: 'optional: the server user',
  })
  username.value = localStorage.getItem(USER_KEY) ?? ''
  const password = secretInput('sync-password', 'current-password', 'the server user’s password')
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
  const hint = h('p', { id: 'sync-hint', class: 'notice warn small', hidden: true })
  const field = (label: string, input: HTMLInputElement) =>
    h('label', { class: 'field' }, h('span', { text: label }), input)
  const form = h(
    'form',
    { id: 'sync-form' },
    field('Server database URL', url),
    h('div', { class: 'row' }, field('Server user', username), field('Server password', password)),
    field('Passphrase (encrypts the memory)', passphrase),
    h('div', { class: 'actions' }, start, stop, badge),
  )
  mountCard(
    'sync',
    'Sync',
    h('p', {
      class: 'muted small',
      text: 'Keeps this memory in step with your other devices through a CouchDB server. Everything is encrypted here first: the server sees ciphertext only.',
    }),
    form,
    detail,
    error,
    hint,
  )

  let handle: SyncHandle | undefined
  let applied = 0
  let diagnosed = ''
  const show = (status: SyncStatus | undefined): void => {
    const state = status?.state ?? 'off'
    badge.dataset.state = state
    badge.textContent = STATE_TEXT[state]
    detail.textContent = status
      ? `${status.pushed} sent · ${status.pulled} received · ${status.conflicts} merged`
      : ''
    error.textContent = status?.error ? status.error.message : ''
    // A server that stops answering mid-sync gets the same diagnosis as one refused at start.
    const message = status?.error?.message ?? ''
    if (message !== '' && message !== diagnosed) void explainReach(url.value)
    diagnosed = message
    const running = status !== undefined && !['complete', 'stopped', 'error'].includes(state)
    start.disabled = running
    stop.disabled = !running
    // Remote changes are news to the other cards (the browse list, the counts).
    if (status && status.applied > applied) ctx.emit('changed')
    applied = status?.applied ?? 0
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const secret = passphrase.value
    passphrase.value = ''
    error.textContent = ''
    hint.hidden = true
    start.disabled = true
    const auth = username.value.trim()
      ? { username: username.value.trim(), password: password.value }
      : undefined
    password.value = ''
    show(startingSyncStatus())
    localStorage.setItem(URL_KEY, url.value)
    localStorage.setItem(USER_KEY, username.value.trim())
    ctx.memory.sync
      .start({ url: url.value, passphrase: secret, ...(auth && { auth }) })
      .then((started) => {
        handle = started
        started.on(show)
        show(started.status)
      })
      .catch(async (failure: unknown) => {
        show(undefined)
        error.textContent = describeError(failure)
        await explainReach(url.value)
      })
  })

  /** Adds why the server cannot be used from here (CORS, nothing there) and what to do. */
  async function explainReach(target: string): Promise<void> {
    const reach = await probeServer(target)
    hint.textContent = reachHint(reach, location.origin, target)
    hint.dataset.reach = reach
    hint.hidden = hint.textContent === ''
  }

  stop.addEventListener('click', () => {
    stop.disabled = true
    void handle?.stop().then(() => show(handle?.status))
  })
  // The memory switched in place: its sync ended with it.
  ctx.on('replaced', () => {
    handle = undefined
    show(undefined)
    hint.hidden = true
  })
}

/** A password field: kept by nothing but the field itself, and cleared once sent. */
function secretInput(id: string, autocomplete: string, placeholder: string): HTMLInputElement {
  return h('input', { id, type: 'password', autocomplete, placeholder })
}
