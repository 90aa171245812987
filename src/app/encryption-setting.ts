/**
 * The "Encryption" setting: turn encryption at rest on while the memory is still empty, ask
 * for the passphrase when an encrypted memory opens, and lock it (the prompt then waits for the
 * passphrase again). The passphrase is never stored: not in localStorage, not in the URL.
 */
import { type AtRestSecret, EncryptionError, type MemoryClient } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, h, mountCard } from './dom.ts'
import { describeError, showFailure } from './field-errors.ts'

/** Opens the memory the app shows; `encryption` only for one that is (or becomes) encrypted. */
export type OpenWith = (encryption?: AtRestSecret) => Promise<MemoryClient>

/**
 * Opens the memory, asking for its passphrase (again after a wrong one) when it is encrypted.
 *
 * @example
 * const memory = await openUnlocked((encryption) => openMemory({ name, embedder, encryption }))
 * // an unencrypted memory opens at once; an encrypted one after the prompt is answered
 */
export async function openUnlocked(open: OpenWith): Promise<MemoryClient> {
  try {
    return await open()
  } catch (error) {
    if (!(error instanceof EncryptionError) || error.code !== 'KEY_REQUIRED') throw error
  }
  return askPassphrase('This memory is encrypted. Enter its passphrase to open it.', (passphrase) =>
    open({ passphrase }),
  )
}

/**
 * The card: turns encryption on while the memory is still empty (it is reopened encrypted in
 * place, so the passphrase just typed is not asked for again), and locks an encrypted one.
 */
export function mountEncryptionSetting(ctx: AppContext): { refresh(): Promise<void> } {
  const status = h('p', { id: 'encryption-status', class: 'muted', text: 'Checking…' })
  const lock = h('button', { type: 'button', text: 'Lock now', hidden: true })
  const form = enableForm(async (passphrase) => {
    // Encryption is chosen when a memory is opened: close this one and open it encrypted (it
    // is still empty); the panels carry on with the encrypted one.
    const name = ctx.settings.memory
    await ctx.memory.close()
    ctx.replace(await ctx.open(name, { passphrase }), name)
    form.reset()
  })
  mountCard('encryption', 'Encryption', status, h('div', { class: 'actions' }, lock), form)

  lock.addEventListener('click', () =>
    busy(lock, async () => {
      await ctx.memory.atRest.lock()
      // The keys are gone; the texts they opened must go too, before the prompt covers them.
      ctx.emit('locked')
      await askPassphrase(
        'Locked. Enter the passphrase to unlock this memory.',
        async (passphrase) => {
          await ctx.memory.atRest.unlock({ passphrase })
          return ctx.memory
        },
      )
      ctx.emit('changed')
    }),
  )

  async function refresh(): Promise<void> {
    const stats = await ctx.memory.inspect.stats().catch(() => undefined)
    const encrypted = stats?.atRest !== undefined
    status.dataset.state = encrypted ? 'encrypted' : 'plain'
    lock.hidden = !encrypted
    form.hidden = encrypted || (stats?.memories ?? 1) > 0
    status.textContent = encrypted
      ? 'Encrypted at rest: texts, tags, vectors, snapshots and recall queries are sealed (XChaCha20-Poly1305) under a key from your passphrase.'
      : form.hidden
        ? 'Not encrypted. Encryption is chosen when a memory is created: create an encrypted one in the Memories card, then export this one and import the file there.'
        : 'Not encrypted. Turn it on now, before the first memory is stored.'
  }

  ctx.on('changed', () => void refresh())
  ctx.on('replaced', () => void refresh())
  void refresh()
  return { refresh }
}

/** What is wrong with a new passphrase typed twice; '' when nothing is. */
export function passphraseProblem(first: string, again: string): string {
  if (first.length < 8) return 'Use at least 8 characters.'
  return first !== again ? 'The two passphrases differ.' : ''
}

/** The first-use form: a passphrase twice. */
function enableForm(enable: (passphrase: string) => Promise<void>): HTMLFormElement {
  const first = h('input', {
    name: 'passphrase',
    type: 'password',
    autocomplete: 'new-password',
    required: true,
  })
  const again = h('input', {
    name: 'confirm',
    type: 'password',
    autocomplete: 'new-password',
    required: true,
  })
  const error = h('p', { class: 'field-error', hidden: true })
  const submit = h('button', { type: 'submit', text: 'Encrypt this memory' })
  const form = h(
    'form',
    { novalidate: true, hidden: true },
    h('label', { class: 'field' }, h('span', { text: 'Passphrase' }), first),
    h('label', { class: 'field' }, h('span', { text: 'Passphrase again' }), again),
    h('p', {
      class: 'muted small',
      text: 'Forgotten, it cannot be recovered: nothing else opens the memory.',
    }),
    error,
    h('div', { class: 'actions' }, submit),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    error.hidden = true
    const problem = passphraseProblem(first.value, again.value)
    if (problem) {
      showFailure(error, problem)
      return
    }
    void busy(submit, () => enable(first.value)).catch((failure: unknown) =>
      showFailure(error, failure),
    )
  })
  return form
}

/**
 * A modal prompt that stays until `attempt(passphrase)` succeeds; a wrong passphrase says so and
 * asks again. Resolves with what the successful attempt returned.
 */
function askPassphrase<T>(
  message: string,
  attempt: (passphrase: string) => Promise<T>,
): Promise<T> {
  const input = h('input', {
    name: 'passphrase',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  })
  const error = h('p', { class: 'field-error', role: 'alert', hidden: true })
  const submit = h('button', { type: 'submit', text: 'Unlock' })
  const form = h(
    'form',
    { method: 'dialog', novalidate: true },
    h('p', { text: message }),
    h('label', { class: 'field' }, h('span', { text: 'Passphrase' }), input),
    error,
    h('div', { class: 'actions' }, submit),
  )
  const dialog = h('dialog', { class: 'card', id: 'unlock-dialog' }, form)
  document.body.append(dialog)
  // Escape would close the dialog and leave the app with a locked memory and no way back.
  dialog.addEventListener('cancel', (event) => event.preventDefault())
  dialog.showModal()
  return new Promise((resolve) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      error.hidden = true
      void busy(submit, async () => {
        try {
          const result = await attempt(input.value)
          dialog.close()
          dialog.remove()
          resolve(result)
        } catch (failure) {
          const wrong = failure instanceof EncryptionError && failure.code === 'WRONG_KEY'
          error.textContent = wrong
            ? 'That passphrase does not open this memory.'
            : describeError(failure)
          error.hidden = false
          input.select()
        }
      })
    })
  })
}
