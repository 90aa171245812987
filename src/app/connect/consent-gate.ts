/**
 * Which input the consent prompt takes, as a pure state machine over an injected clock: the
 * page feeds it what it observes (the prompt seen or not, focus moves, presses, clicks) and asks
 * it whether a click counts. Kept apart from the DOM so the timing rules are tested with a clock,
 * not by sleeping.
 */

/**
 * How long the prompt must have been seen before a press counts, and how long a button must
 * have held the focus before a key on it counts, in milliseconds. Long enough that a click or a
 * keystroke meant for the embedding page, landing on a prompt that has just appeared or a
 * button that has just taken the focus, is not read as consent.
 */
export const ARM_AFTER_MS = 500

/** A button of the prompt. */
export type ConsentChoice = 'allow' | 'deny'

export interface ConsentGateOptions {
  /** See {@link ARM_AFTER_MS}; 0..60000. @default ARM_AFTER_MS */
  armAfterMs?: number
  /** Milliseconds on a monotonic clock. @default performance.now */
  now?: () => number
}

/**
 * A pointer press counts once the prompt has been seen (on screen, unobscured, at a readable
 * size) for {@link ARM_AFTER_MS}: the press is aimed at what the user sees, and it moves the
 * focus to the button itself, so focus cannot be asked of it. A key counts only on a button
 * that has held the focus that long on a prompt seen that long, after every focus change
 * (Tab, the frame's window gaining or losing focus): an embedder that focuses the frame cannot
 * turn "Tab Tab Enter" typed for its own page into an Allow. A click is taken only as the end of
 * a press that counted, on the same button, with the prompt still seen: a click without one (a
 * synthetic click, a key held down since before) is ignored.
 *
 * @example
 * const gate = new ConsentGate({ now: () => t })
 * gate.seen(true) // t = 0
 * gate.focus('allow') // t = 600: the embedder focused the frame, the user pressed Tab
 * gate.keyDown('allow', 'Enter', false) // t = 610
 * gate.activate('allow') // => false: the button had the focus for 10 ms
 */
export class ConsentGate {
  readonly #armAfterMs: number
  readonly #now: () => number
  #seenSince: number | undefined
  #focused: ConsentChoice | undefined
  #focusedSince = Number.NEGATIVE_INFINITY
  #press: { choice: ConsentChoice; by: 'pointer' | 'key' } | undefined

  constructor(options: ConsentGateOptions = {}) {
    const armAfterMs = options.armAfterMs ?? ARM_AFTER_MS
    if (!Number.isFinite(armAfterMs) || armAfterMs < 0 || armAfterMs > 60_000) {
      throw new RangeError(`armAfterMs: expected 0..60000, got ${String(armAfterMs)}`)
    }
    this.#armAfterMs = armAfterMs
    this.#now = options.now ?? (() => performance.now())
  }

  /** The prompt is seen now (`true`), or is not (hidden, covered, shrunk, scrolled away). */
  seen(seen: boolean): void {
    if (!seen) {
      this.#seenSince = undefined
      this.#press = undefined
    } else this.#seenSince ??= this.#now()
  }

  /** The focus moved: to a button of the prompt, or anywhere else (`undefined`). */
  focus(choice: ConsentChoice | undefined): void {
    this.#focused = choice
    this.#focusedSince = this.#now()
    if (this.#press?.by === 'key') this.#press = undefined
  }

  /** Whether a pointer press would count now: the prompt seen for the delay. */
  get armed(): boolean {
    return this.#seenSince !== undefined && this.#now() - this.#seenSince >= this.#armAfterMs
  }

  /** Milliseconds until {@link armed} turns true by itself; `undefined` when it is or cannot. */
  armsIn(): number | undefined {
    if (this.#seenSince === undefined || this.armed) return undefined
    return this.#seenSince + this.#armAfterMs - this.#now()
  }

  /** A pointer went down on `choice`. */
  pointerDown(choice: ConsentChoice): void {
    this.#press = this.armed ? { choice, by: 'pointer' } : undefined
  }

  /** A key went down on `choice`; only a fresh Enter or Space may lead to a click. */
  keyDown(choice: ConsentChoice, key: string, repeat: boolean): void {
    const activates = key === 'Enter' || key === ' '
    const held = this.#focused === choice && this.#now() - this.#focusedSince >= this.#armAfterMs
    this.#press = activates && !repeat && held && this.armed ? { choice, by: 'key' } : undefined
  }

  /** `choice` was clicked: whether that is the user's answer. Uses up the press either way. */
  activate(choice: ConsentChoice): boolean {
    const press = this.#press
    this.#press = undefined
    return press?.choice === choice && this.armed
  }
}
