import type { Memory, MemoryPatch } from '../index.ts'
import { field, formError, h, parseTags } from './dom.ts'
import { action } from './view.ts'

/**
 * A memory's row turned into a form for its text, type and tags. `save` writes the patch (a
 * typed error is shown beside its field and the form stays); `done` follows a save or Cancel.
 */
export function renderEditor(
  memory: Memory,
  save: (patch: MemoryPatch) => Promise<void>,
  done: () => void,
): HTMLLIElement {
  const text = h('textarea', { name: 'text', rows: 3 })
  text.value = memory.text
  const type = h('input', { name: 'type', value: memory.type, list: 'type-options' })
  const tags = h('input', { name: 'tags', value: memory.tags.join(', ') })
  const cancel = h('button', {
    type: 'button',
    class: 'ghost',
    'data-action': 'cancel',
    text: 'Cancel',
  })
  const form = h(
    'form',
    { class: 'editor', novalidate: true },
    field('Text', text),
    h('div', { class: 'row' }, field('Type', type), field('Tags', tags, { class: 'grow' })),
    formError(),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', text: 'Save' }),
      cancel,
    ),
  )
  cancel.addEventListener('click', done)
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const patch: MemoryPatch = {
      text: text.value,
      type: type.value.trim() || memory.type,
      tags: parseTags(tags.value),
    }
    if (await action(form, undefined, () => save(patch))) done()
  })
  return h('li', { class: 'memory editing', 'data-id': memory.id }, form)
}
