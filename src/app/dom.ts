/** Tiny DOM helpers: the app has no framework. */

type Child = Node | string | null | undefined | false

/** The element with this id; a missing one is a bug in index.html, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (!element) throw new Error(`index.html lacks #${id}`)
  return element as T
}

/**
 * Creates an element. `props` keys are attributes, except `text` (textContent) and `class`.
 *
 * @example
 * h('span', { class: 'badge', title: 'found by both lists' }, 'both')
 * // => <span class="badge" title="found by both lists">both</span>
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue
    if (key === 'text') element.textContent = String(value)
    else element.setAttribute(key, value === true ? '' : String(value))
  }
  for (const child of children) if (child) element.append(child)
  return element
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B'
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)))
  const value = bytes / 1024 ** i
  return `${value >= 10 || i === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[i]}`
}

export function formatTime(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** Splits "a, b ,c" into tags; empty pieces are dropped so a trailing comma is harmless. */
export function parseTags(value: string): string[] {
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
}

/** Runs `task` with `button` disabled, so a double click cannot send twice. */
export async function busy<T>(button: HTMLButtonElement, task: () => Promise<T>): Promise<T> {
  button.disabled = true
  try {
    return await task()
  } finally {
    button.disabled = false
  }
}

/** The labels of every Forget button. */
export const FORGET = { label: 'Forget', confirm: 'Really forget?' } as const

/**
 * A button that asks twice, without a modal: the first click arms it (`confirm` label) for
 * `armedMs`, the second runs `task` with the button disabled. A failure goes to `onError`.
 *
 * @example
 * confirmButton(FORGET, () => memory.forget(id), show)
 * // => <button class="ghost danger">Forget</button>
 */
export function confirmButton(
  labels: { label: string; confirm: string; armedMs?: number },
  task: () => Promise<void>,
  onError: (failure: unknown) => void,
): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'ghost danger', text: labels.label })
  let armed: ReturnType<typeof setTimeout> | undefined
  button.addEventListener('click', async () => {
    if (!armed) {
      button.textContent = labels.confirm
      armed = setTimeout(() => {
        armed = undefined
        button.textContent = labels.label
      }, labels.armedMs ?? 4000)
      return
    }
    clearTimeout(armed)
    armed = undefined
    button.textContent = labels.label
    try {
      await busy(button, task)
    } catch (failure) {
      onError(failure)
    }
  })
  return button
}
