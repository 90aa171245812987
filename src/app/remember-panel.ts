import type { AppContext } from './context.ts'
import { field, formOf, h, mountCard, parseTags, textInput } from './dom.ts'
import { PLAINTEXT } from './plaintext.ts'
import { action } from './view.ts'

/** The types the type fields offer (`#type-options`); any other may be typed. */
const TYPE_CHOICES = ['fact', 'skill', 'log', 'page'] as const

/** The "Remember" card: text, type and tags; duplicates are reported, not stored twice. */
export function mountRememberPanel(ctx: AppContext): void {
  const text = h('textarea', {
    name: 'text',
    rows: 3,
    placeholder: "Priya is the owner's sister-in-law",
    required: true,
    [PLAINTEXT]: true,
  })
  const type = h('input', { name: 'type', list: 'type-options', value: 'fact' })
  type.autocomplete = 'off'
  const tags = textInput('tags', 'family, people')
  const submit = h('button', { type: 'submit', class: 'primary', text: 'Remember' })
  const result = h('output', { id: 'remember-result', class: 'result' })
  const form = formOf(
    'remember-form',
    [
      field('Fact', text),
      h(
        'div',
        { class: 'row' },
        field('Type', type),
        field(['Tags', 'comma separated'], tags, { class: 'grow' }),
      ),
    ],
    h('div', { class: 'actions' }, submit, result),
  )
  const types = h(
    'datalist',
    { id: 'type-options' },
    ...TYPE_CHOICES.map((choice) => h('option', { value: choice })),
  )
  mountCard('remember', 'Remember', form, types)

  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit()
  })
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    result.textContent = ''
    void action(form, submit, async () => {
      const outcome = await ctx.memory.remember(text.value, {
        type: type.value.trim() || undefined,
        tags: parseTags(tags.value),
        source: 'user',
      })
      if (outcome.status === 'created') {
        result.textContent = outcome.flags?.length
          ? `Remembered, flagged: ${outcome.flags.join(', ')}`
          : 'Remembered ✓'
        text.value = ''
      } else {
        const how =
          outcome.match === 'near' && outcome.similarity !== undefined
            ? `a near duplicate, cosine ${outcome.similarity.toFixed(3)}`
            : 'the same text'
        result.textContent = `Already known (${how}): confirmed the existing memory.`
      }
      result.dataset.status = outcome.status
      ctx.emit('changed')
      text.focus()
    })
  })
}
