/** Tiny DOM helpers: the app has no framework. */
import { PLAINTEXT } from './plaintext.ts'

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

/**
 * Fills the card slot `#<name>-panel` of index.html with a heading (`#<name>-title`) and
 * `children`: every card is built in TypeScript and index.html only orders the slots. A card
 * with controls beside its heading passes them as `aside`.
 *
 * @example
 * mountCard('storage', 'Storage', meter, text)
 * // => <section class="card" id="storage-panel" aria-labelledby="storage-title"><h2 …>Storage</h2>…
 */
export function mountCard(
  name: string,
  title: string | { title: string; aside: Child },
  ...children: Child[]
): HTMLElement {
  const slot = byId(`${name}-panel`)
  const text = typeof title === 'string' ? title : title.title
  const heading = h('h2', { id: `${name}-title`, text })
  slot.setAttribute('aria-labelledby', heading.id)
  slot.replaceChildren(
    typeof title === 'string' ? heading : h('div', { class: 'card-head' }, heading, title.aside),
    ...children.filter((child): child is Node | string => Boolean(child)),
  )
  return slot
}

/**
 * A labelled field with its error slot (`data-error-for`, for `field-errors.ts`); a label given
 * as `[label, hint]` shows the hint small beside it.
 */
export function field(
  label: string | [label: string, hint: string],
  control: HTMLElement,
  options: { class?: string } = {},
): HTMLLabelElement {
  const name = control.getAttribute('name')
  return h(
    'label',
    { class: options.class ? `field ${options.class}` : 'field' },
    typeof label === 'string'
      ? h('span', { text: label })
      : h('span', {}, `${label[0]} `, h('small', { text: label[1] })),
    control,
    name !== null && h('p', { class: 'field-error', 'data-error-for': name, hidden: true }),
  )
}

/** The error slot of a form for failures that name no field of it. */
export function formError(): HTMLParagraphElement {
  return h('p', { class: 'field-error', 'data-error-for': 'form', hidden: true })
}

/** A form of `fields`, then its error slot for failures that name no field, then `after`. */
export function formOf(id: string, fields: Child[], ...after: Child[]): HTMLFormElement {
  return h('form', { id, novalidate: true }, ...fields, formError(), ...after)
}

/** A one-line input for text that may be memory text: marked to be wiped on a lock. */
export function textInput(
  name: string,
  placeholder: string,
  props: Record<string, string | number | boolean | undefined> = {},
): HTMLInputElement {
  return h('input', { name, placeholder, autocomplete: 'off', [PLAINTEXT]: true, ...props })
}

/** A button that submits nothing. */
export function button(
  text: string,
  props: Record<string, string | number | boolean | undefined> = {},
): HTMLButtonElement {
  return h('button', { type: 'button', ...props, text })
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

/** The attribute a {@link keyedList} marks each element with, holding its item's key. */
const KEY = 'data-key'

/** Set on an element a refresh must leave as it is: an open editor ({@link editInPlace}). */
const EDITING = 'data-editing'

/** What each element of a keyed list was rendered from ({@link KeyedListOptions.version}). */
const versions = new WeakMap<Node, string>()

export interface KeyedListOptions<T> {
  /**
   * What must change for an item's element to be rendered again; the same version keeps the
   * element (and a half-done action on it, such as an armed Forget button).
   * @default () => '' (an element is kept for as long as its key is listed)
   * @example
   * { version: (memory) => `${memory.updatedAt}` }
   */
  version?: (item: T) => string
  /** The element shown, alone, when there are no items (an "empty" line). */
  empty?: () => Element
}

/**
 * Makes `parent`'s children one element per item, in the items' order: an element whose key is
 * still listed (and whose version is the same) is kept and moved, a new item's is rendered, the
 * rest are removed. An element being edited ({@link editInPlace}) is never replaced or removed.
 *
 * @example
 * keyedList(list, pages, (page) => page.pageId, renderPage, { version: (p) => `${p.updatedAt}` })
 * // => list holds one <li data-key="…"> per page, the unchanged ones the same elements as before
 */
export function keyedList<T>(
  parent: Element,
  items: readonly T[],
  key: (item: T) => string,
  render: (item: T) => Element,
  options: KeyedListOptions<T> = {},
): void {
  const shown = new Map<string, Element>()
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element
    const k = element.getAttribute?.(KEY)
    if (k !== null && k !== undefined) shown.set(k, element)
  }
  const wanted: Node[] = []
  const placed = new Set<string>()
  for (const item of items) {
    const k = key(item)
    if (placed.has(k)) continue
    placed.add(k)
    const version = options.version?.(item) ?? ''
    const old = shown.get(k)
    if (old && (old.hasAttribute(EDITING) || versions.get(old) === version)) {
      wanted.push(old)
      continue
    }
    const element = render(item)
    element.setAttribute(KEY, k)
    versions.set(element, version)
    wanted.push(element)
  }
  // An editor whose item left the list (forgotten elsewhere, another page) stays, first.
  for (const [k, element] of shown) {
    if (!placed.has(k) && element.hasAttribute(EDITING)) wanted.unshift(element)
  }
  if (wanted.length === 0 && options.empty) wanted.push(options.empty())
  let cursor = parent.firstChild
  for (const node of wanted) {
    if (node === cursor) cursor = cursor.nextSibling
    else parent.insertBefore(node, cursor)
  }
  while (cursor) {
    const next = cursor.nextSibling
    parent.removeChild(cursor)
    cursor = next
  }
}

/**
 * Puts `editor` in `row`'s place in a {@link keyedList}; refreshes leave it alone until `done`
 * is called, and the next refresh renders the row again.
 */
export function editInPlace(row: Element, editor: Element): { done(): void } {
  const k = row.getAttribute(KEY)
  if (k !== null) editor.setAttribute(KEY, k)
  editor.setAttribute(EDITING, '')
  row.replaceWith(editor)
  return { done: () => editor.removeAttribute(EDITING) }
}
