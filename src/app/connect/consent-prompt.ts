import { type ConsentRequest, requestFirstPartyStorage } from '../../connect/index.ts'
import { byId } from '../dom.ts'
import { type ConsentChoice, ConsentGate } from './consent-gate.ts'

/**
 * The smallest height, in device pixels, at which the prompt's heading counts as readable: about
 * 7-pixel type. Measured as the heading's CSS height times `devicePixelRatio`, which carries CSS
 * `zoom` set on the frame or its ancestors (IntersectionObserver v2 sees transforms, not zoom:
 * under `zoom: 0.15` the heading is some 3 device pixels tall and still "visible"). A frame
 * cannot tell a high-density screen from zoom, so on a 2x screen a zoom down to 0.25 passes.
 */
export const MIN_HEADING_DEVICE_PX = 10

/**
 * Shows "<origin> wants to use your memory: Allow / Deny" in the host page and resolves with the
 * user's answer. Input counts only as {@link ConsentGate} says: the prompt on screen, unobscured
 * and readable (IntersectionObserver v2 where the browser has it, and its rendered size), a
 * press only after `ARM_AFTER_MS` of that, a key only on a button that has held the focus as
 * long. So an embedder that covers the frame with a decoy, shrinks it, or focuses it and
 * waits for keystrokes cannot harvest consent. Prompts queue.
 */
export function askConsent(request: ConsentRequest): Promise<boolean> {
  queue = queue.then(() => ask(request))
  return queue
}

let queue: Promise<boolean> = Promise.resolve(false)

function ask(request: ConsentRequest): Promise<boolean> {
  const prompt = byId('consent')
  const heading = byId('consent-title')
  const buttons: Record<ConsentChoice, HTMLButtonElement> = {
    allow: byId<HTMLButtonElement>('consent-allow'),
    deny: byId<HTMLButtonElement>('consent-deny'),
  }
  byId('consent-origin').textContent = request.origin
  byId('consent-memory').textContent = request.memory
  byId('consent-namespace').textContent = request.namespace
  prompt.hidden = false
  const gate = new ConsentGate()
  const show = armedLook(gate, buttons)
  const stopWatching = watchSeen(prompt, heading, (seen) => {
    gate.seen(seen)
    show()
  })
  const stopFocus = watchFocus(buttons, (choice) => gate.focus(choice))
  return new Promise((resolve) => {
    const stopInput = listen(buttons, gate, (choice) => {
      // First, while the click's activation lasts: the browser may grant storage access only now.
      void requestFirstPartyStorage()
      stopWatching()
      stopFocus()
      stopInput()
      show.stop()
      prompt.hidden = true
      resolve(choice === 'allow')
    })
  })
}

/** Keeps the buttons' look (`aria-disabled`) in step with the gate: enabled once a click counts. */
function armedLook(
  gate: ConsentGate,
  buttons: Record<ConsentChoice, HTMLButtonElement>,
): (() => void) & { stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  const show = (): void => {
    clearTimeout(timer)
    for (const button of Object.values(buttons)) {
      button.setAttribute('aria-disabled', String(!gate.armed))
    }
    const wait = gate.armsIn()
    // Only the look waits on a timer; whether a click counts is asked of the gate at the click.
    if (wait !== undefined) timer = setTimeout(show, wait + 1)
  }
  return Object.assign(show, { stop: () => clearTimeout(timer) })
}

/**
 * Press, key and click listeners: a click the gate takes calls `answer`; any other is stopped
 * before it does anything.
 */
function listen(
  buttons: Record<ConsentChoice, HTMLButtonElement>,
  gate: ConsentGate,
  answer: (choice: ConsentChoice) => void,
): () => void {
  const controller = new AbortController()
  const options = { capture: true, signal: controller.signal }
  for (const [choice, button] of Object.entries(buttons) as [ConsentChoice, HTMLButtonElement][]) {
    button.addEventListener('pointerdown', () => gate.pointerDown(choice), options)
    button.addEventListener('keydown', (e) => gate.keyDown(choice, e.key, e.repeat), options)
    button.addEventListener(
      'click',
      (event) => {
        if (gate.activate(choice)) return answer(choice)
        event.preventDefault()
        event.stopImmediatePropagation()
      },
      options,
    )
  }
  return () => controller.abort()
}

/** Tells `moved` of every focus change: a button taking it, it leaving, the window's own. */
function watchFocus(
  buttons: Record<ConsentChoice, HTMLButtonElement>,
  moved: (choice: ConsentChoice | undefined) => void,
): () => void {
  const controller = new AbortController()
  const options = { signal: controller.signal }
  const current = (): ConsentChoice | undefined => {
    if (!document.hasFocus()) return undefined
    const focused = document.activeElement
    return focused === buttons.allow ? 'allow' : focused === buttons.deny ? 'deny' : undefined
  }
  const changed = (): void => moved(current())
  document.addEventListener('focusin', changed, options)
  document.addEventListener('focusout', changed, options)
  addEventListener('focus', changed, options)
  addEventListener('blur', changed, options)
  changed()
  return () => controller.abort()
}

/**
 * Calls `seen(true)` while `element` is wholly on screen, unobscured (IntersectionObserver v2,
 * `trackVisibility`, where the browser has it) and its `heading` readable (see
 * {@link MIN_HEADING_DEVICE_PX}), `seen(false)` as soon as one of them is not; returns a
 * function that stops watching.
 */
function watchSeen(
  element: HTMLElement,
  heading: HTMLElement,
  seen: (seen: boolean) => void,
): () => void {
  const v2 = 'isVisible' in IntersectionObserverEntry.prototype
  // Without v2, geometry alone cannot tell a framed prompt under a decoy or at opacity 0 from a
  // seen one: framed, it never arms, and says to connect through the host's own window.
  if (!v2 && window.top !== window) {
    const note = document.getElementById('consent-unseeable')
    if (note) note.hidden = false
    seen(false)
    return () => {}
  }
  let visible = false
  const report = (): void => seen(visible && readable(heading))
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries[entries.length - 1]
      const whole = Boolean(entry?.isIntersecting) && (entry?.intersectionRatio ?? 0) >= 0.99
      visible =
        whole && (!v2 || (entry as IntersectionObserverEntry & { isVisible: boolean }).isVisible)
      report()
    },
    // trackVisibility (v2) reports occlusion, opacity and transforms, not just geometry.
    v2
      ? ({ threshold: [0, 0.99, 1], trackVisibility: true, delay: 100 } as IntersectionObserverInit)
      : { threshold: [0, 0.99, 1] },
  )
  observer.observe(element)
  // Zoom changes the frame's devicePixelRatio, which fires `resize` and the resolution query.
  const controller = new AbortController()
  addEventListener('resize', report, { signal: controller.signal })
  let resolution: MediaQueryList | undefined
  const watchResolution = (): void => {
    resolution?.removeEventListener('change', onResolution)
    resolution = matchMedia(`(resolution: ${devicePixelRatio}dppx)`)
    resolution.addEventListener('change', onResolution)
  }
  const onResolution = (): void => {
    watchResolution()
    report()
  }
  watchResolution()
  return () => {
    observer.disconnect()
    controller.abort()
    resolution?.removeEventListener('change', onResolution)
  }
}

/** Whether `heading` is drawn at least {@link MIN_HEADING_DEVICE_PX} tall. */
function readable(heading: HTMLElement): boolean {
  return heading.getBoundingClientRect().height * devicePixelRatio >= MIN_HEADING_DEVICE_PX
}
