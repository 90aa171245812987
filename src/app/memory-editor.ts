import type { Memory, MemoryPatch } from '../index.ts'
import { h, parseTags } from './dom.ts'
import { clearErrors, showError } from './field-errors.ts'

/**
 * A memory's row turned into a form for its text, type and tags. `save` writes the patch (a
 * typed error is shown beside its field and the form stays); `done` follows a save or Cancel.
 */
export function renderEditor(
  memory: Memory,
  save: (patch: MemoryPatch) => Promise<void>,
  done: () => void,
): HTMLLIElement {
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
  form.querySelector('[data-action="cancel"]')!.addEventListener('click', done)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    clearErrors(form)
    const data = new FormData(form)
    try {
      await save({
        text: String(data.get('text') ?? ''),
        type: String(data.get('type') ?? '').trim() || memory.type,
        tags: parseTags(String(data.get('tags') ?? '')),
      })
      done()
    } catch (failure) {
      showError(form, failure)
    }
  })
  return h('li', { class: 'memory editing', 'data-id': memory.id }, form)
}
