/**
 * The two shapes a card's code takes: a {@link view} (data loaded from the memory, drawn, and
 * drawn again on a signal) and an {@link action} (a form or button that writes, shows how it went
 * and puts a failure beside the field it names). Each owns the try/catch a card would repeat.
 */
import { busy } from './dom.ts'
import { clearErrors, showError, showFailure } from './field-errors.ts'

export interface ViewOptions {
  /**
   * The card's message line: a failure to load is written there, and it is hidden again by
   * the next load that works.
   */
  error: HTMLElement
  /** Marked `data-state="loading" | "ready" | "failed"` and `aria-busy` while loading. */
  root?: HTMLElement
  /** Runs when a load fails, after the message is shown (clear what the failed load left). */
  failed?: (failure: unknown) => void
}

export interface View {
  /**
   * Loads and draws again. Only the latest load is drawn: one that finishes after a newer one
   * started is dropped, and one that never settles (a call to a memory closed meanwhile) holds
   * nothing back.
   */
  refresh(): Promise<void>
}

/**
 * A card's data: `load` reads it, `render` draws it; a failure of either is shown in `error`.
 *
 * @example
 * const pages = view(() => ctx.memory.pages.list(), (list) => keyedList(…), { error })
 * ctx.on('changed', pages.refresh)
 * // => the list drawn again after every change; a failure's message in `error`, until one works
 */
export function view<T>(
  load: () => Promise<T>,
  render: (data: T) => void,
  options: ViewOptions,
): View {
  let latest = 0
  const mark = (state: 'loading' | 'ready' | 'failed'): void => {
    if (!options.root) return
    options.root.dataset.state = state
    if (state === 'loading') options.root.setAttribute('aria-busy', 'true')
    else options.root.removeAttribute('aria-busy')
  }

  async function refresh(): Promise<void> {
    const ticket = ++latest
    mark('loading')
    try {
      const data = await load()
      if (ticket !== latest) return
      render(data)
      options.error.hidden = true
      mark('ready')
    } catch (failure) {
      if (ticket !== latest) return
      showFailure(options.error, failure)
      mark('failed')
      options.failed?.(failure)
    }
  }
  return { refresh }
}

/**
 * Runs a form's write: its error slots cleared, `button` disabled meanwhile, and a failure shown
 * beside the field it names (`field-errors.ts`), then handed to `failed`. Resolves true when the
 * task succeeded.
 *
 * @example
 * form.addEventListener('submit', () => void action(form, submit, () => ctx.memory.remember(text)))
 * // => true once stored; false with "Expected a text, got nothing" under the text field
 */
export async function action(
  form: HTMLElement,
  button: HTMLButtonElement | undefined,
  task: () => Promise<unknown>,
  failed?: (failure: unknown) => void,
): Promise<boolean> {
  clearErrors(form)
  try {
    await (button ? busy(button, task) : task())
    return true
  } catch (failure) {
    failed?.(failure)
    showError(form, failure)
    return false
  }
}
