import { EngramError, ImportFormatError, InvalidInputError, RejectedMemoryError } from '../index.ts'

/**
 * Shows typed errors next to the field that caused them. A form marks its message slots with
 * `data-error-for="text"`, `"tags"`, …, and one `data-error-for="form"` for the rest.
 */
export function showError(form: HTMLElement, error: unknown): void {
  clearErrors(form)
  const field = fieldOf(error)
  const slot =
    (field && form.querySelector<HTMLElement>(`[data-error-for="${field}"]`)) ||
    form.querySelector<HTMLElement>('[data-error-for="form"]')
  if (!slot) throw error
  slot.textContent = describeError(error)
  slot.hidden = false
  const input = field ? form.querySelector<HTMLElement>(`[name="${field}"]`) : null
  input?.setAttribute('aria-invalid', 'true')
}

export function clearErrors(form: HTMLElement): void {
  for (const slot of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
    slot.textContent = ''
    slot.hidden = true
  }
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid')
}

/** Shows an error that belongs to no field in a card's own message line. */
export function showFailure(slot: HTMLElement, failure: unknown): void {
  slot.textContent = describeError(failure)
  slot.hidden = false
}

/**
 * A sentence for a person, from the error's fields: an input error's `detail` (no field name:
 * it is shown beside the field), an import error's `line` and `detail`.
 */
export function describeError(error: unknown): string {
  if (error instanceof InvalidInputError) return capitalise(error.detail ?? error.message)
  if (error instanceof RejectedMemoryError) {
    return `Not stored: this looks like an instruction aimed at the assistant (${error.rules.join(', ')}).`
  }
  if (error instanceof ImportFormatError) {
    return `Line ${error.line}: ${error.detail ?? error.message}. Nothing from that batch was stored.`
  }
  if (error instanceof EngramError) return capitalise(error.message)
  if (error instanceof Error) return error.message
  return String(error)
}

/** The form field an error belongs to: `tags[2]` → `tags`, `options.k` → `k`. */
function fieldOf(error: unknown): string | undefined {
  if (error instanceof InvalidInputError) {
    const path = error.field.replace(/\[\d+\]/g, '').split('.')
    return path[path.length - 1]
  }
  if (error instanceof RejectedMemoryError) return 'text'
  if (error instanceof ImportFormatError) return 'file'
  return undefined
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
