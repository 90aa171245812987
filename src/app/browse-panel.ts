import type { ListOptions, Memory } from '../index.ts'
import type { AppContext } from './context.ts'
import { busy, byId, formatTime, h, parseTags } from './dom.ts'
import { clearErrors, describeError, showError } from './field-errors.ts'

const PAGE_SIZE = 10

/** The "Browse" card: newest first, paged, filtered by type or tag; edit and forget in place. */
export function mountBrowsePanel(ctx: AppContext): { refresh(): Promise<void> } {
  const list = byId<HTMLUListElement>('browse-list')
  const filter = byId<HTMLFormElement>('browse-filter')
  const error = byId<HTMLParagraphElement>('browse-error')
  const prev = byId<HTMLButtonElement>('browse-prev')
  const next = byId<HTMLButtonElement>('browse-next')
  const pageLabel = byId<HTMLSpanElement>('browse-page')
  /** `cursors[i]` opens page i; page 0 needs none. */
  let cursors: (string | undefined)[] = [undefined]
  let page = 0
  let editing = false
  let shown = ''

  async function refresh(): Promise<void> {
    if (editing) return
    const data = new FormData(filter)
    const options: ListOptions = { limit: PAGE_SIZE, cursor: cursors[page] }
    const type = String(data.get('type') ?? '').trim()
    const tag = String(data.get('tag') ?? '').trim()
    if (type) options.type = type
    if (tag) options.tag = tag
    try {
      const result = await ctx.memory.list(options)
      error.hidden = true
      if (result.items.length === 0 && page > 0) {
        page--
        return refresh()
      }
      cursors = cursors.slice(0, page + 1)
      if (result.cursor) cursors.push(result.cursor)
      // Refreshes come in bursts (own write, change event, other tabs); re-rendering the same
      // page would reset a half-done action such as an armed Forget button.
      const signature = JSON.stringify([
        page,
        result.cursor,
        result.items.map((m) => [m.id, m.updatedAt, m.confirmations]),
      ])
      if (signature === shown && list.childElementCount > 0) return
      shown = signature
      list.replaceChildren(
        ...(result.items.length > 0
          ? result.items.map(renderItem)
          : [h('li', { class: 'empty', text: 'No memories yet.' })]),
      )
      prev.disabled = page === 0
      next.disabled = !result.cursor
      pageLabel.textContent = `Page ${page + 1}`
    } catch (failure) {
      error.textContent = describeError(failure)
      error.hidden = false
    }
  }

  function renderItem(memory: Memory): HTMLLIElement {
    const forget = h('button', { type: 'button', class: 'ghost danger', text: 'Forget' })
    const edit = h('button', { type: 'button', class: 'ghost', text: 'Edit' })
    const item = h(
      'li',
      { class: 'memory', 'data-id': memory.id },
      h('p', { class: 'memory-text', text: memory.text }),
      h(
        'div',
        { class: 'memory-meta' },
        h('span', { class: 'chip chip-type', text: memory.type }),
        ...memory.tags.map((tag) => h('span', { class: 'chip chip-tag', text: tag })),
        memory.flags.length > 0 && h('span', { class: 'chip chip-flag', text: 'flagged' }),
        h('span', {
          class: 'muted small',
          text: `${formatTime(memory.createdAt)}${memory.confirmations > 1 ? ` · confirmed ×${memory.confirmations}` : ''}`,
        }),
        h('span', { class: 'spacer' }),
        edit,
        forget,
      ),
    )
    let armed: ReturnType<typeof setTimeout> | undefined
    forget.addEventListener('click', async () => {
      // Two clicks, no modal: the first arms the button for a few seconds.
      if (!armed) {
        forget.textContent = 'Really forget?'
        armed = setTimeout(() => {
          armed = undefined
          forget.textContent = 'Forget'
        }, 4000)
        return
      }
      clearTimeout(armed)
      try {
        await busy(forget, () => ctx.memory.forget(memory.id))
        ctx.changed()
      } catch (failure) {
        error.textContent = describeError(failure)
        error.hidden = false
      }
    })
    edit.addEventListener('click', () => item.replaceWith(renderEditor(memory)))
    return item
  }

  function renderEditor(memory: Memory): HTMLLIElement {
    editing = true
    const form = h(
      'form',
      { class: 'editor', novalidate: true },
      h(
        'label',
        { class: 'field' },
        h('span', { text: 'Text' }),
        h('textarea', { name: 'text', rows: 3 }),
        h('p', { class: 'field-error', 'data-error-for': 'text', hidden: true }),
      ),
      h(
        'div',
        { class: 'row' },
        h(
          'label',
          { class: 'field' },
          h('span', { text: 'Type' }),
          h('input', { name: 'type', value: memory.type, list: 'type-options' }),
          h('p', { class: 'field-error', 'data-error-for': 'type', hidden: true }),
        ),
        h(
          'label',
          { class: 'field grow' },
          h('span', { text: 'Tags' }),
          h('input', { name: 'tags', value: memory.tags.join(', ') }),
          h('p', { class: 'field-error', 'data-error-for': 'tags', hidden: true }),
        ),
      ),
      h('p', { class: 'field-error', 'data-error-for': 'form', hidden: true }),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', text: 'Save' }),
        h('button', { type: 'button', class: 'ghost', 'data-action': 'cancel', text: 'Cancel' }),
      ),
    )
    const textarea = form.querySelector('textarea')!
    textarea.value = memory.text
    const done = (): void => {
      editing = false
      shown = ''
      void refresh()
    }
    form.querySelector('[data-action="cancel"]')!.addEventListener('click', done)
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      clearErrors(form)
      const data = new FormData(form)
      try {
        await ctx.memory.update(memory.id, {
          text: String(data.get('text') ?? ''),
          type: String(data.get('type') ?? '').trim() || memory.type,
          tags: parseTags(String(data.get('tags') ?? '')),
        })
        done()
        ctx.changed()
      } catch (failure) {
        showError(form, failure)
      }
    })
    return h('li', { class: 'memory editing', 'data-id': memory.id }, form)
  }

  filter.addEventListener('submit', (event) => {
    event.preventDefault()
    cursors = [undefined]
    page = 0
    void refresh()
  })
  prev.addEventListener('click', () => {
    page = Math.max(0, page - 1)
    void refresh()
  })
  next.addEventListener('click', () => {
    if (cursors[page + 1] === undefined) return
    page++
    void refresh()
  })
  ctx.onChanged(() => void refresh())
  return { refresh }
}
