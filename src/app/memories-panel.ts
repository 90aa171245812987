/**
 * The "Memories" card: the memory shown, the others on this device (open, delete), and a form
 * to create one by name, encrypted at rest or not (encryption is chosen at creation; to encrypt
 * an existing memory, export it and import the file into a new encrypted one). Switching
 * happens in place (`AppContext.replace`) and is saved as the memory the app opens next time.
 */
import type { AppContext } from './context.ts'
import { busy, confirmButton, h, keyedList, mountCard } from './dom.ts'
import { openUnlocked, passphraseProblem } from './encryption-setting.ts'
import { showFailure } from './field-errors.ts'
import { saveSettings } from './settings.ts'

/** The IndexedDB database a memory lives in (`storage/database.ts` names it so). */
const DATABASE_PREFIX = 'engram:'

/** The longest memory name the form takes. */
const NAME_MAX = 64

/** The memories stored in this browser, by name, sorted; `[]` where the browser cannot list. */
export async function storedMemories(): Promise<string[]> {
  const databases = await indexedDB.databases?.().catch(() => [])
  return (databases ?? [])
    .map((db) => db.name ?? '')
    .filter((name) => name.startsWith(DATABASE_PREFIX))
    .map((name) => name.slice(DATABASE_PREFIX.length))
    .sort()
}

/** What is wrong with a name for a new memory; '' when nothing is. */
export function memoryNameProblem(name: string, existing: readonly string[]): string {
  if (name === '') return 'Give the memory a name.'
  if ([...name].length > NAME_MAX) return `Use at most ${NAME_MAX} characters.`
  if (!/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u.test(name))
    return 'Use letters, digits, spaces, dots, dashes and underscores, starting with a letter or digit.'
  return existing.includes(name) ? `A memory called “${name}” exists already: open it instead.` : ''
}

export function mountMemoriesPanel(ctx: AppContext): { refresh(): Promise<void> } {
  const current = h('p', { id: 'memory-current' })
  const list = h('ul', { id: 'memories-list', class: 'memories-list' })
  const error = h('p', { id: 'memories-error', class: 'field-error', role: 'alert', hidden: true })
  const create = createForm(async (name, passphrase) => {
    await switchTo(name, passphrase)
  })
  mountCard(
    'memories',
    'Memories',
    current,
    list,
    error,
    h('details', { id: 'memory-create' }, h('summary', { text: 'New memory' }), create.form),
  )

  /** Closes the memory shown and shows `name` instead, asking its passphrase if it has one. */
  async function switchTo(name: string, newPassphrase?: string): Promise<void> {
    const previous = ctx.settings.memory
    await ctx.memory.close()
    try {
      const next = newPassphrase
        ? await ctx.open(name, { passphrase: newPassphrase })
        : await openUnlocked((encryption) => ctx.open(name, encryption))
      ctx.replace(next, name)
    } catch (failure) {
      // The memory shown stays the one it was.
      ctx.replace(await openUnlocked((encryption) => ctx.open(previous, encryption)), previous)
      throw failure
    }
    saveSettings({ memory: name })
    // A `?memory=` in the address would open the other one on reload.
    const url = new URL(location.href)
    if (url.searchParams.has('memory')) {
      url.searchParams.delete('memory')
      history.replaceState(null, '', url)
    }
  }

  async function refresh(): Promise<void> {
    const shown = ctx.settings.memory
    const known = [...new Set([...(await storedMemories()), shown])].sort()
    create.existing = known
    current.replaceChildren('Showing ', h('strong', { text: shown }))
    keyedList(
      list,
      known.filter((name) => name !== shown),
      (name) => name,
      renderItem,
      {
        empty: () =>
          h('li', { class: 'empty muted small', text: 'No other memory on this device.' }),
      },
    )
  }

  function renderItem(name: string): HTMLLIElement {
    const open = h('button', { type: 'button', class: 'ghost', text: 'Open' })
    open.addEventListener(
      'click',
      () => void busy(open, () => switchTo(name)).then(refresh, showError),
    )
    const remove = confirmButton(
      { label: 'Delete', confirm: 'Really delete?' },
      async () => {
        await deleteMemory(name)
        await refresh()
      },
      showError,
    )
    return h(
      'li',
      { class: 'memory-choice', 'data-memory': name },
      h('span', { class: 'memory-name', text: name }),
      h('span', { class: 'spacer' }),
      open,
      remove,
    )
  }

  const showError = (failure: unknown): void => showFailure(error, failure)

  ctx.on('replaced', () => {
    error.hidden = true
    void refresh()
  })
  void refresh()
  return { refresh }
}

/** Deletes a memory that is not shown; another tab holding it open blocks it, and says so. */
function deleteMemory(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(`${DATABASE_PREFIX}${name}`)
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error)
    request.onblocked = () =>
      reject(new Error(`“${name}” is open in another tab: close it there, then delete it.`))
  })
}

/** The "New memory" form: a name, and a passphrase twice when it is to be encrypted. */
function createForm(create: (name: string, passphrase?: string) => Promise<void>): {
  form: HTMLFormElement
  existing: string[]
} {
  const state = { existing: [] as string[] }
  const name = h('input', { name: 'name', autocomplete: 'off', required: true })
  const encrypt = h('input', { type: 'checkbox', name: 'encrypt' })
  const first = h('input', { name: 'passphrase', type: 'password', autocomplete: 'new-password' })
  const again = h('input', { name: 'confirm', type: 'password', autocomplete: 'new-password' })
  const secret = h(
    'div',
    { class: 'memory-secret', hidden: true },
    h('label', { class: 'field' }, h('span', { text: 'Passphrase' }), first),
    h('label', { class: 'field' }, h('span', { text: 'Passphrase again' }), again),
    h('p', {
      class: 'muted small',
      text: 'Forgotten, it cannot be recovered: nothing else opens the memory.',
    }),
  )
  const error = h('p', { class: 'field-error', role: 'alert', hidden: true })
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Create and open' })
  const form = h(
    'form',
    { id: 'memory-create-form', novalidate: true },
    h('label', { class: 'field' }, h('span', { text: 'Name' }), name),
    h('label', { class: 'check' }, encrypt, 'Encrypt at rest (chosen now, for good)'),
    secret,
    h('p', {
      class: 'muted small',
      text: 'To encrypt a memory you have: create an encrypted one here, export the old one (Import and export), open the new one and import the file.',
    }),
    error,
    h('div', { class: 'actions' }, submit),
  )
  encrypt.addEventListener('change', () => {
    secret.hidden = !encrypt.checked
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    error.hidden = true
    const wanted = name.value.trim()
    const problem =
      memoryNameProblem(wanted, state.existing) ||
      (encrypt.checked ? passphraseProblem(first.value, again.value) : '')
    if (problem) {
      showFailure(error, problem)
      return
    }
    const passphrase = encrypt.checked ? first.value : undefined
    void busy(submit, () => create(wanted, passphrase)).then(
      () => {
        form.reset()
        secret.hidden = true
      },
      (failure: unknown) => showFailure(error, failure),
    )
  })
  return {
    form,
    get existing() {
      return state.existing
    },
    set existing(names) {
      state.existing = names
    },
  }
}
