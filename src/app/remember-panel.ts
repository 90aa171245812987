import type { AppContext } from './context.ts'
import { busy, byId, parseTags } from './dom.ts'
import { clearErrors, showError } from './field-errors.ts'

/** The "Remember" card: text, type and tags; duplicates are reported, not stored twice. */
export function mountRememberPanel(ctx: AppContext): void {
  const form = byId<HTMLFormElement>('remember-form')
  const result = byId<HTMLOutputElement>('remember-result')
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const text = form.elements.namedItem('text') as HTMLTextAreaElement
  const type = form.elements.namedItem('type') as HTMLInputElement
  const tags = form.elements.namedItem('tags') as HTMLInputElement

  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit()
  })
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    clearErrors(form)
    result.textContent = ''
    try {
      const outcome = await busy(submit, () =>
        ctx.memory.remember(text.value, {
          type: type.value.trim() || undefined,
          tags: parseTags(tags.value),
          source: 'user',
        }),
      )
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
      ctx.changed()
      text.focus()
    } catch (error) {
      showError(form, error)
    }
  })
}
